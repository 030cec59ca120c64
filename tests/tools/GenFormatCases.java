// Writes tests/unit/format_cases.tsv, the table tests/unit/test_format.c
// checks drvm's java.util.Formatter (vm/format*.c) against: every format
// of the lists below applied by the JDK to every value of a kind, one
// argument each, as `format TAB kind TAB value TAB expected`; expected is
// `!SimpleName: message` when the JDK throws.  Backslash, tab, newline
// and non-ASCII characters are written as backslash escapes (u and four
// hex digits for a non-ASCII character); doubles and
// floats as their bits in hex.
//
//     java tests/tools/GenFormatCases.java > tests/unit/format_cases.tsv
public class GenFormatCases {
    static final String[] INTEGER_FORMATS = {
        "%d", "%5d", "%-5d|", "%05d", "%+d", "% d", "%(d", "%,d", "%,15d", "%+,d", "%(,d", "%-+8d|", "%+08d",
        "%(08d", "% 08d", "%,010d", "%(,012d", "%x", "%X", "%#x", "%#X", "%08x", "%#010x", "%-8x|", "%o", "%#o",
        "%010o", "%#012o", "%-8o|", "%+x", "%(x", "% x", "%+o", "%#d", "%,x", "%,o", "%.2d", "%-d", "%0d", "%+ d",
        "%-05d", "%c", "%5c", "%-3c|", "%C", "%b", "%B", "%.1b", "%10b", "%f", "%e", "%a", "%2$d", "%<d",
        "%1$d %<x %1$o", "[%d]", "%d%%", "%tY", "%20d", "%-20d|", "%,d%n",
    };
    static final String[] FLOAT_FORMATS = {
        "%f", "%.0f", "%.1f", "%.2f", "%.3f", "%.10f", "%.20f", "%12.4f", "%-12.2f|", "%012.3f", "%+f", "% f",
        "%(f", "%(.2f", "%,f", "%,.2f", "%,015.2f", "%+,.3f", "%#.0f", "%(,012.1f", "%e", "%.0e", "%.1e", "%.3e",
        "%.10e", "%.16e", "%E", "%12.3e", "%-12.3e|", "%012.3e", "%+e", "%(e", "%#.0e", "% .2e", "%g", "%.0g",
        "%.1g", "%.3g", "%.10g", "%.17g", "%G", "%12.4g", "%012.4g", "%,g", "%,.8g", "%(g", "%+g", "%-12g|",
        "%a", "%A", "%.0a", "%.1a", "%.3a", "%.12a", "%.13a", "%.15a", "%20a", "%020a", "%+020a", "% 020a",
        "%-20a|", "%+a", "% a", "%d", "%c", "%#g", "%,e", "%(a", "%,a", "%b", "%.1f%%", "%1$f %<e %1$g",
        "%.30f", "%.25e", "%-30.20g|", "%.4g", "%.5f", "%.6e", "%,.0f", "%#.0a", "%.2g", "%.5a",
    };
    static final String[] CHAR_FORMATS = {
        "%c", "%C", "%5c", "%-5c|", "%d", "%x", "%b", "%f", "%#c", "%+c", "%.1c", "%-c", "%c%c",
    };
    static final String[] BOOLEAN_FORMATS = {
        "%b", "%B", "%5b", "%-6b|", "%.2b", "%.0b", "%d", "%c", "%x", "%e", "%#b", "%+b", "%0b", "%-b",
    };
    static final String[] STRING_FORMATS = {
        "%s", "%S", "%10s", "%-10s|", "%.2s", "%10.3s", "%-10.3S|", "%.0s", "%#s", "%+s", "% s", "%0s", "%,s",
        "%(s", "%-s", "%--5s", "%2$s", "%<s", "%1$s%1$s", "<%s>", "%s %s", "%.10s",
    };
    static final String[] NULL_FORMATS = {
        "%s", "%S", "%10s", "%.2s", "%b", "%B", "%5b", "%c", "%C", "%d", "%5d", "%x", "%X", "%o", "%+x", "%(o",
        "%e", "%f", "%.2f", "%g", "%G", "%a", "%h", "%H", "%8h|", "%tY", "%TY", "%-6tY|",
    };
    static final String[] OBJECT_FORMATS = {"%d", "%x", "%o", "%e", "%f", "%g", "%a", "%c", "%b", "%B", "%5b", "%tY"};
    // formats that fail (or not) whatever the argument
    static final String[] FORMAT_ONLY = {
        "%", "abc%", "%q", "%-", "%5", "%.f", "%1$", "%tq", "%T", "%t", "%t!", "%tt", "%12345678901$s",
        "%99999999999d", "%.99999999999f", "%0$s", "%00$s", "%<s", "%2$s", "a%sb%sc", "%-%", "%5%", "%-5%|", "%#%",
        "%.2%", "%0%", "%n", "%-n", "%,n", "%5n", "%.1n", "%ta", "%%%n%%", "%F", "%D", "%i", "%u", "%--d", "%##x",
        "%++d", "%  d", "%00d", "%,,d", "%((d", "%<<s", "%-0d", "%+ 5d", "%-05x", "% +e", "%-08.2f", "%Q",
        "%1$<s", "%<1$s", "%#-h", "%-#b", "%3$-5d", "%-3$5d", "%.2tY", "%#tY", "%+tY", "%,c", "%(c",
        "%0c", "%.c", "%5.s", "%.-1s", "%-.5s", "%é", "%\u00e9s", "plain text", "", "100%%", "%%d",
    };

    static final StringBuilder out = new StringBuilder();
    static int rows;

    static String esc(String s) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\\') b.append("\\\\");
            else if (c == '\t') b.append("\\t");
            else if (c == '\n') b.append("\\n");
            else if (c < 0x20 || c > 0x7e) b.append(String.format("\\u%04x", (int) c));
            else b.append(c);
        }
        return b.toString();
    }

    static void row(String fmt, String kind, String value, Object arg) {
        String got;
        try {
            got = String.format(fmt, arg);
        } catch (IllegalArgumentException | NullPointerException | UnsupportedOperationException e) {
            got = "!" + e.getClass().getSimpleName() + ": " + e.getMessage();
        }
        out.append(esc(fmt)).append('\t').append(kind).append('\t').append(esc(value)).append('\t')
            .append(esc(got)).append('\n');
        rows++;
    }

    static void each(String[] fmts, String kind, String value, Object arg) {
        for (String f : fmts)
            if (!(arg instanceof Long && f.contains("t"))) row(f, kind, value, arg); // a date: not in DL
    }

    public static void main(String[] a) {
        int[] ints = {0, 1, -1, 7, 42, -42, 255, 1000, -1000, 65536, 123456789, -123456789, Integer.MAX_VALUE,
                      Integer.MIN_VALUE, 65, 0x10FFFF, 0x110000, 0x1F600, 0xD800, 0xDFFF, 999999};
        for (int v : ints) each(INTEGER_FORMATS, "int", Integer.toString(v), v);
        long[] longs = {0, -1, 1L << 40, -(1L << 40), Long.MAX_VALUE, Long.MIN_VALUE, 1234567890123L,
                        4294967296L, -4294967296L, 65};
        for (long v : longs) each(INTEGER_FORMATS, "long", Long.toString(v), v);
        byte[] bytes = {0, 1, -1, 127, -128, 65, -42};
        for (byte v : bytes) each(INTEGER_FORMATS, "byte", Byte.toString(v), v);
        short[] shorts = {0, -1, 32767, -32768, 1000, 65, -1234};
        for (short v : shorts) each(INTEGER_FORMATS, "short", Short.toString(v), v);
        double[] doubles = {0.0, -0.0, 1.0, -1.0, 0.5, 1.5, 2.5, -2.5, 0.05, 0.15, 0.25, 0.35, 2.675, 1.005,
                            1e-5, 1.0E-4, 0.001, 123456789.123, 1234567.0, 9.999999, 99.995, 0.1, 1 / 3.0,
                            2 / 3.0, 100.0, 1e7, 1e21, 1e22, 1e23, 1e100, 1e300, Double.MAX_VALUE,
                            Double.MIN_VALUE, Double.MIN_NORMAL, 4.35, 5e-5, 9.5, 0.95, 999999.5, Double.NaN,
                            Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, Math.PI, Math.E, -123.456, 1e-10,
                            3.0e-310, 0.3, 0.7, 8.5, 6.02214076e23, 0.125, 1e15, 123.0, -0.001, 0.0625,
                            9.9999999e-5, 0.00009999, 99999.95, 1.0 / 1024, 1.9999999999999998, 2.2250738585072009E-308,
                            9.9999995, 0.00099995, 999999.95, 0.000099995, 1e-320, 0.45, 0.55, 1234.5, 1e-7,
                            4.9999999999999996e-5, 5.5e-5, 12345678.9, 0.9999996, 3.5e-4, 1e16, 9.007199254740993e15};
        for (double v : doubles)
            each(FLOAT_FORMATS, "double", Long.toHexString(Double.doubleToRawLongBits(v)), v);
        float[] floats = {0.1f, 1.1f, Float.MAX_VALUE, Float.MIN_VALUE, 0.5f, 2.675f, -0f, Float.NaN, 16777216f,
                          1e10f, 0.3f, -3.14159f, Float.POSITIVE_INFINITY};
        for (float v : floats) each(FLOAT_FORMATS, "float", Integer.toHexString(Float.floatToRawIntBits(v)), v);
        char[] chars = {'a', 'Z', '0', '%', '\u00e9', '\u00df', '\u03a3', '\u4e2d', '\ud83d'};
        for (char v : chars) each(CHAR_FORMATS, "char", Integer.toString(v), v);
        each(BOOLEAN_FORMATS, "boolean", "true", true);
        each(BOOLEAN_FORMATS, "boolean", "false", false);
        String[] strings = {"hello", "", "a", "Hello, World", "stra\u00dfe", "\u00e9t\u00e9", "\ud83d\ude00x", "tab\there"};
        for (String v : strings) each(STRING_FORMATS, "str", v, v);
        each(NULL_FORMATS, "null", "", null);
        each(OBJECT_FORMATS, "obj", "java.lang.Object", new Object());
        each(OBJECT_FORMATS, "obj", "java.lang.String", "abc");
        each(FORMAT_ONLY, "null", "", null);
        System.out.print(out);
        System.err.println(rows + " rows");
    }
}

package text;

public class Util {
    public static final String NAME = "text.Util";
    public static String name() { return NAME; }
    public static String pad(String s, int n) {
        StringBuilder b = new StringBuilder(s);
        while (b.length() < n) b.append('.');
        return b.toString();
    }
}

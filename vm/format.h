/* java.util.Formatter as JDK 17 has it (String.format, printf): parsing a
 * format string and formatting one argument for one specifier, with the
 * JDK's exceptions as data.  The loop over the specifiers, and the
 * toString()/hashCode() calls it makes, are DL code (drvm.Fmt in
 * prelude.dl): C cannot run bytecode.  natives_format.c binds the two. */
#ifndef DR_FORMAT_H
#define DR_FORMAT_H

#include "vm.h"

/* Flags, with the bits java.util.Formatter.Flags gives them. */
enum {
  DR_FMT_LEFT = 1 << 0,  /* '-' */
  DR_FMT_UPPER = 1 << 1, /* an upper-case conversion */
  DR_FMT_ALT = 1 << 2,   /* '#' */
  DR_FMT_PLUS = 1 << 3,  /* '+' */
  DR_FMT_SPACE = 1 << 4, /* ' ' */
  DR_FMT_ZERO = 1 << 5,  /* '0' */
  DR_FMT_GROUP = 1 << 6, /* ',' */
  DR_FMT_PAREN = 1 << 7, /* '(' */
  DR_FMT_PREV = 1 << 8,  /* '<' */
};

/* One item of a parsed format: a fixed text (conv 0) or a specifier. */
typedef struct {
  int32_t index;     /* -2: takes no argument (text, %n, %%); -1: '<'; 0: the next; N: N$ */
  int32_t start, end;/* where it is in the format */
  int32_t flags;     /* DR_FMT_* */
  int32_t width;     /* -1: none */
  int32_t precision; /* -1: none */
  int32_t datetime;  /* %t / %T: conv is the date/time conversion */
  int32_t conv;      /* lower-case conversion ('d', 's', ...), or 0 */
} DrFmtSpec;

/* An argument, as Formatter tells them apart. */
typedef enum {
  DR_FMT_NULL,
  DR_FMT_BOOLEAN,
  DR_FMT_CHAR,
  DR_FMT_BYTE,
  DR_FMT_SHORT,
  DR_FMT_INT,
  DR_FMT_LONG,
  DR_FMT_FLOAT,
  DR_FMT_DOUBLE,
  DR_FMT_TEXT,   /* the String a %s or %h prints (toString(), the hash in hex) */
  DR_FMT_OBJECT, /* any other object: class_name says which */
} DrFmtKind;

typedef struct {
  DrFmtKind kind;
  int64_t j;               /* boolean, char, byte, short, int, long */
  double d;                /* double, and float widened */
  const uint16_t *text;    /* TEXT: NULL is a toString() that returned null */
  int32_t len;
  const char *class_name;  /* OBJECT: for IllegalFormatConversionException */
} DrFmtArg;

/* The exceptions java.util.Formatter throws, with their constructors'
 * arguments. */
typedef enum {
  DR_FMT_OK,
  DR_FMT_E_UNKNOWN_CONVERSION, /* UnknownFormatConversionException(text) */
  DR_FMT_E_MISSING_ARGUMENT,   /* MissingFormatArgumentException(text) */
  DR_FMT_E_CONVERSION,         /* IllegalFormatConversionException(conv, text: the class) */
  DR_FMT_E_MISMATCH,           /* FormatFlagsConversionMismatchException(text: flags, conv) */
  DR_FMT_E_PRECISION,          /* IllegalFormatPrecisionException(num) */
  DR_FMT_E_WIDTH,              /* IllegalFormatWidthException(num) */
  DR_FMT_E_MISSING_WIDTH,      /* MissingFormatWidthException(text) */
  DR_FMT_E_DUPLICATE_FLAGS,    /* DuplicateFormatFlagsException(text) */
  DR_FMT_E_ILLEGAL_FLAGS,      /* IllegalFormatFlagsException(text) */
  DR_FMT_E_CODE_POINT,         /* IllegalFormatCodePointException(num) */
  DR_FMT_E_ARGUMENT_INDEX,     /* IllegalFormatArgumentIndexException(num) */
  DR_FMT_E_NULL,               /* NullPointerException: a null toString() with a width, precision or %S */
  DR_FMT_E_DATETIME,           /* %t of a Long: dates are not in DL */
  DR_FMT_E_TOO_LONG,           /* a width or precision past DR_FMT_MAX_LEN */
} DrFmtErrKind;

/* Longest text one specifier may make (the JDK's limit is its heap). */
#define DR_FMT_MAX_LEN (1 << 26)

typedef struct {
  DrFmtErrKind kind;
  int32_t num;
  int32_t conv;
  uint16_t text[80];
  int32_t len;
} DrFmtError;

/* Formatter.parse: the items of the format s[0..n) in order (*items
 * malloc'd, freed by the caller), or false and the first error, which the
 * JDK throws before formatting anything. */
bool fmt_parse(const uint16_t *s, int32_t n, DrFmtSpec **items, int32_t *count, DrFmtError *err);

/* What item sp of the format s prints for argument a, appended to out;
 * false and err when Java throws there (a is ignored for items with
 * index -2). */
bool fmt_print(const uint16_t *s, int32_t n, const DrFmtSpec *sp, const DrFmtArg *a, DrBuf16 *out,
               DrFmtError *err);

/* FormatSpecifier.toString(): "%-5d", "%<s" (MissingFormatArgument's text). */
void fmt_spec_text(const DrFmtSpec *sp, DrBuf16 *out);

/* Flags.toString() of flags: "-#+ 0,(<" order, '^' for DR_FMT_UPPER. */
void fmt_flags_text(int32_t flags, DrBuf16 *out);

#endif

/* The one table of DL's tokens.  Everything that needs to know the token
 * set (the DrTokKind enum, the names printed in messages such as
 * `';' expected`, the keyword lookup and the operator scanner) is generated
 * from DR_TOKENS, so adding a token is one line here.
 *
 * Columns: X(name, spelling, flags)
 *   name      T_<name> in DrTokKind
 *   spelling  the source text (keywords, operators, separators), or the
 *             description used in messages for tokens with a value
 *   flags     DR_TKF_* below
 *
 * Every Java 17 keyword is here, including those DL rejects, so the parser
 * can name the construct in its error.  Contextual words (var, record,
 * yield, sealed, permits) are identifiers, as in Java. */
#ifndef DR_TOKENS_H
#define DR_TOKENS_H

enum {
  DR_TKF_VALUE = 1 << 0,    /* carries a value: identifier, literal, EOF */
  DR_TKF_KEYWORD = 1 << 1,  /* reserved word: looked up by spelling */
  DR_TKF_OP = 1 << 2,       /* operator or separator: matched longest first */
  DR_TKF_MODIFIER = 1 << 3, /* may start a declaration as a modifier */
  DR_TKF_PRIMTYPE = 1 << 4, /* names a primitive type (void included) */
  DR_TKF_LITERAL = 1 << 5,  /* a literal (true/false/null included) */
  DR_TKF_STMT = 1 << 6,     /* starts a statement: panic-mode recovery stops here */
};

#define DR_KW (DR_TKF_KEYWORD)
#define DR_KWM (DR_TKF_KEYWORD | DR_TKF_MODIFIER)
#define DR_KWT (DR_TKF_KEYWORD | DR_TKF_PRIMTYPE)
#define DR_KWS (DR_TKF_KEYWORD | DR_TKF_STMT)
#define DR_KWL (DR_TKF_KEYWORD | DR_TKF_LITERAL)
#define DR_VAL (DR_TKF_VALUE)
#define DR_LIT (DR_TKF_VALUE | DR_TKF_LITERAL)

#define DR_TOKENS(X)                                                          \
  /* tokens with a value */                                                   \
  X(EOF, "<EOF>", DR_VAL)                                                     \
  X(IDENT, "<identifier>", DR_VAL)                                            \
  X(INT_LIT, "<int literal>", DR_LIT)                                         \
  X(LONG_LIT, "<long literal>", DR_LIT)                                       \
  X(DOUBLE_LIT, "<double literal>", DR_LIT)                                   \
  X(FLOAT_LIT, "<float literal>", DR_LIT)                                     \
  X(CHAR_LIT, "<char literal>", DR_LIT)                                       \
  X(STRING_LIT, "<string literal>", DR_LIT)                                   \
  /* keywords */                                                              \
  X(ABSTRACT, "abstract", DR_KWM)                                             \
  X(ASSERT, "assert", DR_KWS)                                                 \
  X(BOOLEAN, "boolean", DR_KWT)                                               \
  X(BREAK, "break", DR_KWS)                                                   \
  X(BYTE, "byte", DR_KWT)                                                     \
  X(CASE, "case", DR_KW)                                                      \
  X(CATCH, "catch", DR_KW)                                                    \
  X(CHAR, "char", DR_KWT)                                                     \
  X(CLASS, "class", DR_KW)                                                    \
  X(CONST, "const", DR_KW)                                                    \
  X(CONTINUE, "continue", DR_KWS)                                             \
  X(DEFAULT, "default", DR_KW)                                                \
  X(DO, "do", DR_KWS)                                                         \
  X(DOUBLE, "double", DR_KWT)                                                 \
  X(ELSE, "else", DR_KW)                                                      \
  X(ENUM, "enum", DR_KW)                                                      \
  X(EXTENDS, "extends", DR_KW)                                                \
  X(FINAL, "final", DR_KWM)                                                   \
  X(FINALLY, "finally", DR_KW)                                                \
  X(FLOAT, "float", DR_KWT)                                                   \
  X(FOR, "for", DR_KWS)                                                       \
  X(GOTO, "goto", DR_KW)                                                      \
  X(IF, "if", DR_KWS)                                                         \
  X(IMPLEMENTS, "implements", DR_KW)                                          \
  X(IMPORT, "import", DR_KW)                                                  \
  X(INSTANCEOF, "instanceof", DR_KW)                                          \
  X(INT, "int", DR_KWT)                                                       \
  X(INTERFACE, "interface", DR_KW)                                            \
  X(LONG, "long", DR_KWT)                                                     \
  X(NATIVE, "native", DR_KWM)                                                 \
  X(NEW, "new", DR_KW)                                                        \
  X(PACKAGE, "package", DR_KW)                                                \
  X(PRIVATE, "private", DR_KWM)                                               \
  X(PROTECTED, "protected", DR_KWM)                                           \
  X(PUBLIC, "public", DR_KWM)                                                 \
  X(RETURN, "return", DR_KWS)                                                 \
  X(SHORT, "short", DR_KWT)                                                   \
  X(STATIC, "static", DR_KWM)                                                 \
  X(STRICTFP, "strictfp", DR_KWM)                                             \
  X(SUPER, "super", DR_KW)                                                    \
  X(SWITCH, "switch", DR_KWS)                                                 \
  X(SYNCHRONIZED, "synchronized", DR_KWM | DR_TKF_STMT)                       \
  X(THIS, "this", DR_KW)                                                      \
  X(THROW, "throw", DR_KWS)                                                   \
  X(THROWS, "throws", DR_KW)                                                  \
  X(TRANSIENT, "transient", DR_KWM)                                           \
  X(TRY, "try", DR_KWS)                                                       \
  X(VOID, "void", DR_KWT)                                                     \
  X(VOLATILE, "volatile", DR_KWM)                                             \
  X(WHILE, "while", DR_KWS)                                                   \
  X(UNDERSCORE, "_", DR_KW)                                                   \
  X(TRUE, "true", DR_KWL)                                                     \
  X(FALSE, "false", DR_KWL)                                                   \
  X(NULL, "null", DR_KWL)                                                     \
  /* separators */                                                            \
  X(LPAREN, "(", DR_TKF_OP)                                                   \
  X(RPAREN, ")", DR_TKF_OP)                                                   \
  X(LBRACE, "{", DR_TKF_OP)                                                   \
  X(RBRACE, "}", DR_TKF_OP)                                                   \
  X(LBRACKET, "[", DR_TKF_OP)                                                 \
  X(RBRACKET, "]", DR_TKF_OP)                                                 \
  X(SEMI, ";", DR_TKF_OP)                                                     \
  X(COMMA, ",", DR_TKF_OP)                                                    \
  X(DOT, ".", DR_TKF_OP)                                                      \
  X(ELLIPSIS, "...", DR_TKF_OP)                                               \
  X(AT, "@", DR_TKF_OP)                                                       \
  X(COLONCOLON, "::", DR_TKF_OP)                                              \
  /* operators */                                                             \
  X(ASSIGN, "=", DR_TKF_OP)                                                   \
  X(GT, ">", DR_TKF_OP)                                                       \
  X(LT, "<", DR_TKF_OP)                                                       \
  X(BANG, "!", DR_TKF_OP)                                                     \
  X(TILDE, "~", DR_TKF_OP)                                                    \
  X(QUESTION, "?", DR_TKF_OP)                                                 \
  X(COLON, ":", DR_TKF_OP)                                                    \
  X(ARROW, "->", DR_TKF_OP)                                                   \
  X(EQEQ, "==", DR_TKF_OP)                                                    \
  X(LE, "<=", DR_TKF_OP)                                                      \
  X(GE, ">=", DR_TKF_OP)                                                      \
  X(NE, "!=", DR_TKF_OP)                                                      \
  X(ANDAND, "&&", DR_TKF_OP)                                                  \
  X(OROR, "||", DR_TKF_OP)                                                    \
  X(PLUSPLUS, "++", DR_TKF_OP)                                                \
  X(MINUSMINUS, "--", DR_TKF_OP)                                              \
  X(PLUS, "+", DR_TKF_OP)                                                     \
  X(MINUS, "-", DR_TKF_OP)                                                    \
  X(STAR, "*", DR_TKF_OP)                                                     \
  X(SLASH, "/", DR_TKF_OP)                                                    \
  X(AMP, "&", DR_TKF_OP)                                                      \
  X(BAR, "|", DR_TKF_OP)                                                      \
  X(CARET, "^", DR_TKF_OP)                                                    \
  X(PERCENT, "%", DR_TKF_OP)                                                  \
  X(SHL, "<<", DR_TKF_OP)                                                     \
  X(SHR, ">>", DR_TKF_OP)                                                     \
  X(USHR, ">>>", DR_TKF_OP)                                                   \
  X(PLUSEQ, "+=", DR_TKF_OP)                                                  \
  X(MINUSEQ, "-=", DR_TKF_OP)                                                 \
  X(STAREQ, "*=", DR_TKF_OP)                                                  \
  X(SLASHEQ, "/=", DR_TKF_OP)                                                 \
  X(AMPEQ, "&=", DR_TKF_OP)                                                   \
  X(BAREQ, "|=", DR_TKF_OP)                                                   \
  X(CARETEQ, "^=", DR_TKF_OP)                                                 \
  X(PERCENTEQ, "%=", DR_TKF_OP)                                               \
  X(SHLEQ, "<<=", DR_TKF_OP)                                                  \
  X(SHREQ, ">>=", DR_TKF_OP)                                                  \
  X(USHREQ, ">>>=", DR_TKF_OP)

typedef enum {
#define DR_TOK_ENUM(name, spelling, flags) T_##name,
  DR_TOKENS(DR_TOK_ENUM)
#undef DR_TOK_ENUM
  DR_TOK_COUNT
} DrTokKind;

#endif

/* Unicode properties the built-in library needs, as the JDK 17 (Unicode
 * 13) has them: Character.isDigit/isLetter/digit for chars, and String's
 * case mapping.  Tables are generated (vm/unicode_tables.c, by
 * tests/tools/GenUnicode.java); lookups are in unicode.c. */
#ifndef DR_UNICODE_H
#define DR_UNICODE_H

#include <stdbool.h>
#include <stdint.h>

/* A run of one-to-one case mappings: start + k*step (k < count) maps to
 * itself + delta. */
typedef struct {
  uint32_t start;
  uint16_t count;
  uint8_t step;
  int32_t delta;
} DrCaseRun;

/* A mapping of one code point to len (<= 3) UTF-16 units. */
typedef struct {
  uint32_t cp;
  uint8_t len;
  uint16_t out[3];
} DrCaseSpecial;

extern const uint16_t dr_uc_digit[][2];
extern const int dr_uc_digit_len;
extern const uint16_t dr_uc_letter[][2];
extern const int dr_uc_letter_len;
extern const uint32_t dr_uc_cased[][2];
extern const int dr_uc_cased_len;
extern const uint32_t dr_uc_word[][2];
extern const int dr_uc_word_len;
extern const DrCaseRun dr_uc_upper_runs[];
extern const int dr_uc_upper_runs_len;
extern const DrCaseSpecial dr_uc_upper_specials[];
extern const int dr_uc_upper_specials_len;
extern const DrCaseRun dr_uc_lower_runs[];
extern const int dr_uc_lower_runs_len;
extern const DrCaseSpecial dr_uc_lower_specials[];
extern const int dr_uc_lower_specials_len;

bool dr_uc_is_digit(uint16_t c);
bool dr_uc_is_letter(uint16_t c);
/* Character.digit(c, 10): 0..9, or -1. */
int dr_uc_digit_value(uint16_t c);
/* Cased letters (Lu, Ll, Lt, Other_Lowercase/Uppercase), for final sigma. */
bool dr_uc_is_cased(uint32_t cp);
/* Inside a word, as the final-sigma rule of String.toLowerCase sees words. */
bool dr_uc_is_word(uint32_t cp);
/* String case mapping of one code point: writes 1..3 UTF-16 units to out
 * and returns their number.  Context (final sigma) is the caller's. */
int dr_uc_to_upper(uint32_t cp, uint16_t out[3]);
int dr_uc_to_lower(uint32_t cp, uint16_t out[3]);

#endif

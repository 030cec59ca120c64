/* Float.toString (vm/dtoa.c's dr_float_to_string) against JDK 17's own
 * texts for about four thousand floats (float_table.h, generated once by
 * float_table_gen.java), plus the examples of docs/language.md. */
#include <string.h>

#include "../../vm/vm.h"
#include "check.h"
#include "float_table.h"

static bool ftoa_is(float f, const char *want) {
  char buf[32];
  int n = dr_float_to_string(f, buf);
  if (strcmp(buf, want) != 0 || n != (int)strlen(want)) {
    fprintf(stderr, "dr_float_to_string: got %s, want %s\n", buf, want);
    return false;
  }
  return true;
}

static float from_bits(uint32_t bits) {
  float f;
  memcpy(&f, &bits, sizeof f);
  return f;
}

int main(void) {
  DrCheck t = {0, 0};
  CHECK(&t, ftoa_is(0.1f, "0.1"));
  CHECK(&t, ftoa_is(1.0f / 3, "0.33333334"));
  CHECK(&t, ftoa_is(1e10f, "1.0E10"));
  CHECK(&t, ftoa_is(100.0f, "100.0"));
  CHECK(&t, ftoa_is(0.1f + 0.2f, "0.3"));
  CHECK(&t, ftoa_is(from_bits(0x7fc00000u), "NaN"));
  int bad = 0;
  for (size_t i = 0; i < sizeof float_table / sizeof float_table[0]; i++)
    if (!ftoa_is(from_bits(float_table[i].bits), float_table[i].text) && ++bad > 20) break;
  CHECK(&t, bad == 0);
  printf("%zu floats of the JDK's table\n", sizeof float_table / sizeof float_table[0]);
  return CHECK_DONE(&t);
}

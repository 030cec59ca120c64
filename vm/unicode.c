/* Lookups in the generated Unicode tables (unicode_tables.c): binary
 * searches over sorted, disjoint ranges. */
#include "unicode.h"

static int find_range16(const uint16_t (*r)[2], int n, uint32_t c) {
  int lo = 0, hi = n - 1;
  while (lo <= hi) {
    int mid = lo + (hi - lo) / 2;
    if (c < r[mid][0]) hi = mid - 1;
    else if (c > r[mid][1]) lo = mid + 1;
    else return mid;
  }
  return -1;
}

static int find_range32(const uint32_t (*r)[2], int n, uint32_t c) {
  int lo = 0, hi = n - 1;
  while (lo <= hi) {
    int mid = lo + (hi - lo) / 2;
    if (c < r[mid][0]) hi = mid - 1;
    else if (c > r[mid][1]) lo = mid + 1;
    else return mid;
  }
  return -1;
}

bool dr_uc_is_digit(uint16_t c) {
  if (c < 128) return c >= '0' && c <= '9';
  return find_range16(dr_uc_digit, dr_uc_digit_len, c) >= 0;
}

bool dr_uc_is_letter(uint16_t c) {
  if (c < 128) return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
  return find_range16(dr_uc_letter, dr_uc_letter_len, c) >= 0;
}

int dr_uc_digit_value(uint16_t c) {
  if (c < 128) return (c >= '0' && c <= '9') ? c - '0' : -1;
  int i = find_range16(dr_uc_digit, dr_uc_digit_len, c);
  /* Decimal digits come in runs of ten starting at zero (the generator
   * checks this), so the value is the offset within the run. */
  return i < 0 ? -1 : (int)((c - dr_uc_digit[i][0]) % 10);
}

bool dr_uc_is_cased(uint32_t cp) { return find_range32(dr_uc_cased, dr_uc_cased_len, cp) >= 0; }

bool dr_uc_is_word(uint32_t cp) { return find_range32(dr_uc_word, dr_uc_word_len, cp) >= 0; }

static int map_case(const DrCaseRun *runs, int nruns, const DrCaseSpecial *sp, int nsp, uint32_t cp, uint16_t out[3]) {
  int lo = 0, hi = nsp - 1;
  while (lo <= hi) {
    int mid = lo + (hi - lo) / 2;
    if (cp < sp[mid].cp) hi = mid - 1;
    else if (cp > sp[mid].cp) lo = mid + 1;
    else {
      for (int i = 0; i < sp[mid].len; i++) out[i] = sp[mid].out[i];
      return sp[mid].len;
    }
  }
  /* the last run starting at or before cp */
  lo = 0;
  hi = nruns - 1;
  int found = -1;
  while (lo <= hi) {
    int mid = lo + (hi - lo) / 2;
    if (runs[mid].start <= cp) {
      found = mid;
      lo = mid + 1;
    } else {
      hi = mid - 1;
    }
  }
  uint32_t m = cp;
  if (found >= 0) {
    const DrCaseRun *r = &runs[found];
    uint32_t off = cp - r->start;
    if (off % r->step == 0 && off / r->step < r->count) m = (uint32_t)((int32_t)cp + r->delta);
  }
  if (m < 0x10000) {
    out[0] = (uint16_t)m;
    return 1;
  }
  out[0] = (uint16_t)(0xD800 + ((m - 0x10000) >> 10));
  out[1] = (uint16_t)(0xDC00 + ((m - 0x10000) & 0x3FF));
  return 2;
}

int dr_uc_to_upper(uint32_t cp, uint16_t out[3]) {
  if (cp < 128) {
    out[0] = (uint16_t)((cp >= 'a' && cp <= 'z') ? cp - 32 : cp);
    return 1;
  }
  return map_case(dr_uc_upper_runs, dr_uc_upper_runs_len, dr_uc_upper_specials, dr_uc_upper_specials_len, cp, out);
}

int dr_uc_to_lower(uint32_t cp, uint16_t out[3]) {
  if (cp < 128) {
    out[0] = (uint16_t)((cp >= 'A' && cp <= 'Z') ? cp + 32 : cp);
    return 1;
  }
  return map_case(dr_uc_lower_runs, dr_uc_lower_runs_len, dr_uc_lower_specials, dr_uc_lower_specials_len, cp, out);
}

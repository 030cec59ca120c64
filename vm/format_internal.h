/* What format.c and format_float.c share: the layout steps of
 * FormatSpecifier (signs, grouping and zero padding, justification). */
#ifndef DR_FORMAT_INTERNAL_H
#define DR_FORMAT_INTERNAL_H

#include "format.h"

/* true, with err set, when n characters are past DR_FMT_MAX_LEN */
bool fmt_too_long(int64_t n, DrFmtError *err);
bool fmt_fail_mismatch(const DrFmtSpec *sp, int32_t flag, DrFmtError *err);
/* n copies of c (none when n <= 0) */
void fmt_put(DrBuf16 *out, uint16_t c, int64_t n);
bool fmt_justify(const DrFmtSpec *sp, DrBuf16 *out, int32_t base, DrFmtError *err);
void fmt_leading_sign(const DrFmtSpec *sp, DrBuf16 *out, bool neg);
void fmt_trailing_sign(const DrFmtSpec *sp, DrBuf16 *out, bool neg);
int32_t fmt_adjust_width(const DrFmtSpec *sp, int32_t width, bool neg);
/* the number v[0..n) (ASCII digits and a '.') as localizedMagnitude
 * writes it; out[base..] is the whole number so far, sign included */
bool fmt_magnitude(const DrFmtSpec *sp, DrBuf16 *out, const char *v, int32_t n, int32_t width, int32_t base,
                   DrFmtError *err);
/* print(double): %e %f %g %a of a double (a float widened) */
bool fmt_print_double(const DrFmtSpec *sp, double value, DrBuf16 *out, DrFmtError *err);

#endif

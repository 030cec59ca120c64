/* A timeline as one self-contained HTML page: the page (HTML, CSS and
 * script, cli/timeline_page.html, embedded at build time) with the
 * model's JSON put where it says DRVM_DATA. */
#include <string.h>

#include "timeline.h"

extern const char dr_timeline_page[];

static const char MARKER[] = "/*DRVM_DATA*/";

/* The JSON inside a <script> element: every '<' as \u003c (JSON's own
 * escape), so that no "</script" and no "<!--" in a printed line can end
 * or change the element. */
static void put_escaped(const DrBuf *json, FILE *out) {
  const char *s = json->data, *end = json->data + json->len;
  while (s < end) {
    const char *lt = memchr(s, '<', (size_t)(end - s));
    if (!lt) {
      fwrite(s, 1, (size_t)(end - s), out);
      break;
    }
    fwrite(s, 1, (size_t)(lt - s), out);
    fputs("\\u003c", out);
    s = lt + 1;
  }
}

bool dr_tl_write_html(const DrTimeline *tl, FILE *out) {
  const char *at = strstr(dr_timeline_page, MARKER);
  if (!at) return false; /* the build embedded a page without its marker */
  DrBuf json = {0};
  dr_tl_json(tl, &json);
  fwrite(dr_timeline_page, 1, (size_t)(at - dr_timeline_page), out);
  put_escaped(&json, out);
  fputs(at + strlen(MARKER), out);
  free(json.data);
  return !ferror(out);
}

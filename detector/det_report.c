/* Race reports, in the habits of Go's race detector and ThreadSanitizer:
 * both accesses with whole stacks and the locks held, the threads and
 * where they were started, why happens-before does not order them, and
 * the command that replays the run.  One report per racy field (or per
 * array access site) unless --all-races; the summary line at exit; the
 * same as JSON with --report json=FILE. */
#include <string.h>

#include "../vm/json.h"
#include "det.h"

void dr_det_loc_field_name(const DrLoc *loc, DrBuf *b) {
  char buf[300];
  if (loc->is_array) {
    dr_buf_append_str(b, dr_class_display_name(loc->obj->cls, buf, sizeof buf));
    return;
  }
  const DrClass *c = loc->is_static ? loc->cls : loc->obj->cls;
  const char *field = "?";
  if (loc->is_static) {
    if (loc->index >= 0 && loc->index < c->nstatics) field = c->static_names[loc->index];
  } else {
    if (loc->index >= 0 && loc->index < c->nfields) field = c->field_names[loc->index];
    /* named by the class that declares it: the topmost class whose layout has the slot */
    while (c->super && loc->index < c->super->nfields) c = c->super;
  }
  dr_buf_append_str(b, dr_class_display_name(c, buf, sizeof buf));
  dr_buf_append_str(b, ".");
  dr_buf_append_str(b, field);
}

/* "Account.balance (Account#3)", "Counter.count", "int[]#7[3]" */
static void loc_text(const DrLoc *loc, DrBuf *b) {
  char buf[300];
  if (loc->is_array) {
    dr_buf_printf(b, "%s[%d]", dr_obj_name(loc->obj, buf, sizeof buf), loc->index);
    return;
  }
  dr_det_loc_field_name(loc, b);
  if (!loc->is_static) {
    dr_buf_append_str(b, " (");
    dr_buf_append_str(b, dr_obj_name(loc->obj, buf, sizeof buf));
    dr_buf_append_str(b, ")");
  }
}

static const char *thread_name(DrDet *d, uint32_t tid, char *buf, size_t size) {
  if ((int)tid < d->vm->nall_threads) return dr_thread_name(d->vm, d->vm->all_threads[tid], buf, size);
  snprintf(buf, size, "T%u", (unsigned)tid);
  return buf;
}

static bool thread_ended(DrDet *d, uint32_t tid) {
  return (int)tid < d->vm->nall_threads && d->vm->all_threads[tid]->state == DR_TS_ENDED;
}

static void access_block(DrDet *d, const char *prefix, const DrAccess *a, const DrLoc *loc, DrBuf *b) {
  char nb[128];
  dr_buf_append_str(b, prefix);
  dr_buf_append_str(b, a->write ? (*prefix ? "write" : "Write") : (*prefix ? "read" : "Read"));
  dr_buf_append_str(b, " at ");
  loc_text(loc, b);
  dr_buf_append_str(b, " by thread ");
  dr_buf_append_str(b, thread_name(d, a->tid, nb, sizeof nb));
  dr_buf_append_str(b, " (locks held: ");
  dr_buf_append_str(b, dr_det_lockset_text(d, dr_det_ctx_lockset(d, a->ctx)));
  dr_buf_append_str(b, "):\n");
  dr_det_ctx_stack(d, a->ctx, b);
}

static void thread_block(DrDet *d, uint32_t tid, DrBuf *b) {
  char nb[128];
  dr_buf_printf(b, "Thread %s (%s) %s\n", thread_name(d, tid, nb, sizeof nb),
                thread_ended(d, tid) ? "finished" : "running", tid == 0 ? "is the main thread." : "created at:");
  if (tid == 0) return;
  dr_det_ctx_stack(d, (int)tid < d->ntids ? d->tids[tid].created_ctx : 0, b);
}

static bool key_seen(DrDet *d, const char *key) {
  int lo = 0, hi = d->nkeys;
  while (lo < hi) {
    int mid = (lo + hi) / 2;
    int c = strcmp(d->keys[mid], key);
    if (!c) return true;
    if (c < 0) lo = mid + 1;
    else hi = mid;
  }
  if (d->nkeys == d->keys_cap) {
    d->keys_cap = d->keys_cap ? d->keys_cap * 2 : 16;
    d->keys = dr_xrealloc(d->keys, sizeof(char *) * (size_t)d->keys_cap);
  }
  memmove(d->keys + lo + 1, d->keys + lo, sizeof(char *) * (size_t)(d->nkeys - lo));
  d->keys[lo] = dr_strdup(key);
  d->nkeys++;
  return false;
}

static char *buf_str(DrBuf *b) {
  dr_buf_append(b, "", 1);
  return b->data;
}

/* Why the two accesses race, as one sentence. */
static void explain(DrDet *d, DrWhy why, const DrAccess *cur, const DrAccess *prev, uint32_t seen, const char *field,
                    DrBuf *w) {
  char nb1[128], nb2[128];
  switch (why) {
  case DR_WHY_HB:
    {
      const char *pn = thread_name(d, prev->tid, nb1, sizeof nb1), *cn = thread_name(d, cur->tid, nb2, sizeof nb2);
      dr_buf_printf(w, "Not ordered by happens-before: the %s was at %u@%s; %s had seen %s only up to %u.",
                    prev->write ? "write" : "read", (unsigned)prev->clock, pn, cn, pn, (unsigned)seen);
    }
    break;
  case DR_WHY_LOCKSET:
    dr_buf_printf(w,
                  "Eraser: %s is shared and written, and no lock was held at all of its accesses since it "
                  "became shared (locksets are not happens-before: this may be a false alarm).",
                  field);
    break;
  case DR_WHY_HYBRID:
    dr_buf_append_str(w, "Hybrid: the two accesses hold no lock in common and no start, join or notify orders them "
                         "(a potential race: locks taken in the other order would hide it).");
    break;
  case DR_WHY_WCP:
    {
      const char *pn = thread_name(d, prev->tid, nb1, sizeof nb1), *cn = thread_name(d, cur->tid, nb2, sizeof nb2);
      dr_buf_printf(w,
                    "Predicted (WCP): in this run happens-before orders them only through the order in which "
                    "locks (or a volatile) were taken; by weak causal precedence %s had seen %s only up to %u, "
                    "not the %s at %u@%s, so another order of the same events can make them race. A prediction "
                    "until a steered run confirms it.",
                    cn, pn, (unsigned)seen, prev->write ? "write" : "read", (unsigned)prev->clock, pn);
    }
    break;
  }
}

void dr_det_race(DrDet *d, const DrLoc *loc, const DrEvent *e, DrAccess cur, DrAccess prev, DrWhy why,
                 uint32_t seen) {
  (void)e;
  /* slots and their clocks to threads and theirs, as counted without
   * accordion clocks (dr_det_slot_tid) */
  uint32_t prev_clock = prev.clock;
  cur.tid = dr_det_slot_tid(d, cur.tid, cur.clock, &cur.clock);
  prev.tid = dr_det_slot_tid(d, prev.tid, prev_clock, &prev.clock);
  uint32_t prev_base = prev_clock - prev.clock;
  seen = seen > prev_base ? seen - prev_base : 0;
  dr_det_mark_raced(d, loc);
  DrBuf field = {0}, key = {0}, pos_cur = {0}, pos_prev = {0}, meth = {0};
  dr_det_loc_field_name(loc, &field);
  dr_det_ctx_pos(d, cur.ctx, &pos_cur, &meth);
  dr_det_ctx_pos(d, prev.ctx, &pos_prev, NULL);
  buf_str(&field);
  buf_str(&pos_cur);
  buf_str(&pos_prev);
  buf_str(&meth);
  if (d->opt.all_races) {
    dr_buf_printf(&key, "P:%s:%u:%u:%d", field.data, (unsigned)prev.ctx, (unsigned)cur.ctx,
                  prev.write * 2 + cur.write);
  } else if (loc->is_array) {
    /* per access site and array type: `a[i] + b[i]` on one line is two */
    const char *hash = strchr(field.data, '#');
    dr_buf_append_str(&key, "A:");
    dr_buf_append(&key, field.data, hash ? (size_t)(hash - field.data) : strlen(field.data));
    dr_buf_append_str(&key, ":");
    dr_buf_append_str(&key, pos_cur.data);
    dr_buf_append_str(&key, ":");
    dr_buf_append_str(&key, meth.data);
  } else {
    dr_buf_append_str(&key, "F:");
    dr_buf_append_str(&key, field.data);
  }
  buf_str(&key);
  if (key_seen(d, key.data)) {
    d->suppressed++;
    free(field.data), free(key.data), free(pos_cur.data), free(pos_prev.data), free(meth.data);
    return;
  }

  DrBuf b = {0}, w = {0};
  dr_buf_append_str(&b, "==================\n");
  dr_buf_append_str(&b, why == DR_WHY_HB        ? "WARNING: DATA RACE\n"
                        : why == DR_WHY_LOCKSET ? "WARNING: POSSIBLE DATA RACE (Eraser: no common lock)\n"
                        : why == DR_WHY_WCP     ? "WARNING: PREDICTED DATA RACE (WCP: another order of this run)\n"
                                                : "WARNING: POTENTIAL DATA RACE (hybrid)\n");
  access_block(d, "", &cur, loc, &b);
  dr_buf_append_str(&b, "\n");
  access_block(d, "Previous ", &prev, loc, &b);
  dr_buf_append_str(&b, "\n");
  thread_block(d, cur.tid, &b);
  if (prev.tid != cur.tid) thread_block(d, prev.tid, &b);
  if (loc->is_array) {
    const DrShadow *sh = dr_det_obj_shadow(d, loc->obj);
    char an[300];
    dr_buf_printf(&b, "Array %s allocated at:\n", dr_obj_name(loc->obj, an, sizeof an));
    dr_det_ctx_stack(d, sh ? sh->alloc_ctx : 0, &b);
  }
  dr_buf_append_str(&b, "\n");
  explain(d, why, &cur, &prev, seen, field.data, &w);
  dr_buf_printf(&b, "%s\n", w.data);
  if (d->opt.replay_cmd) {
    dr_buf_append_str(&b, "Replay: ");
    dr_buf_append_str(&b, d->opt.replay_cmd);
    dr_buf_append_str(&b, "\n");
  }
  dr_buf_printf(&b, "SUMMARY: drvm: %s %s in %s\n",
                why == DR_WHY_HB    ? "data race"
                : why == DR_WHY_WCP ? "predicted data race"
                                    : "possible data race",
                pos_cur.data, meth.data);
  dr_buf_append_str(&b, "==================\n");
  if (!d->opt.quiet) dr_write_fd(d->vm, 2, b.data, b.len);

  DrRace r = {0};
  r.cur = cur;
  r.prev = prev;
  r.seen_clock = seen;
  r.text = buf_str(&b);
  r.why = buf_str(&w);
  r.predicted = why == DR_WHY_WCP;
  DrBuf st = {0};
  DrPairStmt ps = dr_det_stmt(d, cur.ctx);
  dr_pairs_stmt_text(&st, &ps);
  r.stmt = buf_str(&st);
  free(ps.method);
  memset(&st, 0, sizeof st);
  ps = dr_det_stmt(d, prev.ctx);
  dr_pairs_stmt_text(&st, &ps);
  r.prev_stmt = buf_str(&st);
  free(ps.method);
  DrBuf locname = {0};
  if (loc->is_array) {
    char an[300];
    dr_buf_printf(&locname, "%s[%d]", dr_obj_name(loc->obj, an, sizeof an), loc->index);
  } else {
    dr_buf_append_str(&locname, field.data);
  }
  r.location = buf_str(&locname);
  if (!loc->is_static) {
    char on[300];
    r.obj_name = dr_strdup(dr_obj_name(loc->obj, on, sizeof on));
  }
  if (loc->is_array) {
    const DrShadow *sh = dr_det_obj_shadow(d, loc->obj);
    DrBuf as = {0};
    dr_det_ctx_pos(d, sh ? sh->alloc_ctx : 0, &as, NULL);
    r.alloc_site = buf_str(&as);
  }
  /* stable id: the field (or array class) and the two positions, in order */
  DrBuf id = {0};
  dr_buf_append_str(&id, field.data);
  dr_buf_append_str(&id, "@");
  bool swap = strcmp(pos_cur.data, pos_prev.data) > 0;
  dr_buf_append_str(&id, swap ? pos_prev.data : pos_cur.data);
  dr_buf_append_str(&id, ",");
  dr_buf_append_str(&id, swap ? pos_cur.data : pos_prev.data);
  r.id = buf_str(&id);
  r.key = key.data;
  DR_PUSH(d->races, d->nraces, d->races_cap, r);
  free(field.data), free(pos_cur.data), free(pos_prev.data), free(meth.data);
}

/* ---------------------------------------------------------------- JSON */

static void json_stack(DrDet *d, DrJsonW *w, uint32_t ctx) {
  dr_jw_begin_flat(w, "stack", '[');
  for (uint32_t c = ctx; c && c < d->nnodes; c = d->nodes[c].parent) {
    if (!d->nodes[c].method) continue;
    DrBuf m = {0}, p = {0};
    dr_det_ctx_pos(d, c, &p, &m);
    const DrMethod *meth = d->vm->methods[d->nodes[c].method - 1];
    dr_jw_begin_flat(w, NULL, '{');
    dr_jw_str(w, "method", buf_str(&m));
    dr_jw_str(w, "position", buf_str(&p));
    dr_jw_int(w, "line", dr_method_line(meth, d->nodes[c].pc));
    dr_jw_end(w, '}');
    free(m.data);
    free(p.data);
  }
  dr_jw_end(w, ']');
}

static void json_access(DrDet *d, DrJsonW *w, const char *key, const DrAccess *a) {
  char nb[128];
  dr_jw_begin_flat(w, key, '{');
  dr_jw_str(w, "kind", a->write ? "write" : "read");
  dr_jw_str(w, "thread", thread_name(d, a->tid, nb, sizeof nb));
  dr_jw_uint(w, "tid", a->tid);
  dr_jw_uint(w, "clock", a->clock);
  dr_jw_str(w, "locks", dr_det_lockset_text(d, dr_det_ctx_lockset(d, a->ctx)));
  json_stack(d, w, a->ctx);
  dr_jw_end(w, '}');
}

/* A race on one line, but for its accesses' long stacks: each on a line
 * of its own. */
static void json_race(DrDet *d, DrJsonW *w, const DrRace *r) {
  dr_jw_begin_flat(w, NULL, '{');
  dr_jw_str(w, "id", r->id);
  dr_jw_str(w, "location", r->location);
  dr_jw_str(w, "object", r->obj_name);
  if (r->alloc_site) dr_jw_str(w, "allocated_at", r->alloc_site);
  dr_jw_wrap(w);
  if (r->predicted) dr_jw_bool(w, "predicted", true);
  json_access(d, w, "access", &r->cur);
  dr_jw_wrap(w);
  json_access(d, w, "previous", &r->prev);
  dr_jw_wrap(w);
  dr_jw_str(w, "explanation", r->why);
  dr_jw_end(w, '}');
}

static bool write_json(DrDet *d, const char *path) {
  DrJsonW w = {0};
  dr_jw_begin(&w, NULL, '{');
  dr_jw_str(&w, "program", d->vm->source_name ? d->vm->source_name : "");
  dr_jw_str(&w, "detector", d->ops->name);
  dr_jw_uint(&w, "seed", d->opt.seed);
  dr_jw_str(&w, "replay", d->opt.replay_cmd ? d->opt.replay_cmd : "");
  dr_jw_begin(&w, "races", '[');
  for (int i = 0; i < d->nraces; i++) json_race(d, &w, &d->races[i]);
  dr_jw_end(&w, ']');
  dr_jw_int(&w, "count", d->nraces);
  if (d->ops == &dr_wcp_ops) dr_jw_int(&w, "predicted", d->result->predicted);
  dr_jw_end(&w, '}');
  FILE *f = fopen(path, "w");
  bool ok = f != NULL;
  if (f) {
    fwrite(w.buf.data, 1, w.buf.len, f);
    ok = fclose(f) == 0;
  }
  free(w.buf.data);
  return ok;
}

/* "3 data races on 2 fields (A.x, B.y)" of the races seen (predicted
 * false) or predicted; false if there are none. */
static bool summary_part(const DrDet *d, bool predicted, DrBuf *out) {
  DrBuf list = {0};
  int nloc = 0, n = 0;
  bool arrays = false;
  for (int i = 0; i < d->nraces; i++) {
    if (d->races[i].predicted != predicted) continue;
    n++;
    bool dup = false;
    for (int j = 0; j < i; j++)
      if (d->races[j].predicted == predicted && !strcmp(d->races[j].location, d->races[i].location)) dup = true;
    if (dup) continue;
    if (nloc++) dr_buf_append_str(&list, ", ");
    dr_buf_append_str(&list, d->races[i].location);
    if (d->races[i].alloc_site) arrays = true;
  }
  if (!n) return false;
  buf_str(&list);
  bool possible = !strcmp(d->ops->name, "eraser") || !strcmp(d->ops->name, "hybrid");
  dr_buf_printf(out, "%d %s race%s on %d %s%s (%s)", n, possible ? "possible data" : "data", n == 1 ? "" : "s", nloc,
                arrays ? "location" : "field", nloc == 1 ? "" : "s", list.data);
  free(list.data);
  return true;
}

void dr_det_report_finish(DrDet *d) {
  FILE *out = d->vm->err_file;
  int predicted = 0;
  for (int i = 0; i < d->nraces; i++) predicted += d->races[i].predicted;
  d->result->races = d->nraces - predicted;
  d->result->predicted = predicted;
  if (d->nraces && !d->opt.quiet) {
    DrBuf seen = {0}, pred = {0};
    bool any = summary_part(d, false, &seen);
    summary_part(d, true, &pred);
    const char *what = !strcmp(d->ops->name, "ft") ? "" : d->ops->name;
    fprintf(out, "drvm: %s%sfound %s%s%s%s; seed %llu\n", what, *what ? " " : "", any ? seen.data : "",
            any && predicted ? " and " : "", predicted ? "predicted " : "", predicted ? pred.data : "",
            (unsigned long long)d->opt.seed);
    free(seen.data);
    free(pred.data);
  }
  if (d->opt.json_path && !write_json(d, d->opt.json_path)) {
    fprintf(out, "drvm: cannot write %s\n", d->opt.json_path);
    d->result->failed = true;
  }
}

DrPairStmt dr_det_stmt(DrDet *d, uint32_t ctx) {
  const DrCtxNode *n = &d->nodes[ctx];
  DrPairStmt s = {0};
  if (!ctx || !n->method) return s; /* a position not known: "? ? 0" */
  const DrMethod *m = d->vm->methods[n->method - 1];
  char cn[300];
  s.method = dr_fmt("%s.%s", dr_class_display_name(m->owner, cn, sizeof cn), m->desc);
  s.pc = n->pc;
  s.line = dr_method_line(m, n->pc);
  return s;
}

bool dr_det_write_pairs(DrDet *d, const DrPairs *pairs, const char *path) {
  DrBuf text = {0};
  dr_pairs_write(&text, pairs);
  FILE *f = fopen(path, "w");
  bool ok = f != NULL;
  if (f) {
    fwrite(text.data, 1, text.len, f);
    ok = fclose(f) == 0;
  }
  free(text.data);
  if (!ok) {
    fprintf(d->vm->err_file, "drvm: cannot write %s\n", path);
    d->result->failed = true;
  }
  return ok;
}

void dr_det_report_free(DrDet *d) {
  for (int i = 0; i < d->nraces; i++) {
    DrRace *r = &d->races[i];
    free(r->location), free(r->key), free(r->id), free(r->text), free(r->why), free(r->obj_name),
        free(r->alloc_site), free(r->stmt), free(r->prev_stmt);
  }
  free(d->races);
  for (int i = 0; i < d->nkeys; i++) free(d->keys[i]);
  free(d->keys);
}

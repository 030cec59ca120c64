/* `drvm run`'s options table (options.h): lookups, values and parsing.
 * Writing options back is options_write.c. */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <string.h>
#include <unistd.h>

#include "../vm/buf.h"
#include "help.h"
#include "options.h"
#include "program.h"

static const DrRoRow rows[] = {
#define DR_RO_ROW(id, name, alias, arg, to, key, value, rerun, flags, help) \
  {name, alias, arg, to, key, value, rerun, flags, help},
    DR_RUN_OPTIONS(DR_RO_ROW)
#undef DR_RO_ROW
};

const DrRoRow *dr_ro_row(DrRoId id) { return &rows[id]; }

const DrvmEntry *dr_ro_entry(DrRoId id) {
  const DrRoRow *r = &rows[id];
  if (!r->key) return NULL;
  bool det = r->to == DR_TO_DET;
  int n = det ? drvm_detector_option_count() : r->to == DR_TO_SCHED ? drvm_scheduler_option_count() : 0;
  for (int i = 0; i < n; i++) {
    const DrvmEntry *e = det ? drvm_detector_option(i) : drvm_scheduler_option(i);
    if (!strcmp(e->name, r->key)) return e;
  }
  return NULL;
}

const char *dr_ro_arg(DrRoId id) {
  const DrRoRow *r = &rows[id];
  const DrvmEntry *e = dr_ro_entry(id);
  if (r->value.kind == DR_V_KEYED) {
    /* the key is part of what is typed: --report json=FILE */
    static char keyed[DR_RO__COUNT][64];
    snprintf(keyed[id], sizeof keyed[id], "%s=%s", r->key, e && e->arg ? e->arg : "FILE");
    return keyed[id];
  }
  return e ? e->arg : r->arg;
}

const char *dr_ro_help(DrRoId id) {
  const DrvmEntry *e = dr_ro_entry(id);
  return rows[id].help ? rows[id].help : e ? e->help : "";
}

bool dr_ro_for(DrRoId id, const char *cmd) {
  switch (rows[id].to) {
  case DR_TO_LIMIT: return true;
  case DR_TO_DISASM: return !strcmp(cmd, "disasm");
  case DR_TO_REPL: return !strcmp(cmd, "repl") || !strcmp(cmd, "challenge");
  case DR_TO_EXPLORE: return !strcmp(cmd, "explore");
  case DR_TO_GRADE: return !strcmp(cmd, "grade");
  default:
    if (!strcmp(cmd, "explore")) return rows[id].flags & DR_F_EXPLORE;
    /* a challenge is a REPL session */
    bool repl = !strcmp(cmd, "repl") || !strcmp(cmd, "challenge");
    return !strcmp(cmd, "run") || (repl && !(rows[id].flags & DR_F_RUN_ONLY));
  }
}

bool dr_ro_applies(const char *applies, const char *word) {
  if (!applies) return true;
  size_t n = strlen(word);
  for (const char *p = applies; (p = strstr(p, word)) != NULL; p += n)
    if ((p == applies || p[-1] == ' ') && (p[n] == ' ' || p[n] == 0)) return true;
  return false;
}

/* ------------------------------------------------------------ values */

void dr_argv_add(DrArgv *a, const char *s) { DR_PUSH(a->v, a->n, a->cap, s ? dr_strdup(s) : NULL); }

void dr_argv_addf(DrArgv *a, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  DR_PUSH(a->v, a->n, a->cap, dr_vfmt(fmt, ap));
  va_end(ap);
}

void dr_argv_free(DrArgv *a) {
  for (int i = 0; i < a->n; i++) free(a->v[i]);
  free(a->v);
  memset(a, 0, sizeof *a);
}

void dr_ro_init(DrRunOpts *o) { memset(o, 0, sizeof *o); }

void dr_ro_free(DrRunOpts *o) {
  for (int i = 0; i < DR_RO__COUNT; i++) dr_argv_free(&o->val[i]);
  dr_argv_free(&o->progs);
}

void dr_ro_set(DrRunOpts *o, DrRoId id, const char *value) {
  DrArgv *v = &o->val[id];
  if (!(rows[id].flags & DR_F_REPEAT)) dr_argv_free(v);
  dr_argv_add(v, value);
}

void dr_ro_setf(DrRunOpts *o, DrRoId id, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char *s = dr_vfmt(fmt, ap);
  va_end(ap);
  dr_ro_set(o, id, s);
  free(s);
}

bool dr_ro_given(const DrRunOpts *o, DrRoId id) { return o->val[id].n > 0; }

const char *dr_ro_get(const DrRunOpts *o, DrRoId id) {
  const DrArgv *v = &o->val[id];
  return v->n ? v->v[v->n - 1] : rows[id].value.def;
}

uint64_t dr_ro_num(const DrRunOpts *o, DrRoId id) {
  const char *s = dr_ro_get(o, id);
  return s ? strtoull(s, NULL, 10) : 0;
}

/* strtoull without its leniencies about signs: a number 0, 1, ... */
static bool parse_u64(const char *s, unsigned long long *out) {
  char *end;
  errno = 0;
  unsigned long long v = strtoull(s, &end, 10);
  if (errno || end == s || *end || s[0] == '-') return false;
  *out = v;
  return true;
}

static bool parse_size(const char *s, unsigned long long *out) {
  char *end;
  errno = 0;
  unsigned long long v = strtoull(s, &end, 10);
  if (errno || end == s || s[0] == '-') return false;
  unsigned long long mul = 1;
  if (*end == 'k' || *end == 'K') mul = 1024ULL, end++;
  else if (*end == 'm' || *end == 'M') mul = 1024ULL * 1024, end++;
  else if (*end == 'g' || *end == 'G') mul = 1024ULL * 1024 * 1024, end++;
  if (*end || v == 0 || v > (unsigned long long)SIZE_MAX / mul) return false;
  *out = v * mul;
  return true;
}

/* Checks v for row id and stores it (numbers in decimal, so that what is
 * written back and handed to the registries is what was meant); false
 * after a usage error.  typed: the option as the user typed it. */
static bool take_value(DrRunOpts *o, DrRoId id, const char *typed, const char *v) {
  const DrRoRow *r = &rows[id];
  const DrValSpec *s = &r->value;
  unsigned long long n = 0;
  bool ok = true, number = false;
  if (!*v && (s->kind == DR_V_FILE || s->kind == DR_V_OPT_FILE || (r->flags & DR_F_NONEMPTY))) {
    dr_usage_error(s->kind == DR_V_OPT_FILE ? "%s needs a file name" : "%s needs a value", typed);
    return false;
  }
  switch (s->kind) {
  case DR_V_FLAG:
  case DR_V_STR:
  case DR_V_FILE:
  case DR_V_OPT_FILE: break;
  case DR_V_KEYED: {
    size_t k = strlen(r->key);
    ok = !strncmp(v, r->key, k) && v[k] == '=' && v[k + 1];
    if (ok) v += k + 1;
    break;
  }
  case DR_V_U64: ok = number = parse_u64(v, &n); break;
  case DR_V_COUNT: ok = number = parse_u64(v, &n) && n > 0; break;
  case DR_V_INT: ok = number = parse_u64(v, &n) && (long long)n >= s->min && n <= (unsigned long long)s->max; break;
  case DR_V_SIZE: ok = number = parse_size(v, &n); break;
  case DR_V_PROB: {
    char *end;
    double p = strtod(v, &end);
    ok = end != v && !*end && p >= 0 && p <= 1;
    break;
  }
  case DR_V_REG: { /* the registry knows the option's kind and range */
    char err[256];
    if (!(r->to == DR_TO_SCHED ? drvm_scheduler_option_check : drvm_detector_option_check)(r->key, v, err, sizeof err)) {
      dr_usage_error("--%s", err);
      return false;
    }
    char *end;
    double d = strtod(v, &end);
    if (parse_u64(v, &n)) number = true; /* written back in one form: 7, not 007 */
    else if (end != v && !*end) {
      dr_ro_setf(o, id, "%g", d);
      return true;
    }
    break;
  }
  }
  if (!ok) {
    char what[64];
    if (s->kind == DR_V_INT && !s->what) snprintf(what, sizeof what, "%lld..%lld", s->min, s->max);
    else if (s->kind == DR_V_COUNT && !s->what) snprintf(what, sizeof what, "a number 1, 2, ...");
    else if ((s->kind == DR_V_U64) && !s->what) snprintf(what, sizeof what, "a number 0, 1, ...");
    else snprintf(what, sizeof what, "%s", s->kind == DR_V_KEYED ? dr_ro_arg(id) : s->what ? s->what : "");
    char *msg = what[0] ? dr_fmt("%s takes %s, not '%%s'", r->name, what) : dr_fmt("%s: bad value '%%s'", r->name);
    dr_usage_error(msg, v);
    free(msg);
    return false;
  }
  if (number) dr_ro_setf(o, id, "%llu", n);
  else dr_ro_set(o, id, v);
  return true;
}

/* The row argument a names for command cmd, or -1.  *attached: the value
 * came with it (--trace=FILE, and --NAME=VALUE for any option that takes
 * a value, as GNU tools accept). */
static int find_row(const char *cmd, const char *a, const char **attached) {
  *attached = NULL;
  for (int id = 0; id < DR_RO__COUNT; id++) {
    const DrRoRow *r = &rows[id];
    if (!dr_ro_for((DrRoId)id, cmd)) continue;
    if (!strcmp(a, r->name) || (r->alias && !strcmp(a, r->alias))) return id;
    size_t n = strlen(r->name);
    if (r->value.kind != DR_V_FLAG && !strncmp(a, r->name, n) && a[n] == '=') {
      *attached = a + n + 1;
      return id;
    }
  }
  return -1;
}

/* One option at argv[*i] (its value taken too); false after a usage error. */
static bool take_option(DrRunOpts *o, int id, const char *attached, int argc, char **argv, int *i) {
  const char *a = argv[*i];
  DrValKind kind = rows[id].value.kind;
  if (kind == DR_V_FLAG || (kind == DR_V_OPT_FILE && !attached)) {
    dr_ro_set(o, (DrRoId)id, "");
    return true;
  }
  if (attached) return take_value(o, (DrRoId)id, a, attached);
  if (*i + 1 >= argc) {
    dr_usage_error("%s needs a value", a);
    return false;
  }
  /* one recording: --replay and --replay-prefix exclude each other */
  if ((id == DR_RO_REPLAY || id == DR_RO_PREFIX) && (dr_ro_given(o, DR_RO_REPLAY) || dr_ro_given(o, DR_RO_PREFIX))) {
    dr_usage_error("%s: give one recording (--replay or --replay-prefix), once", a);
    return false;
  }
  return take_value(o, (DrRoId)id, a, argv[++*i]);
}

/* DR_F_STRICT options given with a scheduler they do not go with: a usage
 * error naming every such option of that scheduler ("--mtr-in and
 * --mtr-out go with --sched drfinder"). */
static bool check_strict(const DrRunOpts *o) {
  if (dr_ro_given(o, DR_RO_REPLAY) || dr_ro_given(o, DR_RO_PREFIX)) return true;
  const char *sched = dr_ro_get(o, DR_RO_SCHED);
  for (int id = 0; id < DR_RO__COUNT; id++) {
    const DrvmEntry *e = dr_ro_entry((DrRoId)id);
    if (!(rows[id].flags & DR_F_STRICT) || !dr_ro_given(o, (DrRoId)id) || !e || dr_ro_applies(e->applies, sched))
      continue;
    DrBuf names = {0};
    int count = 0, last = 0;
    for (int k = 0; k < DR_RO__COUNT; k++) {
      const DrvmEntry *ek = dr_ro_entry((DrRoId)k);
      if ((rows[k].flags & DR_F_STRICT) && ek && ek->applies && !strcmp(ek->applies, e->applies)) count++;
    }
    for (int k = 0; k < DR_RO__COUNT; k++) {
      const DrvmEntry *ek = dr_ro_entry((DrRoId)k);
      if (!(rows[k].flags & DR_F_STRICT) || !ek || !ek->applies || strcmp(ek->applies, e->applies) != 0) continue;
      last++;
      dr_buf_printf(&names, "%s%s", last == 1 ? "" : last == count ? " and " : ", ", rows[k].name);
    }
    dr_buf_printf(&names, " go%s with --sched %s", count == 1 ? "es" : "", e->applies);
    dr_usage_error("%s", names.data);
    free(names.data);
    return false;
  }
  return true;
}

int dr_ro_parse(DrRunOpts *o, int argc, char **argv) {
  const char *cmd = argv[0];
  bool run = !strcmp(cmd, "run");
  bool grade = !strcmp(cmd, "grade");
  bool repl = !strcmp(cmd, "repl") || !strcmp(cmd, "explore") || !strcmp(cmd, "challenge") || grade; /* arguments after -- */
  int i = 1;
  for (; i < argc; i++) {
    const char *a = argv[i], *attached;
    if (!strcmp(a, "--")) {
      i++;
      break;
    }
    int id = find_row(cmd, a, &attached);
    if (id >= 0) {
      if (!take_option(o, id, attached, argc, argv, &i)) return DRVM_EXIT_USAGE;
    } else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
      return DR_RO_HELP;
    } else if (a[0] == '-' && a[1] && strcmp(cmd, "run") != 0 && find_row("run", a, &attached) >= 0) {
      char msg[160];
      snprintf(msg, sizeof msg, "%%s is an option of drvm run, not of drvm %s", cmd);
      return dr_usage_error(msg, a);
    } else if (a[0] == '-' && a[1]) {
      return dr_usage_error("unknown option '%s'", a);
    } else if (!o->progs.n || (dr_prog_is_source(a) && !(grade && o->schedule))) {
      dr_argv_add(&o->progs, a);
      o->prog = o->progs.v[0];
    } else if (grade && !o->schedule) {
      o->schedule = a;
    } else if (run) {
      break; /* Java-style: the program's arguments need no "--" */
    } else if (repl) {
      return dr_usage_error("unexpected argument '%s' (the program's arguments come after --)", a);
    } else {
      return dr_usage_error("unexpected argument '%s'", a);
    }
  }
  if (!o->prog) return dr_usage_error("%s needs a program file (prog.dl)", cmd);
  if ((run || repl) && !check_strict(o)) return DRVM_EXIT_USAGE;
  if (!run && !repl && i < argc) return dr_usage_error("'%s' takes no program arguments", cmd);
  o->args = argv + i;
  o->nargs = argc - i;
  return 0;
}

void dr_ro_vm_config(const DrRunOpts *o, DrvmConfig *c) {
  c->max_heap = (size_t)dr_ro_num(o, DR_RO_MAX_HEAP);
  c->max_memory = (size_t)dr_ro_num(o, DR_RO_MAX_MEMORY);
  c->max_steps = dr_ro_num(o, DR_RO_MAX_STEPS);
  c->spurious_wakeups = dr_ro_given(o, DR_RO_SPURIOUS);
  c->main_class = dr_ro_get(o, DR_RO_MAIN);
  c->libs = (const char *const *)o->val[DR_RO_LIB].v;
  c->nlibs = o->val[DR_RO_LIB].n;
}

uint64_t dr_draw_seed(void) {
  uint64_t s = 0;
  int fd = open("/dev/urandom", O_RDONLY);
  if (fd >= 0) {
    if (read(fd, &s, sizeof s) != (ssize_t)sizeof s) s = 0;
    close(fd);
  }
  if (!s) s = (uint64_t)getpid() * 0x9E3779B97F4A7C15u;
  return s % 1000000;
}

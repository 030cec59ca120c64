/* The drivers' shared plumbing (see hunt_util.h). */
#include <errno.h>
#include <stdarg.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "hunt.h"
#include "hunt_util.h"
#include "program.h"

int dr_hunt_usage(const char *cmd, const char *fmt, const char *arg) {
  fprintf(stderr, "drvm %s: ", cmd);
  fprintf(stderr, fmt, arg);
  fprintf(stderr, "\nTry 'drvm %s --help'.\n", cmd);
  return DRVM_EXIT_USAGE;
}

bool dr_hunt_parse_int(const char *s, long long min, long long max, long long *out) {
  char *end;
  errno = 0;
  if (!s || !*s || *s == '-' || *s == '+' || *s == ' ') return false;
  unsigned long long v = strtoull(s, &end, 10);
  if (errno || *end || v > (unsigned long long)max || (long long)v < min) return false;
  *out = (long long)v;
  return true;
}

int dr_hunt_common_option(DrHuntCommon *c, const char *cmd, int argc, char **argv, int *i) {
  const char *a = argv[*i];
  if (a[0] != '-' && (!c->progs.n || dr_prog_is_source(a))) {
    dr_argv_add(&c->progs, a);
    c->prog = c->progs.v[0];
    return 1;
  }
  static const char *const with_value[] = {"--runs", "--jobs", "--seed", "--json", "--dir", "--max-steps", "--main"};
  int which = -1;
  for (int k = 0; k < (int)DR_ARRAY_LEN(with_value); k++)
    if (!strcmp(a, with_value[k])) which = k;
  if (which < 0) return 0;
  if (*i + 1 >= argc) {
    dr_hunt_usage(cmd, "%s needs a value", a);
    return -1;
  }
  const char *v = argv[++*i];
  long long n;
  switch (which) {
  case 0:
    if (!dr_hunt_parse_int(v, 1, 1000000, &n)) {
      dr_hunt_usage(cmd, "--runs takes a count 1..1000000, not '%s'", v);
      return -1;
    }
    c->runs = (int)n;
    break;
  case 1:
    if (!dr_hunt_parse_int(v, 1, 1024, &n)) {
      dr_hunt_usage(cmd, "--jobs takes a count 1..1024, not '%s'", v);
      return -1;
    }
    c->jobs = (int)n;
    break;
  case 2:
    if (!dr_hunt_parse_int(v, 0, 999999999999LL, &n)) {
      dr_hunt_usage(cmd, "--seed takes a number 0..999999999999, not '%s'", v);
      return -1;
    }
    c->seed = (uint64_t)n;
    c->have_seed = true;
    break;
  case 3:
  case 4:
    if (!*v) {
      dr_hunt_usage(cmd, "%s needs a file name", a);
      return -1;
    }
    if (which == 3) c->json = v;
    else c->dir_opt = v;
    break;
  case 6:
    if (!*v) {
      dr_hunt_usage(cmd, "%s needs a class name", a);
      return -1;
    }
    c->main = v;
    break;
  default:
    if (!dr_hunt_parse_int(v, 1, (long long)(~0ULL >> 1), &n)) {
      dr_hunt_usage(cmd, "--max-steps takes a positive count, not '%s'", v);
      return -1;
    }
    c->max_steps = (uint64_t)n;
  }
  return 1;
}

static uint64_t splitmix64(uint64_t x) {
  x += 0x9E3779B97F4A7C15u;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9u;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBu;
  return x ^ (x >> 31);
}

uint64_t dr_hunt_run_seed(uint64_t seed, const char *name, int run) {
  uint64_t h = splitmix64(seed);
  for (const char *p = name; *p; p++) h = splitmix64(h ^ (unsigned char)*p);
  h = splitmix64(h ^ (uint64_t)run);
  return h % 1000000;
}

static bool make_dirs(const char *path) {
  char *p = dr_strdup(path);
  for (char *s = p + 1; *s; s++) {
    if (*s != '/') continue;
    *s = 0;
    if (mkdir(p, 0755) != 0 && errno != EEXIST) {
      free(p);
      return false;
    }
    *s = '/';
  }
  bool ok = mkdir(p, 0755) == 0 || errno == EEXIST;
  struct stat st;
  if (ok && (stat(p, &st) != 0 || !S_ISDIR(st.st_mode))) {
    errno = ENOTDIR;
    ok = false;
  }
  free(p);
  return ok;
}

bool dr_hunt_setup(DrHuntCommon *c, const char *cmd) {
  DrRunOpts o;
  dr_hunt_run_opts(&o, c, NULL, 0, NULL);
  DrProgFiles files;
  char *who = dr_fmt("drvm %s", cmd);
  bool readable = dr_prog_read(&o, who, &files);
  free(who);
  dr_prog_free(&files);
  dr_ro_free(&o);
  if (!readable) return false;
  if (!c->have_seed) c->seed = dr_draw_seed();
  if (c->dir_opt) {
    if (!make_dirs(c->dir_opt)) {
      fprintf(stderr, "drvm %s: cannot create the directory %s: %s\n", cmd, c->dir_opt, strerror(errno));
      return false;
    }
    c->dir = dr_strdup(c->dir_opt);
  } else {
    /* a new directory each time: an earlier hunt's files stay as they were */
    const char *tmp = getenv("TMPDIR");
    if (!tmp || !*tmp) tmp = "/tmp";
    const char *base = strrchr(c->prog, '/');
    base = base ? base + 1 : c->prog;
    size_t blen = strlen(base);
    if (blen > 3 && !strcmp(base + blen - 3, ".dl")) blen -= 3;
    for (int k = 1; k < 1000 && !c->dir; k++) {
      char *d = k == 1 ? dr_fmt("%s/drvm-%s-%.*s-%llu", tmp, cmd, (int)blen, base, (unsigned long long)c->seed)
                       : dr_fmt("%s/drvm-%s-%.*s-%llu.%d", tmp, cmd, (int)blen, base, (unsigned long long)c->seed, k);
      if (mkdir(d, 0755) == 0) {
        c->dir = d;
      } else if (errno != EEXIST) {
        fprintf(stderr, "drvm %s: cannot create the directory %s: %s\n", cmd, d, strerror(errno));
        free(d);
        return false;
      } else {
        free(d);
      }
    }
    if (!c->dir) {
      fprintf(stderr, "drvm %s: cannot find a new directory name under %s\n", cmd, tmp);
      return false;
    }
  }
  return true;
}

void dr_hunt_common_free(DrHuntCommon *c) {
  dr_argv_free(&c->progs);
  free(c->dir);
  free(c->exe);
  c->dir = c->exe = NULL;
}

void dr_hunt_run_opts(DrRunOpts *o, const DrHuntCommon *c, const char *sched, uint64_t seed, const char *detector) {
  dr_ro_init(o);
  if (sched) {
    dr_ro_set(o, DR_RO_SCHED, sched);
    dr_ro_setf(o, DR_RO_SEED, "%llu", (unsigned long long)seed);
    dr_ro_set(o, DR_RO_DETECTOR, detector);
  }
  if (c->max_steps) dr_ro_setf(o, DR_RO_MAX_STEPS, "%llu", (unsigned long long)c->max_steps);
  if (c->main) dr_ro_set(o, DR_RO_MAIN, c->main);
  for (int i = 0; i < c->progs.n; i++) dr_argv_add(&o->progs, c->progs.v[i]);
  o->prog = o->progs.n ? o->progs.v[0] : NULL;
  o->args = c->args;
  o->nargs = c->nargs;
}

char **dr_hunt_argv(DrRunOpts *o) {
  DrArgv a = {0};
  dr_argv_add(&a, "drvm");
  dr_argv_add(&a, "run");
  dr_ro_write(o, NULL, &a);
  DR_PUSH(a.v, a.n, a.cap, NULL);
  dr_ro_free(o);
  return a.v;
}

char *dr_hunt_path(const DrHuntCommon *c, const char *name) { return dr_fmt("%s/%s", c->dir, name); }

char *dr_hunt_command(DrRunOpts *o) {
  char *cmd = dr_ro_command(o, NULL);
  dr_ro_free(o);
  return cmd;
}

int dr_hunt_abort(const char *cmd, const DrHuntJob *job) {
  const char *why = job->status == 3 ? "a compile error" : job->status == 2 ? "a usage error" : "a failure to start";
  fprintf(stderr, "drvm %s: stopped: a run ended with %s (exit %d); its stderr (%s):\n", cmd, why, job->status,
          job->log);
  dr_hunt_show_log(job->log);
  fputs("  the command was:", stderr);
  for (char **a = job->argv; *a; a++) fprintf(stderr, " %s", *a);
  fputs("\n", stderr);
  return job->status == 3 ? DRVM_EXIT_COMPILE : DRVM_EXIT_USAGE;
}

void dr_table_init(DrTable *t, int ncols) {
  memset(t, 0, sizeof *t);
  t->ncols = ncols;
}

void dr_table_add(DrTable *t, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  DR_PUSH(t->cells, t->ncells, t->cap, dr_vfmt(fmt, ap));
  va_end(ap);
}

/* A number, ratio, percentage, time or "-": right-aligned as in the
 * papers' tables. */
static bool numeric(const char *s) { return (*s >= '0' && *s <= '9') || !strcmp(s, "-"); }

void dr_table_print(const DrTable *t, FILE *out, const char *indent) {
  int *width = dr_hunt_calloc((size_t)t->ncols, sizeof *width);
  bool *right = dr_hunt_calloc((size_t)t->ncols, sizeof *right);
  for (int c = 0; c < t->ncols; c++) right[c] = t->ncells > t->ncols;
  for (int i = 0; i < t->ncells; i++) {
    int c = i % t->ncols, w = (int)strlen(t->cells[i]);
    if (w > width[c]) width[c] = w;
    if (i >= t->ncols && !numeric(t->cells[i])) right[c] = false;
  }
  for (int i = 0; i < t->ncells; i++) {
    int c = i % t->ncols;
    if (c == 0) fputs(indent, out);
    bool last = c == t->ncols - 1 || i == t->ncells - 1;
    if (right[c]) fprintf(out, "%*s", width[c], t->cells[i]);
    else if (last) fputs(t->cells[i], out);
    else fprintf(out, "%-*s", width[c], t->cells[i]);
    fputs(last ? "\n" : "  ", out);
  }
  free(width);
  free(right);
}

void dr_table_free(DrTable *t) {
  for (int i = 0; i < t->ncells; i++) free(t->cells[i]);
  free(t->cells);
  memset(t, 0, sizeof *t);
}

bool dr_hunt_write_file(const char *cmd, const char *path, const DrBuf *b) {
  FILE *f = fopen(path, "w");
  if (!f) {
    fprintf(stderr, "drvm %s: cannot write %s: %s\n", cmd, path, strerror(errno));
    return false;
  }
  if (b->len) fwrite(b->data, 1, b->len, f);
  if (fclose(f) != 0) {
    fprintf(stderr, "drvm %s: cannot write %s\n", cmd, path);
    return false;
  }
  return true;
}

void *dr_hunt_calloc(size_t n, size_t size) {
  void *p = calloc(n ? n : 1, size ? size : 1);
  if (!p) {
    fprintf(stderr, "drvm: out of memory (%zu elements of %zu bytes)\n", n, size);
    exit(DRVM_EXIT_MEMORY); /* as dr_xrealloc */
  }
  return p;
}

bool dr_hunt_file_exists(const char *path) { return access(path, F_OK) == 0; }

int dr_hunt_read_json(const char *who, const char *path, bool required, DrJson *out) {
  memset(out, 0, sizeof *out);
  if (!dr_hunt_file_exists(path)) {
    if (required) fprintf(stderr, "%s: a run wrote no report %s\n", who, path);
    return required ? -1 : 0;
  }
  char err[512];
  if (!dr_json_read_file(path, out, err, sizeof err)) {
    fprintf(stderr, "%s: %s\n", who, err);
    return -1;
  }
  if (out->kind != DR_JSON_OBJ) {
    fprintf(stderr, "%s: %s is not a JSON object\n", who, path);
    dr_json_free(out);
    return -1;
  }
  return 1;
}

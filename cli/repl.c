/* `drvm repl`: the command line, the session, the loop of commands
 * (repl.h). */
#include <errno.h>
#include <stdarg.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "help.h"
#include "repl.h"

const ReplCommand repl_commands[] = {
#define REPL_CMD_ROW(name, alias, args, help) {name, alias, args, help},
    REPL_COMMANDS(REPL_CMD_ROW)
#undef REPL_CMD_ROW
};
const int repl_ncommands = (int)(sizeof repl_commands / sizeof repl_commands[0]);

/* Ctrl-C during a move stops the run at its next scheduling point; at
 * the prompt readline clears the line. */
static volatile sig_atomic_t interrupted;
static DrVM *volatile running_vm;

static void on_sigint(int sig) {
  (void)sig;
  interrupted = 1;
  if (running_vm) drvm_interrupt(running_vm);
}

void repl_say(Repl *r, const char *fmt, ...) {
  (void)r;
  va_list ap;
  va_start(ap, fmt);
  vprintf(fmt, ap);
  va_end(ap);
  fputc('\n', stdout);
}

void repl_err(Repl *r, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fflush(stdout);
  printf("%serror:%s ", repl_c(r, REPL_RED), repl_c(r, REPL_OFF));
  vprintf(fmt, ap);
  va_end(ap);
  fputc('\n', stdout);
}

const char *repl_c(Repl *r, const char *esc) { return r->color ? esc : ""; }

bool repl_number(const char *s, uint64_t max, uint64_t *out) {
  if (!s || !*s) return false;
  uint64_t n = 0;
  for (const char *p = s; *p; p++) {
    if (*p < '0' || *p > '9') return false;
    unsigned d = (unsigned)(*p - '0');
    if (n > (max - d) / 10) return false;
    n = n * 10 + d;
  }
  *out = n;
  return true;
}

/* ------------------------------------------------------------ commands */

static const ReplCommand *find_command(const char *word) {
  for (int i = 0; i < repl_ncommands; i++) {
    const ReplCommand *c = &repl_commands[i];
    if (!strcmp(word, c->name) || (c->alias && !strcmp(word, c->alias))) return c;
  }
  return NULL;
}

static void help_line(FILE *out, const ReplCommand *c) {
  char head[96];
  snprintf(head, sizeof head, "%s%s%s%s%s", c->name, *c->args ? " " : "", c->args, c->alias ? ", " : "",
           c->alias ? c->alias : "");
  fprintf(out, "  %-28s %s\n", head, c->help);
}

void repl_help(FILE *out) {
  for (int i = 0; i < repl_ncommands; i++) help_line(out, &repl_commands[i]);
}

static void cmd_help(Repl *r, char **argv, int argc) {
  if (argc > 1) {
    const ReplCommand *c = find_command(argv[1]);
    if (!c) {
      repl_err(r, "no command '%s' (help lists them)", argv[1]);
      return;
    }
    help_line(stdout, c);
    return;
  }
  puts("Threads are T0 (main), T1, ... as drvm run --trace names them; events are #numbers (history).");
  repl_help(stdout);
}

static void cmd_save(Repl *r, char **argv, int argc) {
  if (argc != 2) {
    repl_err(r, "save needs a file name: save FILE");
    return;
  }
  if (!drvm_save_decisions(r->cur->vm, argv[1])) {
    repl_err(r, "%s", drvm_error(r->cur->vm));
    return;
  }
  DrBuf args = {0};
  for (int i = 0; i < r->o.nargs; i++) dr_buf_printf(&args, " %s", r->o.args[i]);
  bool whole = r->cur->ended;
  char *words = dr_prog_words(&r->o);
  repl_say(r, "saved %llu decisions to %s: drvm run --replay%s %s %s%s %s", (unsigned long long)r->cur->pos,
           argv[1], whole ? "" : "-prefix", argv[1], words, args.data ? args.data : "",
           whole ? "reproduces the run" : "replays them, then its scheduler goes on");
  free(words);
  free(args.data);
}

/* Splits a line into words (in place); returns how many. */
static int split(char *line, char **argv, int max) {
  int n = 0;
  for (char *p = strtok(line, " \t\r\n"); p && n < max; p = strtok(NULL, " \t\r\n")) argv[n++] = p;
  return n;
}

static void dispatch(Repl *r, char **argv, int argc);

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static void cmd_time(Repl *r, char **argv, int argc) {
  if (argc < 2) {
    repl_err(r, "time needs a command: time back");
    return;
  }
  double t0 = now_ms();
  dispatch(r, argv + 1, argc - 1);
  repl_say(r, "(%s took %.2f ms)", argv[1], now_ms() - t0);
}

static void run_command(Repl *r, char *line) {
  char *argv[32];
  int argc = split(line, argv, 32);
  if (argc == 0 || argv[0][0] == '#') return;
  dispatch(r, argv, argc);
}

static void dispatch(Repl *r, char **argv, int argc) {
  const ReplCommand *c = find_command(argv[0]);
  if (!c) {
    repl_err(r, "unknown command '%s' (help lists the commands)", argv[0]);
    return;
  }
  const char *name = c->name;
  if (!strcmp(name, "quit")) r->quit = true;
  else if (!strcmp(name, "help")) cmd_help(r, argv, argc);
  else if (!strcmp(name, "save")) cmd_save(r, argv, argc);
  else if (!strcmp(name, "hb")) repl_cmd_hb(r, argv, argc);
  else if (!strcmp(name, "explore")) repl_cmd_explore(r, argv, argc);
  else if (!strcmp(name, "time")) cmd_time(r, argv, argc);
  else if (!strcmp(name, "goal") || !strcmp(name, "hint")) challenge_cmd(r, name);
  else if (!repl_cmd_move(r, name, argv, argc) && !repl_cmd_show(r, name, argv, argc))
    repl_err(r, "internal: command %s has no handler", name);
}

/* The prompt; readline counts its width without the colour escapes,
 * which \001 and \002 enclose. */
static void prompt_of(Repl *r, char *buf, size_t size) {
  const char *on = r->color ? "\001" REPL_BOLD "\002" : "", *off = r->color ? "\001" REPL_OFF "\002" : "";
  if (r->cur->ended) snprintf(buf, size, "%s(drvm end)%s ", on, off);
  else snprintf(buf, size, "%s(drvm #%llu)%s ", on, (unsigned long long)r->cur->pos, off);
}

static void loop(Repl *r) {
  while (!r->quit) {
    char prompt[64];
    prompt_of(r, prompt, sizeof prompt);
    char *line = repl_read_line(r, prompt);
    if (!line) break;
    if (!r->tty) {
      /* a script's transcript shows each command it ran */
      char *s = line + strspn(line, " \t");
      if (*s && *s != '\n') printf("> %s%s", s, s[strlen(s) - 1] == '\n' ? "" : "\n");
    }
    interrupted = 0;
    repl_stage_poll(r);
    running_vm = r->cur->vm;
    run_command(r, line);
    running_vm = NULL;
    challenge_check(r);
    free(line);
    fflush(stdout);
  }
}

/* ------------------------------------------------------------ setting up */


static bool read_program(Repl *r) {
  if (!dr_prog_read(&r->o, "drvm", &r->files)) return false;
  r->text = r->files.texts[0];
  r->len = r->files.lens[0];
  return true;
}

static void setup_terminal(Repl *r) {
  const char *script = dr_ro_get(&r->o, DR_RO_SCRIPT);
  r->tty = !script && isatty(0) && isatty(1);
  const char *nc = getenv("NO_COLOR");
  r->color = r->tty && !(nc && *nc) && getenv("TERM") && strcmp(getenv("TERM"), "dumb") != 0;
  r->width = 100;
  struct winsize ws;
  if (r->tty && ioctl(1, TIOCGWINSZ, &ws) == 0 && ws.ws_col >= 40) r->width = ws.ws_col;
}

/* The first run: from the start, or walking through a recording
 * (--replay): then continue follows it, and so does back until the
 * person leaves it. */
static bool first_run(Repl *r, int *status) {
  const char *rec = dr_ro_get(&r->o, DR_RO_REPLAY);
  if (rec) {
    char err[256];
    if (!drvm_recording_seed(rec, &r->seed, err, sizeof err)) {
      fprintf(stderr, "drvm: %s\n", err);
      *status = DRVM_EXIT_USAGE;
      return false;
    }
    r->rec = rec;
  }
  char err[1024];
  r->cur = repl_vm_make(r, rec, NULL, UINT64_MAX, true, err, sizeof err);
  if (!r->cur) {
    if (err[0]) fprintf(stderr, "drvm: %s\n", err);
    *status = err[0] ? DRVM_EXIT_USAGE : DRVM_EXIT_COMPILE;
    return false;
  }
  /* the first run's output and races so far are news */
  r->cur->out_shown = r->cur->err_shown = 0;
  r->cur->races_told = 0;
  ReplMove m = {dr_strdup("start"), r->cur->pos, r->cur->pos, 0, NULL};
  DR_PUSH(r->moves, r->nmoves, r->moves_cap, m);
  return true;
}

static void free_session(Repl *r) {
  challenge_free(r);
  repl_explore_free(r);
  repl_stage_free(r);
  repl_vm_free(r->cur);
  repl_vm_free(r->redo);
  for (int i = 0; i < r->nmoves; i++) free(r->moves[i].cmd), free(r->moves[i].file);
  for (int i = 0; i < r->nfiles; i++) {
    char path[96];
    snprintf(path, sizeof path, "%s/line%d.rec", r->tmpdir, i);
    remove(path);
  }
  if (r->tmpdir[0]) rmdir(r->tmpdir);
  free(r->moves);
  for (int i = 0; i < r->nbps; i++) free(r->bps[i].cls), free(r->bps[i].field);
  free(r->bps);
  dr_prog_free(&r->files);
  free(r->sched);
  if (r->script) fclose(r->script);
  dr_ro_free(&r->o);
}

int dr_cmd_repl(int argc, char **argv) {
  Repl r;
  memset(&r, 0, sizeof r);
  int status = dr_ro_parse(&r.o, argc, argv);
  if (status == DR_RO_HELP) {
    dr_help_topic(argv[0], stdout); /* repl or challenge */
    dr_ro_free(&r.o);
    return 0;
  }
  if (status) {
    dr_ro_free(&r.o);
    return status;
  }
  r.seed = dr_ro_num(&r.o, DR_RO_SEED);
  /* `continue` explores: without --sched it samples orders (native's
   * quanta, a random thread at a switch), where native's fixed JVM order
   * would show the same interleaving for every seed */
  r.sched = dr_strdup(dr_ro_given(&r.o, DR_RO_SCHED) ? dr_ro_get(&r.o, DR_RO_SCHED) : "native-random");
  r.every = dr_ro_given(&r.o, DR_RO_EVERY);
  r.interrupted = &interrupted;
  setup_terminal(&r);
  const char *script = dr_ro_get(&r.o, DR_RO_SCRIPT);
  if (script && !(r.script = fopen(script, "r"))) {
    fprintf(stderr, "drvm: cannot read %s: %s\n", script, strerror(errno));
    free_session(&r);
    return DRVM_EXIT_USAGE;
  }
  if (!read_program(&r)) {
    free_session(&r);
    return DRVM_EXIT_USAGE;
  }
  if (!strcmp(argv[0], "challenge") && !challenge_start(&r, &status)) {
    free_session(&r);
    return status;
  }
  repl_input_init(&r);
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_sigint;
  sigaction(SIGINT, &sa, NULL);
  if (!first_run(&r, &status)) {
    repl_input_done(&r);
    free_session(&r);
    return status;
  }
  if (r.tty) repl_say(&r, "drvm repl %s: you are the scheduler (help lists the commands)", r.o.prog);
  if (r.challenge) challenge_intro(&r);
  repl_stage(&r);
  repl_show_news(&r);
  repl_show_position(&r);
  challenge_check(&r);
  loop(&r);
  repl_input_done(&r);
  bool failed = r.input_failed;
  free_session(&r);
  return failed ? DRVM_EXIT_USAGE : 0;
}

/* Reading the REPL's commands (repl.h): GNU readline on a terminal, with
 * history and completion of commands, threads, classes, fields and
 * schedulers; plain lines from a script or a pipe. */
#include <string.h>
#include <unistd.h>

#include <readline/history.h>
#include <readline/readline.h>

#include "repl.h"

/* readline's completion callbacks take no context: the session being
 * completed, set while readline runs. */
static Repl *completing;

/* Ctrl-C at the prompt: the line is dropped, a new prompt shown. */
static int on_signal_event(void) {
  if (completing && *completing->interrupted) {
    *completing->interrupted = 0;
    rl_replace_line("", 0);
    rl_crlf();
    rl_on_new_line();
    rl_redisplay();
  }
  return 0;
}

/* Every word that may complete: commands, then arguments. */
static void candidates(Repl *r, int argn, const char *first, char ***out, int *n, int *cap) {
  if (argn == 0) {
    for (int i = 0; i < repl_ncommands; i++) DR_PUSH(*out, *n, *cap, dr_strdup(repl_commands[i].name));
    return;
  }
  DrVM *vm = r->cur->vm;
  if (!strcmp(first, "continue") || !strcmp(first, "c")) {
    for (int i = 0; i < drvm_scheduler_count(); i++) DR_PUSH(*out, *n, *cap, dr_strdup(drvm_scheduler_entry(i)->name));
    return;
  }
  if (!strcmp(first, "break")) {
    DR_PUSH(*out, *n, *cap, dr_strdup("race"));
    DR_PUSH(*out, *n, *cap, dr_strdup("deadlock"));
    return;
  }
  if (!strcmp(first, "help")) {
    candidates(r, 0, first, out, n, cap);
    return;
  }
  for (int t = 0; t < drvm_thread_count(vm); t++) DR_PUSH(*out, *n, *cap, dr_fmt("T%d", t));
  const char *cls, *field;
  bool is_static;
  for (int i = 0; drvm_class_name(vm, i, &cls); i++) {
    DR_PUSH(*out, *n, *cap, dr_strdup(cls));
    for (int k = 0; drvm_field_name(vm, cls, k, &field, &is_static); k++)
      DR_PUSH(*out, *n, *cap, dr_fmt("%s.%s", cls, field));
  }
  if (!strcmp(first, "run") || !strcmp(first, "r")) {
    static const char *const words[] = {"to", "until", "read", "write", "access", "of"};
    for (size_t i = 0; i < sizeof words / sizeof *words; i++) DR_PUSH(*out, *n, *cap, dr_strdup(words[i]));
  }
}

static char *generate(const char *text, int state) {
  static char **words; /* readline asks for one match at a time */
  static int nwords, pos;
  if (state == 0) {
    for (int i = 0; i < nwords; i++) free(words[i]);
    free(words);
    words = NULL;
    nwords = pos = 0;
    int cap = 0;
    char first[64] = "";
    int argn = 0;
    for (const char *p = rl_line_buffer; p < rl_line_buffer + rl_point; p++)
      if (*p == ' ' && p > rl_line_buffer && p[-1] != ' ') argn++;
    sscanf(rl_line_buffer, "%63s", first);
    candidates(completing, argn, first, &words, &nwords, &cap);
  }
  size_t len = strlen(text);
  while (pos < nwords) {
    const char *w = words[pos++];
    if (!strncmp(w, text, len)) return strdup(w); /* readline frees it with free() */
  }
  return NULL;
}

static char **complete(const char *text, int start, int end) {
  (void)start, (void)end;
  rl_attempted_completion_over = 1;
  return rl_completion_matches(text, generate);
}

void repl_input_init(Repl *r) {
  completing = r;
  if (!r->tty) return;
  rl_readline_name = "drvm";
  rl_attempted_completion_function = complete;
  rl_basic_word_break_characters = " \t";
  rl_signal_event_hook = on_signal_event;
  using_history();
}

void repl_input_done(Repl *r) {
  if (r->tty) clear_history();
  completing = NULL;
}

char *repl_read_line(Repl *r, const char *prompt) {
  if (r->tty) {
    char *line = readline(prompt);
    if (!line) {
      putchar('\n');
      return NULL;
    }
    if (*line) add_history(line);
    char *copy = dr_strdup(line);
    free(line);
    return copy;
  }
  /* a line has an end: an input without one (/dev/zero) is not commands,
   * and reading it whole would take all memory */
  FILE *f = r->script ? r->script : stdin;
  size_t len = 0, cap = 256;
  char *line = dr_xmalloc(cap);
  int c;
  while ((c = getc(f)) != EOF) {
    if (len + 2 > cap) {
      if (cap >= REPL_LINE_MAX) {
        const char *script = dr_ro_get(&r->o, DR_RO_SCRIPT);
        fprintf(stderr, "drvm: a line of %s is longer than %d bytes: it holds no commands\n",
                script ? script : "standard input", REPL_LINE_MAX);
        r->input_failed = true;
        free(line);
        return NULL;
      }
      cap *= 2;
      line = dr_xrealloc(line, cap);
    }
    line[len++] = (char)c;
    if (c == '\n') break;
  }
  if (!len) {
    free(line);
    return NULL;
  }
  line[len] = '\0';
  return line;
}

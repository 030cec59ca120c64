/* The drvm command line. */
#include <errno.h>
#include <string.h>

#include "../compiler/compile.h"
#include "disasm.h"
#include "vm.h"

static const char *const usage_text =
    "usage: drvm <command> [options] prog.dl [-- args...]\n"
    "\n"
    "commands:\n"
    "  run      compile and run a program\n"
    "  check    compile only and report every error\n"
    "  disasm   print the program's bytecode with source lines\n"
    "  help     show help for a command (drvm help run)\n"
    "\n"
    "options:\n"
    "  --max-heap SIZE   heap limit, e.g. 64m or 2g (default 2g); beyond it\n"
    "                    allocation throws OutOfMemoryError\n"
    "  --max-steps N     stop a runaway program after N steps (exit status 5)\n"
    "  --all             disasm: include the built-in library\n"
    "  -h, --help        show this help\n"
    "  --version         print drvm's version\n";

static const char *const help_run =
    "usage: drvm run [--max-heap SIZE] [--max-steps N] prog.dl [-- args...]\n"
    "\n"
    "Compiles prog.dl (DL, a subset of Java 17) and runs main(String[] args)\n"
    "of its first class.  Arguments after -- become args.\n"
    "\n"
    "exit status:\n"
    "  0   the program ended normally (or the status given to System.exit)\n"
    "  1   an exception escaped main\n"
    "  2   usage error (bad command line, unreadable file)\n"
    "  3   compile error\n"
    "  5   the --max-steps limit was reached\n";

static const char *const help_check =
    "usage: drvm check prog.dl\n\nCompiles prog.dl and reports every error; exit status 3 if any, else 0.\n";
static const char *const help_disasm =
    "usage: drvm disasm [--all] prog.dl\n\n"
    "Prints each method's bytecode, grouped by source line, with its registers\n"
    "(R = holds a reference, p = primitive) and exception handlers.\n";

static int usage_error(const char *fmt, const char *arg) {
  fputs("drvm: ", stderr);
  fprintf(stderr, fmt, arg);
  fputs("\nTry 'drvm --help'.\n", stderr);
  return DR_EXIT_USAGE;
}

static bool parse_size(const char *s, size_t *out) {
  char *end;
  errno = 0;
  unsigned long long v = strtoull(s, &end, 10);
  if (errno || end == s || s[0] == '-') return false;
  unsigned long long mul = 1;
  if (*end == 'k' || *end == 'K') mul = 1024ULL, end++;
  else if (*end == 'm' || *end == 'M') mul = 1024ULL * 1024, end++;
  else if (*end == 'g' || *end == 'G') mul = 1024ULL * 1024 * 1024, end++;
  if (*end || v == 0 || v > (unsigned long long)SIZE_MAX / mul) return false;
  *out = (size_t)(v * mul);
  return true;
}

static bool parse_count(const char *s, uint64_t *out) {
  char *end;
  errno = 0;
  unsigned long long v = strtoull(s, &end, 10);
  if (errno || end == s || *end || s[0] == '-' || v == 0) return false;
  *out = v;
  return true;
}

static const char *base_name(const char *path) {
  const char *slash = strrchr(path, '/');
  return slash ? slash + 1 : path;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fputs(usage_text, stderr);
    return DR_EXIT_USAGE;
  }
  const char *cmd = argv[1];
  if (!strcmp(cmd, "-h") || !strcmp(cmd, "--help")) {
    fputs(usage_text, stdout);
    return 0;
  }
  if (!strcmp(cmd, "--version")) {
    printf("drvm %s\n", DR_VERSION);
    return 0;
  }
  if (!strcmp(cmd, "help")) {
    const char *topic = argc > 2 ? argv[2] : "";
    if (!strcmp(topic, "run")) fputs(help_run, stdout);
    else if (!strcmp(topic, "check")) fputs(help_check, stdout);
    else if (!strcmp(topic, "disasm")) fputs(help_disasm, stdout);
    else if (!*topic) fputs(usage_text, stdout);
    else return usage_error("no help for '%s'", topic);
    return 0;
  }
  bool is_run = !strcmp(cmd, "run"), is_check = !strcmp(cmd, "check"), is_disasm = !strcmp(cmd, "disasm");
  if (!is_run && !is_check && !is_disasm) return usage_error("unknown command '%s'", cmd);

  size_t max_heap = 0;
  uint64_t max_steps = 0;
  bool all = false;
  const char *path = NULL;
  int i = 2;
  for (; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--")) {
      i++;
      break;
    }
    if (!strcmp(a, "--max-heap") || !strcmp(a, "--max-steps")) {
      if (i + 1 >= argc) return usage_error("%s needs a value", a);
      const char *v = argv[++i];
      if (!strcmp(a, "--max-heap") ? !parse_size(v, &max_heap) : !parse_count(v, &max_steps))
        return usage_error("bad value '%s'", v);
    } else if (!strcmp(a, "--all") && is_disasm) {
      all = true;
    } else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
      fputs(is_run ? help_run : is_check ? help_check : help_disasm, stdout);
      return 0;
    } else if (a[0] == '-' && a[1]) {
      return usage_error("unknown option '%s'", a);
    } else if (!path) {
      path = a;
    } else if (is_run) {
      /* Java-style: arguments after the file need no "--". */
      break;
    } else {
      return usage_error("unexpected argument '%s'", a);
    }
  }
  if (!path) return usage_error("%s needs a program file (prog.dl)", cmd);
  if (!is_run && i < argc) return usage_error("'%s' takes no program arguments", cmd);

  size_t len;
  char *text = dr_read_file(path, &len);
  if (!text) {
    fprintf(stderr, "drvm: cannot read %s: %s\n", path, strerror(errno));
    return DR_EXIT_USAGE;
  }
  if (memchr(text, '\0', len)) {
    fprintf(stderr, "drvm: %s is not a text file (it contains NUL bytes)\n", path);
    free(text);
    return DR_EXIT_USAGE;
  }
  DrSource src = {path, text, len};
  DrVM vm;
  dr_vm_init(&vm);
  vm.source_name = base_name(path);
  if (max_heap) vm.max_heap = max_heap;
  vm.max_steps = max_steps;
  DrDiagList diags;
  dr_diag_init(&diags);
  DrClass *main_class = dr_compile(&vm, &src, &diags);
  int status;
  if (!main_class) {
    dr_diag_print(&diags, stderr);
    if (!diags.count) fprintf(stderr, "drvm: compilation failed\n");
    status = DR_EXIT_COMPILE;
  } else if (is_check) {
    status = 0;
  } else if (is_disasm) {
    dr_disasm_program(&vm, all, stdout);
    status = 0;
  } else {
    status = dr_run_main(&vm, main_class, argc - i, argv + i);
  }
  dr_diag_free(&diags);
  dr_vm_free(&vm);
  free(text);
  return status;
}

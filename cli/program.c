/* The program's files (program.h). */
#define _DEFAULT_SOURCE /* realpath */
#include "program.h"

#include "../vm/buf.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static bool has_suffix(const char *s, const char *suffix) {
  size_t n = strlen(s), m = strlen(suffix);
  return n > m && strcmp(s + n - m, suffix) == 0;
}

bool dr_prog_is_source(const char *word) { return has_suffix(word, ".dl") || has_suffix(word, ".java"); }

static int by_name(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* A directory's source files, in name order, and those of its
 * subdirectories (a.b's in a/b, as javac's -sourcepath lays them out):
 * readdir's order is the file system's, and a program must not depend
 * on it. */
static bool add_dir(const char *dir, const char *who, DrArgv *out, int depth) {
  DIR *d = opendir(dir);
  if (!d) {
    fprintf(stderr, "%s: cannot read %s: %s\n", who, dir, strerror(errno));
    return false;
  }
  DrArgv names = {0};
  for (struct dirent *e; (e = readdir(d)) != NULL;)
    if (e->d_name[0] != '.') dr_argv_add(&names, e->d_name);
  closedir(d);
  if (names.n) qsort(names.v, (size_t)names.n, sizeof *names.v, by_name);
  size_t n = strlen(dir);
  bool ok = true;
  for (int i = 0; i < names.n && ok; i++) {
    char *path = dr_fmt("%s%s%s", dir, n && dir[n - 1] == '/' ? "" : "/", names.v[i]);
    struct stat st;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
      if (depth < 32) ok = add_dir(path, who, out, depth + 1);
    } else if (dr_prog_is_source(names.v[i])) {
      dr_argv_add(out, path);
    }
    free(path);
  }
  dr_argv_free(&names);
  return ok;
}

/* Drops the files given twice (a file, and its directory too): one file,
 * as javac takes it. */
static void drop_repeats(DrArgv *paths) {
  DrArgv seen = {0}, kept = {0};
  for (int i = 0; i < paths->n; i++) {
    char *real = realpath(paths->v[i], NULL);
    const char *key = real ? real : paths->v[i];
    bool again = false;
    for (int j = 0; j < seen.n && !again; j++) again = !strcmp(seen.v[j], key);
    if (!again) {
      dr_argv_add(&seen, key);
      dr_argv_add(&kept, paths->v[i]);
    }
    free(real);
  }
  dr_argv_free(&seen);
  dr_argv_free(paths);
  *paths = kept;
}

bool dr_prog_read(const DrRunOpts *o, const char *who, DrProgFiles *p) {
  memset(p, 0, sizeof *p);
  for (int i = 0; i < o->progs.n; i++) {
    struct stat st;
    const char *path = o->progs.v[i];
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
      int before = p->paths.n;
      if (!add_dir(path, who, &p->paths, 0)) return false;
      if (p->paths.n == before) {
        fprintf(stderr, "%s: %s has no .dl or .java file\n", who, path);
        return false;
      }
    } else {
      dr_argv_add(&p->paths, path);
    }
  }
  drop_repeats(&p->paths);
  p->texts = calloc((size_t)p->paths.n, sizeof *p->texts);
  p->lens = calloc((size_t)p->paths.n, sizeof *p->lens);
  if (!p->texts || !p->lens) {
    fprintf(stderr, "drvm: out of memory\n");
    return false;
  }
  for (int i = 0; i < p->paths.n; i++) {
    const char *path = p->paths.v[i];
    p->texts[i] = dr_read_file(path, &p->lens[i]);
    if (!p->texts[i]) {
      fprintf(stderr, "%s: cannot read %s: %s\n", who, path, strerror(errno));
      return false;
    }
    if (memchr(p->texts[i], '\0', p->lens[i])) {
      fprintf(stderr, "%s: %s is not a text file (it contains NUL bytes)\n", who, path);
      return false;
    }
  }
  return true;
}

bool dr_prog_compile(DrVM *vm, const DrProgFiles *p) {
  return drvm_compile_strings(vm, p->paths.n, (const char *const *)p->paths.v, (const char *const *)p->texts, p->lens);
}

void dr_prog_free(DrProgFiles *p) {
  for (int i = 0; p->texts && i < p->paths.n; i++) free(p->texts[i]);
  free(p->texts);
  free(p->lens);
  dr_argv_free(&p->paths);
  memset(p, 0, sizeof *p);
}

char *dr_prog_words(const DrRunOpts *o) {
  DrBuf b = {0};
  if (dr_ro_given(o, DR_RO_MAIN)) {
    dr_buf_append_str(&b, "--main");
    dr_buf_append_shell_arg(&b, dr_ro_get(o, DR_RO_MAIN));
  }
  for (int i = 0; i < o->progs.n; i++) dr_buf_append_shell_arg(&b, o->progs.v[i]);
  /* dr_buf_append_shell_arg puts a space before each word */
  char *s = dr_strdup(b.data && b.data[0] == ' ' ? b.data + 1 : b.data ? b.data : "");
  free(b.data);
  return s;
}

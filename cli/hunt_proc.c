/* Children for the drivers.  wait4's rusage gives each child's own CPU
 * time, so --jobs N does not inflate the times the tables compare. */
#define _DEFAULT_SOURCE /* wait4 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "hunt_proc.h"

enum { EXEC_FAILED = 127 };

char *dr_hunt_self_exe(const char *argv0) {
  char buf[4096];
  ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (n > 0) {
    buf[n] = 0;
    return dr_strdup(buf);
  }
  return dr_strdup(argv0);
}

static pid_t start_child(const char *exe, const DrHuntJob *job) {
  fflush(stdout);
  fflush(stderr);
  pid_t pid = fork();
  if (pid != 0) return pid;
  /* the child: only async-signal-safe calls until exec */
  int null = open("/dev/null", O_RDWR);
  int log = open(job->log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (null >= 0) {
    dup2(null, 0);
    dup2(null, 1);
  }
  if (log >= 0) dup2(log, 2);
  if (null > 2) close(null);
  if (log > 2) close(log);
  execv(exe, job->argv);
  static const char msg[] = "drvm hunt: cannot run the drvm executable\n";
  if (write(2, msg, sizeof msg - 1) < 0) _exit(EXEC_FAILED);
  _exit(EXEC_FAILED);
}

static bool ready(const DrHuntJob *jobs, int i) {
  return !jobs[i].started && (jobs[i].after < 0 || jobs[jobs[i].after].done);
}

static void progress(const char *label, int done, int n, bool tty) {
  if (!tty || !label) return;
  fprintf(stderr, "\r  %s: %d/%d runs", label, done, n);
  if (done == n) fputs("\r\033[K", stderr);
  fflush(stderr);
}

int dr_hunt_run_jobs(const char *exe, DrHuntJob *jobs, int n, int parallel, const char *label) {
  pid_t *pids = dr_xrealloc(NULL, sizeof *pids * (size_t)(n ? n : 1));
  int running = 0, finished = 0, failed = -1;
  bool tty = isatty(2);
  for (int i = 0; i < n; i++) pids[i] = 0;
  progress(label, 0, n, tty);
  for (;;) {
    for (int i = 0; i < n && running < parallel && failed < 0; i++) {
      if (!ready(jobs, i)) continue;
      if (jobs[i].prepare) jobs[i].prepare(jobs, i, jobs[i].ctx);
      jobs[i].started = true;
      pid_t pid = start_child(exe, &jobs[i]);
      if (pid < 0) {
        fprintf(stderr, "drvm: cannot start a child process: %s\n", strerror(errno));
        jobs[i].done = true;
        jobs[i].status = EXEC_FAILED;
        failed = i;
        break;
      }
      pids[i] = pid;
      running++;
    }
    if (running == 0) break;
    int st;
    struct rusage ru;
    pid_t pid = wait4(-1, &st, 0, &ru);
    if (pid < 0) {
      if (errno == EINTR) continue;
      break; /* no children left: nothing more to wait for */
    }
    int i = 0;
    while (i < n && pids[i] != pid) i++;
    if (i == n) continue; /* not one of ours */
    pids[i] = 0;
    running--;
    finished++;
    DrHuntJob *j = &jobs[i];
    j->done = true;
    j->cpu_seconds = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 + (double)ru.ru_stime.tv_sec +
                     (double)ru.ru_stime.tv_usec / 1e6;
    if (WIFEXITED(st)) {
      j->status = WEXITSTATUS(st);
      j->signo = 0;
    } else {
      j->status = -1;
      j->signo = WIFSIGNALED(st) ? WTERMSIG(st) : 0;
    }
    if ((j->status == 2 || j->status == 3 || j->status == EXEC_FAILED) && failed < 0) failed = i;
    progress(label, finished, n, tty);
  }
  if (tty && label && finished != n) fputs("\r\033[K", stderr);
  free(pids);
  return failed;
}

void dr_hunt_job_free(DrHuntJob *job) {
  if (job->argv)
    for (char **a = job->argv; *a; a++) free(*a);
  free(job->argv);
  free(job->log);
  job->argv = NULL;
  job->log = NULL;
}

void dr_hunt_show_log(const char *path) {
  size_t len;
  char *text = dr_read_file(path, &len);
  if (!text) return;
  int lines = 0;
  for (char *p = text; *p && lines < 40; lines++) {
    char *nl = strchr(p, '\n');
    size_t k = nl ? (size_t)(nl - p) : strlen(p);
    fprintf(stderr, "  | %.*s\n", (int)k, p);
    p += k + (nl ? 1 : 0);
  }
  free(text);
}

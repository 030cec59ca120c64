#!/usr/bin/env python3
"""Benchmark driver: drvm against the JDK's bytecode interpreter.

    python3 tests/bench/run.py --drvm ./drvm [--nohooks build-nohooks/drvm] [--runs 3] [names...]

Every program in tests/bench/*.dl is valid Java as well as DL.  For each one
(or only the NAMES given, e.g. `fib nbody`) the driver

  * copies it into a temporary directory as <FirstClass>.java and compiles it
    with `javac`;
  * runs `java -Xint -cp TMP <FirstClass>` and `DRVM run FILE.dl`, each RUNS
    times, and keeps the best wall-clock time of each;
  * checks that both produce the same standard output (MISMATCH if not) and
    exit normally (FAIL if not);
  * records drvm's peak resident memory, read from os.wait4()'s rusage for
    that very child process.

It prints a table (drvm seconds, java -Xint seconds, ratio drvm/java, drvm
peak RSS), the geometric mean of the ratios and binarytrees' peak RSS.  When
java or javac is missing, it prints drvm's times only, with a note.

The threaded programs (THREADED: series, sor, montecarlo, lockcounter) take
the number of threads as their argument; the main table runs them with 4
(`drvm run FILE -- 4`, `java ... 4`).  Two more tables follow, each measured
side by side (the variants' runs interleaved, best of RUNS kept):

  * scheduler cost: each threaded program under `--sched native` with 4
    threads against the same total work done by 1 thread; the target is a
    ratio of at most 1.10;
  * event stream cost: every program on plain drvm (hooks compiled in, no
    listener) against the same drvm built with -DDR_NO_HOOKS (--nohooks,
    default build-nohooks/drvm; `make bench` builds it): the unused hooks'
    cost, target at most 1.05 within noise (marked per program and judged on
    the geometric mean); and `--trace=/dev/null` against plain drvm: the
    cost of a listener that formats every event (informative; one run, as it
    is 50-150 times slower).  Skipped with a note when the nohooks binary is
    missing.

Exit status: 0 if every program ran and matched, 1 otherwise, 2 on a usage
error.  Python 3 standard library only.
"""

import argparse
import math
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

BENCH_DIR = os.path.dirname(os.path.abspath(__file__))

# Preferred order; any other *.dl in the directory is appended sorted.
ORDER = ["fib", "virtualcalls", "binarytrees", "sieve", "matmul", "nbody", "strings",
         "series", "sor", "montecarlo", "lockcounter"]
# Programs whose first argument is the number of threads (same total work).
THREADED = ("series", "sor", "montecarlo", "lockcounter")
MAIN_THREADS = "4"


def prog_args(name, threads=MAIN_THREADS):
    return [threads] if name in THREADED else []


class Result:
    """One process run: wall time, exit code, outputs, peak RSS (KiB)."""

    def __init__(self, seconds, code, stdout, stderr, maxrss_kib, timed_out):
        self.seconds = seconds
        self.code = code
        self.stdout = stdout
        self.stderr = stderr
        self.maxrss_kib = maxrss_kib
        self.timed_out = timed_out


def run_measured(argv, timeout, cwd=None):
    """Runs argv with stdin closed; returns a Result.

    The child is reaped with os.wait4 so its own rusage (ru_maxrss, in KiB on
    Linux) is available.  Output goes to temporary files so a large output
    cannot block the child on a full pipe."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=out, stderr=err,
                                cwd=cwd, start_new_session=True)
        timed_out = []

        def kill():
            timed_out.append(True)
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except OSError:
                pass

        timer = threading.Timer(timeout, kill) if timeout else None
        if timer:
            timer.start()
        try:
            _, status, usage = os.wait4(proc.pid, 0)
        finally:
            if timer:
                timer.cancel()
        seconds = time.perf_counter() - start
        code = os.waitstatus_to_exitcode(status)
        proc.returncode = code  # already reaped: keep Popen from waiting again
        out.seek(0)
        err.seek(0)
        return Result(seconds, code, out.read(), err.read(), usage.ru_maxrss, bool(timed_out))


def best_of(argv, runs, timeout, cwd=None):
    """Runs argv RUNS times; returns (best Result, list of all Results).

    The best run is the fastest one; the peak RSS reported is the largest
    seen over all runs."""
    results = []
    for _ in range(runs):
        r = run_measured(argv, timeout, cwd)
        results.append(r)
        if r.code != 0 or r.timed_out:
            break
    ok = [r for r in results if r.code == 0 and not r.timed_out]
    best = min(ok, key=lambda r: r.seconds) if ok else results[-1]
    return best, results


def strip_comments(src):
    src = re.sub(r"/\*.*?\*/", " ", src, flags=re.S)
    return re.sub(r"//[^\n]*", "", src)


def first_class_name(path):
    """The name of the first top-level class: the one whose main runs."""
    with open(path, encoding="utf-8") as f:
        src = strip_comments(f.read())
    m = re.search(r"^\s*(?:(?:public|abstract|final)\s+)*class\s+([A-Za-z_$][\w$]*)", src, re.M)
    if not m:
        raise ValueError("%s: no class declaration found" % path)
    return m.group(1)


def find_programs(names):
    available = {os.path.splitext(f)[0] for f in os.listdir(BENCH_DIR) if f.endswith(".dl")}
    ordered = [n for n in ORDER if n in available] + sorted(available - set(ORDER))
    if not names:
        return ordered
    wanted = []
    for n in names:
        n = os.path.splitext(os.path.basename(n))[0]
        if n not in available:
            sys.exit("run.py: no benchmark named '%s' (have: %s)" % (n, ", ".join(ordered)))
        wanted.append(n)
    return wanted


def fmt_secs(r):
    if r is None:
        return "-"
    if r.timed_out:
        return "timeout"
    if r.code != 0:
        return "exit %d" % r.code
    return "%.3f" % r.seconds


def first_lines(data, n=5):
    text = data.decode("utf-8", "replace").rstrip("\n").split("\n")
    return "\n".join("      " + line for line in text[:n])


def main():
    ap = argparse.ArgumentParser(description="Compare drvm with java -Xint on tests/bench/*.dl.")
    ap.add_argument("--drvm", default="./drvm", help="path to the drvm executable (default ./drvm)")
    ap.add_argument("--runs", type=int, default=3, help="runs per program and VM; best time kept (default 3)")
    ap.add_argument("--java", default="java", help="java launcher (default: java on PATH)")
    ap.add_argument("--javac", default="javac", help="javac compiler (default: javac on PATH)")
    ap.add_argument("--no-java", action="store_true", help="time drvm only")
    ap.add_argument("--timeout", type=float, default=600.0, help="seconds before one run is killed (default 600)")
    ap.add_argument("--nohooks", default="build-nohooks/drvm",
                    help="drvm built with -DDR_NO_HOOKS for the event stream cost (default build-nohooks/drvm)")
    ap.add_argument("names", nargs="*", help="benchmarks to run (default: all), e.g. fib nbody")
    args = ap.parse_args()
    if args.runs < 1:
        ap.error("--runs must be at least 1")

    drvm = args.drvm
    if os.sep not in drvm and shutil.which(drvm):
        drvm = shutil.which(drvm)   # a bare name found on PATH
    else:
        drvm = os.path.abspath(drvm)
    if not (os.path.isfile(drvm) and os.access(drvm, os.X_OK)):
        print("run.py: drvm executable not found: %s (build it with `make`)" % args.drvm, file=sys.stderr)
        return 2

    programs = find_programs(args.names)
    java = None if args.no_java else shutil.which(args.java)
    javac = None if args.no_java else shutil.which(args.javac)
    use_java = java is not None and javac is not None
    if not use_java and not args.no_java:
        missing = " and ".join(n for n, p in ((args.java, java), (args.javac, javac)) if p is None)
        print("NOTE: %s not found: timing drvm only; outputs are not checked against Java." % missing)
    elif args.no_java:
        print("NOTE: --no-java: timing drvm only; outputs are not checked against Java.")

    print("drvm: %s   runs per program: %d (best time kept)" % (drvm, args.runs))
    if use_java:
        print("java: %s -Xint" % java)
    print()

    rows = []
    problems = 0
    ratios = []
    rss = {}
    with tempfile.TemporaryDirectory(prefix="drvm-bench-") as tmp:
        for name in programs:
            path = os.path.join(BENCH_DIR, name + ".dl")
            print("running %s ..." % name, file=sys.stderr, flush=True)
            status = "ok"
            jbest = None
            if use_java:
                cls = first_class_name(path)
                work = os.path.join(tmp, name)
                os.makedirs(os.path.join(work, "classes"))
                java_src = os.path.join(work, cls + ".java")
                shutil.copyfile(path, java_src)
                comp = subprocess.run([javac, "-d", os.path.join(work, "classes"), java_src],
                                      stdin=subprocess.DEVNULL, capture_output=True, text=True)
                if comp.returncode != 0:
                    print("  %s: javac failed:\n%s" % (name, comp.stderr), file=sys.stderr)
                    status = "JAVAC FAILED"
                else:
                    jbest, _ = best_of([java, "-Xint", "-cp", os.path.join(work, "classes"), cls] + prog_args(name),
                                       args.runs, args.timeout)
            dbest, druns = best_of([drvm, "run", path, "--"] + prog_args(name), args.runs, args.timeout)
            rss[name] = max(r.maxrss_kib for r in druns)

            if dbest.timed_out or dbest.code != 0:
                status = "FAIL (drvm %s)" % fmt_secs(dbest)
                if dbest.stderr:
                    print("  drvm stderr:\n" + first_lines(dbest.stderr), file=sys.stderr)
            elif jbest is not None and (jbest.timed_out or jbest.code != 0):
                status = "FAIL (java %s)" % fmt_secs(jbest)
            elif any(r.stdout != dbest.stdout for r in druns):
                status = "NONDETERMINISTIC"
            elif jbest is not None and jbest.stdout != dbest.stdout:
                status = "MISMATCH"
                print("  %s: stdout differs\n    java:\n%s\n    drvm:\n%s"
                      % (name, first_lines(jbest.stdout), first_lines(dbest.stdout)), file=sys.stderr)
            ratio = None
            if status == "ok" and jbest is not None and jbest.seconds > 0:
                ratio = dbest.seconds / jbest.seconds
                ratios.append(ratio)
            if status != "ok":
                problems += 1
            rows.append((name, fmt_secs(dbest), fmt_secs(jbest) if use_java else "-",
                         "%.2f" % ratio if ratio is not None else "-",
                         "%.1f" % (rss[name] / 1024.0), status))

    headers = ("program", "drvm s", "java -Xint s", "drvm/java", "drvm MB", "status")
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(headers)]

    def line(cells):
        out = [cells[0].ljust(widths[0])]
        out += [c.rjust(w) for c, w in zip(cells[1:5], widths[1:5])]
        out.append(cells[5])
        return "  ".join(out)

    print(line(headers))
    print(line(tuple("-" * w for w in widths[:5]) + ("-" * len(headers[5]),)))
    for r in rows:
        print(line(r))
    print()
    if ratios:
        geo = math.exp(sum(math.log(r) for r in ratios) / len(ratios))
        print("geometric mean drvm/java -Xint: %.2f (over %d program%s)"
              % (geo, len(ratios), "" if len(ratios) == 1 else "s"))
    elif use_java:
        print("geometric mean drvm/java -Xint: - (no program ran successfully on both)")
    if "binarytrees" in rss:
        print("binarytrees peak RSS: %d MB" % round(rss["binarytrees"] / 1024.0))
    problems += scheduler_cost(drvm, [p for p in programs if p in THREADED], args)
    problems += stream_cost(drvm, programs, args)
    if problems:
        print("%d program%s or measurement%s failed or mismatched" % (problems, "" if problems == 1 else "s",
                                                                       "" if problems == 1 else "s"))
    return 1 if problems else 0


def side_by_side(variants, runs, timeout):
    """Runs each argv of variants in turn, RUNS rounds; returns the best Result per variant (None if one failed)."""
    best = [None] * len(variants)
    for _ in range(runs):
        for i, argv in enumerate(variants):
            r = run_measured(argv, timeout)
            if r.code != 0 or r.timed_out:
                print("  failed: %s (%s)\n%s" % (" ".join(argv), fmt_secs(r), first_lines(r.stderr)), file=sys.stderr)
                return None
            if best[i] is None or r.seconds < best[i].seconds:
                best[i] = r
    return best


def print_table(headers, rows):
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(headers)]
    print("  ".join([headers[0].ljust(widths[0])] + [h.rjust(w) for h, w in zip(headers[1:], widths[1:])]))
    print("  ".join("-" * w for w in widths))
    for r in rows:
        print("  ".join([r[0].ljust(widths[0])] + [c.rjust(w) for c, w in zip(r[1:], widths[1:])]))
    print()


def scheduler_cost(drvm, programs, args):
    """4 threads against 1 thread doing the same work, --sched native, no listener."""
    if not programs:
        return 0
    print("Scheduler cost: %s threads vs 1 thread, same work, --sched native, no listener (target <= 1.10)"
          % MAIN_THREADS)
    rows, problems = [], 0
    for name in programs:
        print("running %s (scheduler cost) ..." % name, file=sys.stderr, flush=True)
        path = os.path.join(BENCH_DIR, name + ".dl")
        best = side_by_side([[drvm, "run", "--sched", "native", path, "--", "1"],
                             [drvm, "run", "--sched", "native", path, "--", MAIN_THREADS]], args.runs, args.timeout)
        if best is None or best[0].stdout != best[1].stdout:
            problems += 1
            rows.append((name, "-", "-", "-", "FAIL" if best is None else "OUTPUT DIFFERS"))
            continue
        ratio = best[1].seconds / best[0].seconds
        rows.append((name, "%.3f" % best[0].seconds, "%.3f" % best[1].seconds, "%.3f" % ratio,
                     "ok" if ratio <= 1.10 else "ABOVE TARGET"))
    print_table(("program", "1 thread s", MAIN_THREADS + " threads s", "ratio", "target"), rows)
    return problems


def stream_cost(drvm, programs, args):
    """Plain drvm against the DR_NO_HOOKS build, and against --trace=/dev/null."""
    nohooks = os.path.abspath(args.nohooks)
    if not (os.path.isfile(nohooks) and os.access(nohooks, os.X_OK)):
        print("NOTE: %s not found (make drvm-nohooks builds it): event stream cost not measured.\n" % args.nohooks)
        return 0
    print("Event stream cost: hooks compiled in but unused vs compiled out (target <= 1.05), and with a")
    print("listener formatting every event (--trace=/dev/null; informative)")
    rows, problems, ratios = [], 0, []
    for name in programs:
        print("running %s (event stream cost) ..." % name, file=sys.stderr, flush=True)
        path = os.path.join(BENCH_DIR, name + ".dl")
        tail_args = ["--"] + prog_args(name)
        best = side_by_side([[nohooks, "run", path] + tail_args, [drvm, "run", path] + tail_args], args.runs,
                            args.timeout)
        # formatting every event is 50-150 times slower: one run is plenty
        traced = side_by_side([[drvm, "run", "--trace=/dev/null", path] + tail_args], 1, args.timeout)
        if best is None or traced is None:
            problems += 1
            rows.append((name, "-", "-", "-", "FAIL", "-", "-"))
            continue
        unused = best[1].seconds / best[0].seconds
        ratios.append(unused)
        rows.append((name, "%.3f" % best[0].seconds, "%.3f" % best[1].seconds, "%.3f" % unused,
                     "ok" if unused <= 1.05 else "ABOVE TARGET",
                     "%.3f" % traced[0].seconds, "%.1fx" % (traced[0].seconds / best[1].seconds)))
    print_table(("program", "no hooks s", "drvm s", "unused/none", "target", "traced s", "traced/drvm"), rows)
    if ratios:
        geo = math.exp(sum(math.log(r) for r in ratios) / len(ratios))
        print("geometric mean unused hooks / no hooks: %.3f (%s)\n" % (geo, "ok" if geo <= 1.05 else "ABOVE TARGET"))
    return problems


if __name__ == "__main__":
    sys.exit(main())

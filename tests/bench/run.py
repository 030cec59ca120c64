#!/usr/bin/env python3
"""Benchmark driver: drvm against the JDK's bytecode interpreter, and drvm's race detectors.

    python3 tests/bench/run.py --drvm ./drvm [--nohooks build-nohooks/drvm] [--runs 3]
                               [--only TABLE[,TABLE...]] [names...]

Every program in tests/bench/*.dl is valid Java as well as DL.  Four tables
follow, each for every program (or only the NAMES given, e.g. `fib nbody`);
--only picks some of them: java, scheduler, stream, detectors.  Every drvm run
that measures the VM itself passes `--detector none` (ft is drvm's default).

  * java: each program is copied into a temporary directory as
    <FirstClass>.java and compiled with `javac`; `java -Xint -cp TMP
    <FirstClass>` and `DRVM run --detector none FILE.dl` run RUNS times each,
    the best wall-clock time of each is kept; both must produce the same
    standard output (MISMATCH if not) and exit normally (FAIL if not).  It
    prints drvm seconds, java -Xint seconds, the ratio drvm/java, drvm's
    peak RSS, the geometric mean of the ratios and binarytrees' peak RSS.
    When java or javac is missing, it prints drvm's times only, with a note.

The threaded programs (THREADED: series, sor, montecarlo, lockcounter,
pmatmul, prodcons, hashtable) take the number of threads as their argument
(prodcons: producer/consumer pairs); the tables run them with 4.  The other
tables are measured side by side (the variants' runs interleaved) in CPU time
(user + system: drvm runs all its threads on one OS thread, so CPU time is
not inflated by other processes competing for the CPU), least of RUNS kept:

  * scheduler: each threaded program but prodcons under `--sched native`
    with 4 threads against the same total work done by 1 thread; the target
    is a ratio of at most 1.10;
  * stream: every program on plain drvm (hooks compiled in, no listener)
    against the same drvm built with -DDR_NO_HOOKS (--nohooks, default
    build-nohooks/drvm; `make bench` builds it): the unused hooks' cost,
    target at most 1.05 within noise (marked per program and judged on the
    geometric mean); and `--trace=/dev/null` against plain drvm: the cost of
    a listener that formats every event (informative; one run of at most
    about --trace-seconds of CPU: a longer program is traced for a prefix of
    its steps with --max-steps, sized by a short probe run, and the ratio
    compares CPU time per step, the step count coming from `drvm -v`).
    Skipped with a note when the nohooks binary is missing;
  * detectors: the FastTrack paper's table.  Every program runs under
    --detector none, empty, ft (drvm's default: accordion clocks), ft/grow
    (--clocks grow: neither of TRaDe's ideas), ft/trade (the topological
    filter alone), ft/both (filter and accordion clocks; its peak memory,
    both MB), djit, basicvc, eraser, hybrid and wcp, in
    --detector-runs rounds (default 2), least CPU time kept; it prints each
    detector's slowdown over none, the peak RSS under none and ft and their
    ratio, a geometric-mean row, and whether the goals are met (issue 17):
    ft, and ft/both, at most 1.5x slower than none on the
    multi-threaded programs (geometric mean) and none of them above 2.5x,
    at most 1.05x on the single-threaded ones, ft at most 2.0x none's
    memory (geometric mean), ft faster than djit and basicvc (the paper:
    2.3x and 10x); and TRaDe's comparison: how much of ft/grow's time
    each idea saves, and ft/both's memory over ft's.  Then memory as
    threads keep starting (the paper's Figure 4), with and without
    accordion clocks.  A program
    longer than 1.5 x --detector-budget CPU seconds under none (default 0.3)
    runs only its first budget's worth of steps (--max-steps; the same N for
    every detector);
    binarytrees runs with a smaller input (DETECTOR_ARGS).  Exit status 66
    (races found) counts as a run; such cells are marked '*'.

Peak RSS comes from GNU time (/usr/bin/time -f %M) when it is installed: a
child's own ru_maxrss would include this Python process's memory from before
the exec.  Exit status: 0 if every program ran and matched, 1 otherwise, 2
on a usage error.  Python 3 standard library only.
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
         "series", "sor", "montecarlo", "lockcounter", "pmatmul", "prodcons", "hashtable",
         "sparsematmult", "moldyn", "crypt", "lufact", "raytracer"]
# Programs whose first argument is the number of threads (same total work);
# prodcons's is the number of producer/consumer pairs.
THREADED = ("series", "sor", "montecarlo", "lockcounter", "pmatmul", "prodcons", "hashtable",
            "sparsematmult", "moldyn", "crypt", "lufact", "raytracer")
# The scheduler cost table: the THREADED programs that can run on 1 thread.
SCHED_PROGRAMS = ("series", "sor", "montecarlo", "lockcounter", "pmatmul", "hashtable")
MAIN_THREADS = "4"
# Every drvm run that measures the VM itself disables race detection (ft is the default).
NO_DETECTOR = ["--detector", "none"]
# The detector table: the detectors in the order of the FastTrack paper's table, hybrid last;
# each column a label and its options.  TRaDe's two ideas: ft is drvm's default (accordion clocks,
# no filter); ft/grow without either, ft/trade with the topological filter alone, ft/both with both.
DETECTOR_VARIANTS = (
    ("none", ["--detector", "none"]),
    ("empty", ["--detector", "empty"]),
    ("ft", ["--detector", "ft"]),
    ("ft/grow", ["--detector", "ft", "--clocks", "grow"]),
    ("ft/trade", ["--detector", "ft", "--filter", "trade", "--clocks", "grow"]),
    ("ft/both", ["--detector", "ft", "--filter", "trade"]),
    ("djit", ["--detector", "djit"]),
    ("basicvc", ["--detector", "basicvc"]),
    ("eraser", ["--detector", "eraser"]),
    ("hybrid", ["--detector", "hybrid"]),
    ("wcp", ["--detector", "wcp", "--confirm", "0"]),  # wcp predicts only: confirming runs are other runs
)
DETECTORS = tuple(label for label, _ in DETECTOR_VARIANTS)
# Smaller inputs for the detector table (binarytrees' default runs 8 s even under none).
DETECTOR_ARGS = {"binarytrees": ["13", "2"]}
# drvm's exit status when the detector found races (--race-exit-code's default).
RACE_EXIT = 66
# drvm's exit status when --max-steps stopped the program.
STEPS_EXIT = 5
TABLES = ("java", "scheduler", "stream", "detectors")


def prog_args(name, threads=MAIN_THREADS):
    return [threads] if name in THREADED else []


class Result:
    """One process run: wall time, exit code, outputs, peak RSS (KiB)."""

    def __init__(self, seconds, code, stdout, stderr, maxrss_kib, timed_out, cpu=None):
        self.seconds = seconds
        self.cpu = cpu          # user + system CPU seconds of the child
        self.code = code
        self.stdout = stdout
        self.stderr = stderr
        self.maxrss_kib = maxrss_kib
        self.timed_out = timed_out


def _find_gnu_time():
    """/usr/bin/time if it is GNU time (it has -f and -o), else None."""
    path = "/usr/bin/time"
    if not os.access(path, os.X_OK):
        return None
    try:
        r = subprocess.run([path, "-f", "%M", "-o", os.devnull, "true"], stdin=subprocess.DEVNULL,
                           capture_output=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return None
    return path if r.returncode == 0 else None


# Peak RSS: a child's ru_maxrss counts the memory of the process it was forked
# from until its exec (here, this Python, some 15 MB), so small programs all
# look 15 MB big.  GNU time forks the program from a small process and reports
# the program's own ru_maxrss; without it the figures have that floor.
GNU_TIME = _find_gnu_time()


def run_measured(argv, timeout, cwd=None):
    """Runs argv with stdin closed; returns a Result.

    The child is reaped with os.wait4 so its rusage (CPU time; ru_maxrss, in
    KiB on Linux) is available; the peak RSS comes from GNU time when it is
    installed (see GNU_TIME).  Output goes to temporary files so a large
    output cannot block the child on a full pipe."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err, \
            tempfile.NamedTemporaryFile(prefix="drvm-bench-rss-") as rssf:
        full = ([GNU_TIME, "-f", "%M", "-o", rssf.name] if GNU_TIME else []) + list(argv)
        start = time.perf_counter()
        proc = subprocess.Popen(full, stdin=subprocess.DEVNULL, stdout=out, stderr=err,
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
        maxrss = usage.ru_maxrss
        if GNU_TIME:
            # the last line is %M; a line before it may say "Command exited with non-zero status N"
            lines = open(rssf.name, "rb").read().split()
            if lines and lines[-1].isdigit():
                maxrss = int(lines[-1])
            # GNU time exits 128+N when the program dies of signal N; report the signal as Popen would
            with open(rssf.name, "rb") as f:
                m = re.search(rb"terminated by signal (\d+)", f.read())
            if m:
                code = -int(m.group(1))
        out.seek(0)
        err.seek(0)
        return Result(seconds, code, out.read(), err.read(), maxrss, bool(timed_out),
                      usage.ru_utime + usage.ru_stime)


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
    ap = argparse.ArgumentParser(
        description="Compare drvm with java -Xint, and its race detectors, on tests/bench/*.dl.")
    ap.add_argument("--drvm", default="./drvm", help="path to the drvm executable (default ./drvm)")
    ap.add_argument("--runs", type=int, default=3, help="runs per program and VM; best time kept (default 3)")
    ap.add_argument("--java", default="java", help="java launcher (default: java on PATH)")
    ap.add_argument("--javac", default="javac", help="javac compiler (default: javac on PATH)")
    ap.add_argument("--no-java", action="store_true", help="time drvm only")
    ap.add_argument("--timeout", type=float, default=600.0, help="seconds before one run is killed (default 600)")
    ap.add_argument("--nohooks", default="build-nohooks/drvm",
                    help="drvm built with -DDR_NO_HOOKS for the event stream cost (default build-nohooks/drvm)")
    ap.add_argument("--only", action="append", metavar="TABLE",
                    help="run only these tables (repeatable or comma-separated): %s; default all"
                    % ", ".join(TABLES))
    ap.add_argument("--detector-runs", type=int, default=2,
                    help="detector table: rounds of side-by-side runs, least CPU time kept (default 2)")
    ap.add_argument("--detector-budget", type=float, default=0.3,
                    help="detector table: a program longer than 1.5 times this many CPU seconds under "
                         "--detector none runs only its first steps worth this long, under every detector "
                         "(default 0.3; 0: whole programs)")
    ap.add_argument("--trace-seconds", type=float, default=1.0,
                    help="event stream table: CPU seconds of --trace=/dev/null per program; longer programs "
                         "are traced for a prefix of their steps (default 1.0; 0: whole programs)")
    ap.add_argument("names", nargs="*", help="benchmarks to run (default: all), e.g. fib nbody")
    args = ap.parse_args()
    if args.runs < 1:
        ap.error("--runs must be at least 1")
    if args.detector_runs < 1:
        ap.error("--detector-runs must be at least 1")
    tables = []
    for item in args.only or TABLES:
        for t in item.split(","):
            t = t.strip()
            if t not in TABLES:
                ap.error("--only: unknown table '%s' (have: %s)" % (t, ", ".join(TABLES)))
            if t not in tables:
                tables.append(t)

    drvm = args.drvm
    if os.sep not in drvm and shutil.which(drvm):
        drvm = shutil.which(drvm)   # a bare name found on PATH
    else:
        drvm = os.path.abspath(drvm)
    if not (os.path.isfile(drvm) and os.access(drvm, os.X_OK)):
        print("run.py: drvm executable not found: %s (build it with `make`)" % args.drvm, file=sys.stderr)
        return 2

    programs = find_programs(args.names)
    print("drvm: %s   tables: %s" % (drvm, ", ".join(tables)))
    print()
    problems = 0
    if "java" in tables:
        problems += java_table(drvm, programs, args)
    if "scheduler" in tables:
        problems += scheduler_cost(drvm, [p for p in programs if p in SCHED_PROGRAMS], args)
    if "stream" in tables:
        problems += stream_cost(drvm, programs, args)
    if "detectors" in tables:
        problems += detector_table(drvm, programs, args)
        problems += threads_memory(drvm, args)
    if problems:
        print("%d program%s or measurement%s failed or mismatched" % (problems, "" if problems == 1 else "s",
                                                                       "" if problems == 1 else "s"))
    return 1 if problems else 0


def java_table(drvm, programs, args):
    """drvm --detector none against java -Xint: wall-clock time, outputs compared; returns the problems."""
    java = None if args.no_java else shutil.which(args.java)
    javac = None if args.no_java else shutil.which(args.javac)
    use_java = java is not None and javac is not None
    if not use_java and not args.no_java:
        missing = " and ".join(n for n, p in ((args.java, java), (args.javac, javac)) if p is None)
        print("NOTE: %s not found: timing drvm only; outputs are not checked against Java." % missing)
    elif args.no_java:
        print("NOTE: --no-java: timing drvm only; outputs are not checked against Java.")

    print("drvm --detector none against java -Xint, wall-clock seconds, best of %d runs" % args.runs)
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
            dbest, druns = best_of([drvm, "run"] + NO_DETECTOR + [path, "--"] + prog_args(name), args.runs,
                                   args.timeout)
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
    print()
    return problems


def side_by_side(variants, runs, timeout, ok_codes=(0,)):
    """Runs each argv of variants in turn, RUNS rounds.

    Returns, per variant, the Result with the least CPU time (user + system:
    drvm runs all its threads on one OS thread, so its CPU time does not
    count the time other processes held the CPU), or None if a run failed
    (an exit status outside OK_CODES or a timeout)."""
    best = [None] * len(variants)
    for _ in range(runs):
        for i, argv in enumerate(variants):
            r = run_measured(argv, timeout)
            if r.code not in ok_codes or r.timed_out:
                print("  failed: %s (%s)\n%s" % (" ".join(argv), fmt_secs(r), first_lines(r.stderr)), file=sys.stderr)
                return None
            if best[i] is None or r.cpu < best[i].cpu:
                best[i] = r
    return best


def print_table(headers, rows):
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(headers)]
    print("  ".join([headers[0].ljust(widths[0])] + [h.rjust(w) for h, w in zip(headers[1:], widths[1:])]))
    print("  ".join("-" * w for w in widths))
    for r in rows:
        print("  ".join([r[0].ljust(widths[0])] + [c.rjust(w) for c, w in zip(r[1:], widths[1:])]))
    print()


def geomean(values):
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else None


def steps_of(result):
    """The step count drvm -v printed at the end (stderr), or None."""
    m = re.search(rb"(\d+) steps", result.stderr)
    return int(m.group(1)) if m else None


def scheduler_cost(drvm, programs, args):
    """4 threads against 1 thread doing the same work, --sched native, no listener."""
    if not programs:
        return 0
    print("Scheduler cost: %s threads vs 1 thread, same work, --sched native, --detector none, CPU seconds,"
          % MAIN_THREADS)
    print("least of %d side-by-side runs (target <= 1.10)" % args.runs)
    rows, problems = [], 0
    for name in programs:
        print("running %s (scheduler cost) ..." % name, file=sys.stderr, flush=True)
        path = os.path.join(BENCH_DIR, name + ".dl")
        best = side_by_side([[drvm, "run", "--sched", "native"] + NO_DETECTOR + [path, "--", "1"],
                             [drvm, "run", "--sched", "native"] + NO_DETECTOR + [path, "--", MAIN_THREADS]],
                            args.runs, args.timeout)
        if best is None or best[0].stdout != best[1].stdout:
            problems += 1
            rows.append((name, "-", "-", "-", "FAIL" if best is None else "OUTPUT DIFFERS"))
            continue
        ratio = best[1].cpu / best[0].cpu
        rows.append((name, "%.3f" % best[0].cpu, "%.3f" % best[1].cpu, "%.3f" % ratio,
                     "ok" if ratio <= 1.10 else "ABOVE TARGET"))
    print_table(("program", "1 thread s", MAIN_THREADS + " threads s", "ratio", "target"), rows)
    return problems


def stream_cost(drvm, programs, args):
    """Plain drvm against the DR_NO_HOOKS build, and against --trace=/dev/null."""
    nohooks = os.path.abspath(args.nohooks)
    if not (os.path.isfile(nohooks) and os.access(nohooks, os.X_OK)):
        print("NOTE: %s not found (make drvm-nohooks builds it): event stream cost not measured.\n" % args.nohooks)
        return 0
    print("Event stream cost, --detector none, CPU seconds, least of %d side-by-side runs: hooks compiled in"
          % args.runs)
    print("but unused vs compiled out (target <= 1.05), and a listener formatting every event")
    print("(--trace=/dev/null; informative, one run of at most about %gs: a longer program is traced for a"
          % args.trace_seconds)
    print("prefix of its steps, `traced steps`, and traced/drvm compares the CPU time per step)")
    rows, problems, ratios = [], 0, []
    for name in programs:
        print("running %s (event stream cost) ..." % name, file=sys.stderr, flush=True)
        path = os.path.join(BENCH_DIR, name + ".dl")
        tail_args = [path, "--"] + prog_args(name)
        # -v makes drvm print its step count at the end, for the traced run's per-step cost
        best = side_by_side([[nohooks, "run"] + NO_DETECTOR + tail_args,
                             [drvm, "run", "-v"] + NO_DETECTOR + tail_args], args.runs, args.timeout)
        steps = steps_of(best[1]) if best is not None else None
        traced = None
        if steps:
            traced, traced_steps = trace_prefix(drvm, tail_args, steps, args)
        if best is None or traced is None:
            problems += 1
            rows.append((name, "-", "-", "-", "FAIL", "-", "-", "-"))
            continue
        unused = best[1].cpu / best[0].cpu
        ratios.append(unused)
        per_step = (traced.cpu / traced_steps) / (best[1].cpu / steps)
        rows.append((name, "%.3f" % best[0].cpu, "%.3f" % best[1].cpu, "%.3f" % unused,
                     "ok" if unused <= 1.05 else "ABOVE TARGET", "%.3f" % traced.cpu,
                     "all" if traced_steps >= steps else "%.1f%%" % (100.0 * traced_steps / steps),
                     "%.1fx" % per_step))
    print_table(("program", "no hooks s", "drvm s", "unused/none", "target", "traced s", "traced steps",
                 "traced/drvm"), rows)
    geo = geomean(ratios)
    if geo is not None:
        print("geometric mean unused hooks / no hooks: %.3f (%s)\n" % (geo, "ok" if geo <= 1.05 else "ABOVE TARGET"))
    return problems


def trace_prefix(drvm, tail_args, steps, args):
    """One --trace=/dev/null run of the program's first steps, about --trace-seconds of CPU long.

    A short probe run (1/64 of the steps, at most 200,000) gives the traced
    cost per step; the measured run is then sized from it.  Returns (Result,
    steps traced) or (None, 0) on failure."""
    base = [drvm, "run", "--trace=/dev/null"] + NO_DETECTOR
    if args.trace_seconds <= 0:
        r = side_by_side([base + tail_args], 1, args.timeout)
        return (r[0], steps) if r else (None, 0)
    probe_steps = max(1, min(200000, steps // 64))
    probe = side_by_side([base + ["--max-steps", str(probe_steps)] + tail_args], 1, args.timeout,
                         ok_codes=(0, STEPS_EXIT))
    if probe is None:
        return None, 0
    per_step = max(probe[0].cpu, 1e-3) / probe_steps
    n = min(steps, max(probe_steps, int(args.trace_seconds / per_step)))
    if n >= steps:
        r = side_by_side([base + tail_args], 1, args.timeout)
    else:
        r = side_by_side([base + ["--max-steps", str(n)] + tail_args], 1, args.timeout, ok_codes=(STEPS_EXIT,))
    return (r[0], n) if r else (None, 0)


def detector_table(drvm, programs, args):
    """The FastTrack paper's table: every detector's slowdown over --detector none, and peak memory."""
    print("Race detectors (the FastTrack paper's table): slowdown over --detector none, CPU time, least of")
    print("%d side-by-side rounds; peak RSS (max over the rounds) for none and ft.  A program that takes more"
          % args.detector_runs)
    print("than %gs under none runs only its first %gs worth of steps under every detector (steps column;"
          % (1.5 * args.detector_budget, args.detector_budget))
    print("exit 5 expected).")
    print("'*' marks a detector that reported races (exit %d); the benchmarks are meant to be race-free."
          % RACE_EXIT)
    det_cols = [d for d in DETECTORS if d != "none"]
    rows, problems = [], 0
    slow = {d: [] for d in det_cols}
    mem_none, mem_ft, mem_ratio, mem_trade, kind = [], [], [], [], []
    racy = set()
    for name in programs:
        print("running %s (detectors) ..." % name, file=sys.stderr, flush=True)
        path = os.path.join(BENCH_DIR, name + ".dl")
        pargs = DETECTOR_ARGS.get(name, prog_args(name))
        threads = (int(pargs[0]) * (2 if name == "prodcons" else 1)) if name in THREADED else 1
        # a first run under none: its steps (-v) and CPU time decide whether to cut the program short
        first = side_by_side([[drvm, "run", "-v"] + NO_DETECTOR + [path, "--"] + pargs], 1, args.timeout)
        steps = steps_of(first[0]) if first else None
        if not steps:
            problems += 1
            rows.append(tuple([name, str(threads), "-"] + ["FAIL"] * len(det_cols) + ["-", "-", "-", "-", "-"]))
            continue
        limit = []
        # 1.5x slack: a program about as long as the budget is not cut by the noise of one run
        cut = args.detector_budget > 0 and first[0].cpu > 1.5 * args.detector_budget
        if cut:
            limit = ["--max-steps", str(max(1, int(steps * args.detector_budget / first[0].cpu)))]
        variants = [[drvm, "run"] + opts + limit + [path, "--"] + pargs for _, opts in DETECTOR_VARIANTS]
        ok = (STEPS_EXIT, RACE_EXIT) if cut else (0, RACE_EXIT)
        best = [None] * len(DETECTORS)
        peak = [0] * len(DETECTORS)
        codes = [set() for _ in DETECTORS]
        failed = None
        for _ in range(args.detector_runs):
            for i, argv in enumerate(variants):
                r = run_measured(argv, args.timeout)
                if r.code not in ok or r.timed_out:
                    failed = "%s %s" % (DETECTORS[i], fmt_secs(r))
                    print("  failed: %s (%s)\n%s" % (" ".join(argv), fmt_secs(r), first_lines(r.stderr)),
                          file=sys.stderr)
                    break
                codes[i].add(r.code)
                peak[i] = max(peak[i], r.maxrss_kib)
                if best[i] is None or r.cpu < best[i].cpu:
                    best[i] = r
            if failed:
                break
        if not failed and not cut and any(b.stdout != best[0].stdout for b in best):
            failed = "OUTPUT DIFFERS"
        if failed:
            problems += 1
            print("  %s: %s" % (name, failed), file=sys.stderr)
            rows.append(tuple([name, str(threads), "-"] + ["FAIL"] * len(det_cols) + ["-", "-", "-", "-", "-"]))
            continue
        base = max(best[0].cpu, 1e-3)
        cells = [name, str(threads), "%.3f" % best[0].cpu]
        for i, d in enumerate(DETECTORS):
            if d == "none":
                continue
            x = max(best[i].cpu, 1e-3) / base
            slow[d].append(x)
            mark = "*" if RACE_EXIT in codes[i] else ""
            if mark:
                racy.add(d)
            cells.append("%.2f%s" % (x, mark))
        ft, tr = DETECTORS.index("ft"), DETECTORS.index("ft/both")
        ratio = peak[ft] / peak[0]
        mem_none.append(peak[0])
        mem_ft.append(peak[ft])
        mem_ratio.append(ratio)
        mem_trade.append(peak[tr])
        kind.append(threads > 1)
        cells += ["%.1f" % (peak[0] / 1024.0), "%.1f" % (peak[ft] / 1024.0), "%.1f" % (peak[tr] / 1024.0),
                  "%.2f" % ratio, limit[1] if cut else "all"]
        rows.append(tuple(cells))
    headers = ["program", "thr", "none s"] + det_cols + ["none MB", "ft MB", "both MB", "ft/none", "steps"]
    if slow["ft"]:
        rows.append(tuple(["geomean", "", "%.3f" % geomean([float(r[2]) for r in rows if r[2] != "-"])]
                          + ["%.2f" % geomean(slow[d]) for d in det_cols]
                          + ["%.1f" % (geomean(mem_none) / 1024.0), "%.1f" % (geomean(mem_ft) / 1024.0),
                             "%.1f" % (geomean(mem_trade) / 1024.0), "%.2f" % geomean(mem_ratio), ""]))
    print_table(headers, rows)
    if not slow["ft"]:
        return problems
    g = {d: geomean(slow[d]) for d in det_cols}
    gmem = geomean(mem_ratio)
    n = len(slow["ft"])
    multi = sum(1 for k in kind if k)
    print("over %d program%s (%d multi-threaded):" % (n, "" if n == 1 else "s", multi))

    def verdict(good):
        return "MET" if good else "NOT MET"

    def part(d, threaded):
        return [x for x, k in zip(slow[d], kind) if k == threaded]

    for d in ("ft", "ft/both"):
        mt, st = part(d, True), part(d, False)
        if mt:
            print("  goal: %-8s at most 1.5x over none on the multi-threaded programs (geomean): %.2fx  %s"
                  % (d, geomean(mt), verdict(round(geomean(mt), 2) <= 1.5)))
            print("  goal: %-8s no multi-threaded program above 2.5x:                       %.2fx  %s"
                  % (d, max(mt), verdict(round(max(mt), 2) <= 2.5)))
        if st:
            print("  goal: %-8s at most 1.05x on the single-threaded programs (geomean):     %.2fx  %s"
                  % (d, geomean(st), verdict(round(geomean(st), 2) <= 1.05)))
    print("  goal: ft peak memory at most 2.0x none's (geomean):  %.2fx  %s"
          % (gmem, verdict(round(gmem, 2) <= 2.0)))
    # TRaDe's comparison: each idea against ft with neither (ft/grow)
    for d, what in (("ft/trade", "the filter"), ("ft", "accordion clocks"), ("ft/both", "both")):
        saved = [1.0 - (t - 1.0) / (f - 1.0) for t, f, k in zip(slow[d], slow["ft/grow"], kind) if k and f > 1.2]
        print("  TRaDe's comparison, %-16s: time over ft/grow's, geomean %.2f; detector time saved where "
              "ft/grow costs over 20%% (multi-threaded): %s"
              % (what, g[d] / g["ft/grow"], ("%.0f%% (mean)" % (100.0 * sum(saved) / len(saved))) if saved else "-"))
    print("  peak memory ft/both over ft: %.2f (geomean)" % geomean([a / b for a, b in zip(mem_trade, mem_ft)]))
    for other, paper in (("djit", 2.3), ("basicvc", 10.0)):
        sp = g[other] / g["ft"]
        print("  goal: ft faster than %-7s (paper: %4.1fx):          %.2fx  %s (paper's factor %s)"
              % (other, paper, sp, verdict(sp > 1.0), "reached" if sp >= paper else "not reached"))
    print("  empty (event delivery alone): %.2fx   eraser: %.2fx   hybrid: %.2fx   wcp (predicting): %.2fx"
          % (g["empty"], g["eraser"], g["hybrid"], g["wcp"]))
    if racy:
        print("  races reported (*) by: %s" % ", ".join(d for d in DETECTORS if d in racy))
    print()
    return problems


MANY_THREADS = os.path.join(os.path.dirname(BENCH_DIR), "filter", "many_threads.dl")


def threads_memory(drvm, args):
    """Memory as threads keep starting (TRaDe's Figure 4): tests/filter/many_threads.dl starts and joins N
    threads one after another; peak RSS and CPU seconds under none, ft with accordion clocks (the default)
    and without them (--clocks grow), for growing N: with them memory levels off."""
    print("Memory as threads keep starting (TRaDe's Figure 4): %s N, peak RSS in MB"
          % os.path.relpath(MANY_THREADS, os.path.dirname(os.path.dirname(BENCH_DIR))))
    rows, problems = [], 0
    for n in (2500, 5000, 10000, 20000, 40000, 80000):
        cells = [str(n)]
        peaks = []
        for label, opts in (("none", ["--detector", "none"]), ("ft", ["--detector", "ft"]),
                            ("ft/grow", ["--detector", "ft", "--clocks", "grow"])):
            r = run_measured([drvm, "run"] + opts + [MANY_THREADS, "--", str(n)], args.timeout)
            if r.code != 0 or r.timed_out:
                problems += 1
                print("  failed: %s %d (%s)" % (label, n, fmt_secs(r)), file=sys.stderr)
                peaks.append(None)
                cells += ["FAIL", "-"]
                continue
            peaks.append(r.maxrss_kib)
            cells += ["%.1f" % (r.maxrss_kib / 1024.0), "%.2f" % r.cpu]
        cells.append("%.2f" % (peaks[1] / peaks[0]) if peaks[0] and peaks[1] else "-")
        rows.append(tuple(cells))
    print_table(["threads", "none MB", "none s", "ft MB", "ft s", "grow MB", "grow s", "ft/none"], rows)
    ten = [r for r in rows if r[0] == "10000"]
    if ten and ten[0][-1] != "-":
        x = float(ten[0][-1])
        print("  goal: 10,000 short-lived threads under ft within 2x of none's peak memory: %.2fx  %s"
              % (x, "MET" if round(x, 2) <= 2.0 else "NOT MET"))
    print()
    return problems


if __name__ == "__main__":
    sys.exit(main())

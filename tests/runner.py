#!/usr/bin/env python3
"""drvm's test runner (Python 3 standard library only).

    python3 tests/runner.py [--drvm ./drvm] [--jdk | --no-jdk | --jdk-only]
                            [-j N] [--timeout S] [--filter SUBSTR] [--exclude SUBSTR ...] [-v]
                            [--seeds N] [--unit BIN ...] [paths...]

Runs every tests/**/*.dl program (default path: tests/lang) with
`drvm run FILE -- ARGS` and checks it against expectations written as
comments in the program itself.  A directory called NAME.prog is one
program of several files (its .dl and .java files, run as `drvm run DIR`;
the directives may be in any of them, and an `expect error` line names a
line of the file it is written in; the JDK compiles them all with javac,
each .dl copied to a .java of the same name, and runs the main class:
the one given by `// drvm: --main CLASS`, else the one declaring main).
The directives:

  // expect: TEXT                  one line of stdout (all of them, in order,
                                   must equal stdout line by line)
  // expect error: LINE: MESSAGE   a compile error at LINE whose message
                                   contains MESSAGE (exit status 3)
  // expect runtime error: TEXT    an uncaught exception: stderr has a line
                                   starting `Exception in thread "main" TEXT`
                                   (exit status 1)
  // expect exit: N                the exit status (default 0, or as implied)
  // args: a b c                   program arguments (split on whitespace)
  // no-jdk: REASON                do not cross-check this file with the JDK
  // drvm: OPTIONS                 options for `drvm run` (e.g. --max-steps 1000)
  // expect stderr: TEXT           some line of stderr contains TEXT
  // expect trace: LINE            (repeatable) run once more with
                                   `--seed 1 --trace=TMPFILE`; the trace
                                   file's lines must be exactly these, in order
                                   (reported as `FILE [trace]`)

Thread tests.  A file with a directory called `threads` in its path is a
thread test.  Instead of a single run it is run under each of the
schedulers, `drvm run --sched S --seed K FILE -- ARGS` for S in native,
random, rr, pct, contest and drfinder and every seed K in 1..N, and every
one of those runs must meet the expectations above (drfinder: seed 0 is
its Phase I run and each seed K runs Phase II on the relations seed K-1
collected).  Each scheduler is one check, `FILE [native]`, `FILE [random]`,
..., which fails with the first failing seed and the command that
reproduces it.  Each run is also checked for drvm's seed
report: a run that ends with exit status 1, 4 or 5, or with an uncaught
exception in any thread, ends its stderr with
`drvm: seed K (rerun with --seed K)`, and a clean run (status 0, no
uncaught exception) prints no such line.  Two more directives:

  // seeds: N                      the number of seeds (default 50; the
                                   option --seeds N overrides it for every
                                   file, e.g. to search more schedules)
  // expect some seed: TEXT        at least one run of the random scheduler
                                   (seeds 1..N) has a stdout line equal to
                                   TEXT; each such directive may be met by a
                                   different seed.  A file with this
                                   directive and no `// expect:` line does not
                                   check stdout in the other runs.

Every thread test is run twice with the same seed and `--trace=TMP` under
the native and random schedulers (seeds 1..3): stdout, stderr, exit status
and trace must be byte-identical, `FILE [determinism]`.

Every thread test also gets a record/replay round trip, `FILE [replay]`:
`drvm run --sched random --seed 7 --record TMP FILE`, then
`drvm run --replay TMP FILE` must give byte-identical stdout, stderr and
exit status.

JDK cross-check (--jdk, on by default when `java` is on PATH): every test
without `expect error`, without `no-jdk` and without `native` methods is
also run as `java -ea COPY.java ARGS`; its stdout and exit status must be
identical to drvm's.  That is reported as a separate check, `FILE [jdk]`.
A thread test is cross-checked only if it has `// expect:` lines and no
`expect some seed`; java runs it once and must meet the expectations.
--jdk-only runs only the JDK side and checks it against the expectations
(to validate the suite itself without drvm).

Race tests.  A file with a directory called `races` in its path is a race
test: a program labeled in its header with what the race detectors must
find in it,

  // race: norace                  no interleaving has a race
  // race: race-always LOCS        every run races on exactly LOCS
  // race: race-hidden LOCS        some runs race on some of LOCS, others
                                   are ordered by a lock; over the random
                                   scheduler's seeds the union is LOCS
  // random-cannot: WHY            ... except that no random schedule can
                                   reach it (a sleep before the lock: only a
                                   scheduler that holds the other thread
                                   back does; tests/hunting.py checks that
                                   DrFinder exposes it and that the
                                   witness replays to the race)

LOCS is a comma-separated list of locations as the reports name them,
`Class.field`, with an array reduced to its type (`int[]#7[3]` -> `int[]`).
Each is run for seeds 1..N (`// seeds:`, --seeds) under the native and the
random scheduler (`FILE [races native]`, `FILE [races random]`), once with
each precise detector, `--detector ft|djit|basicvc --report json=TMP`: every
run must meet the file's other expectations (stdout; exit status 66 when
races were found, else 0), the races must be as labeled, and the three
detectors must report exactly the same races (the same ids, in the same
order) in every run.  A race-hidden file's detection rate (runs with a race
out of N, per scheduler) is printed at the end (with N >= 20 the union
must be all of LOCS).  A norace file is also run
under the imprecise detectors, seeds 1..10 of native, native-random and random
(`FILE [eraser]`, `FILE [hybrid]`); the union of the locations they flag
must be exactly their known false alarms, declared as

  // eraser: LOCS                  Eraser's false alarms (default: none)
  // hybrid: LOCS                  hybrid's potential races (default: none)

Every race test also gets `FILE [predict]`: one native run (seed 1) under
`--detector wcp --relaxed`, whose predicted races drvm confirms by steered
runs.  The races it saw plus those it confirmed must be as labeled (exactly
LOCS for race-always and race-hidden: one observed run finds every hidden
race), a norace file has none confirmed (predictions it cannot confirm
are allowed), and every confirmed race's witness must replay to a
FastTrack report on its location.

Every thread test also gets `FILE [precision]`: seeds 1..5 of the native and
random schedulers, each run under ft, djit and basicvc, which must report
the same races (FastTrack's claim of identical precision).

--unit BIN (repeatable) also runs a C unit-test binary; it passes iff it
exits with status 0.

--timeout applies to every single drvm run (java gets three times as much).
Checks run in parallel (-j, default: the number of CPUs); each scheduler of a
thread test is one job, its seeds run one after another.

The last line printed is `N passed, N failed`; the exit status is 0 iff
nothing failed (2 if no test was found or the command line is bad).
"""

import argparse
import concurrent.futures
import difflib
import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

RE_EXPECT = re.compile(r"//\s*expect:(.*)$")
RE_ERROR = re.compile(r"//\s*expect error:\s*(\d+)\s*:\s?(.*?)\s*$")
RE_RUNTIME = re.compile(r"//\s*expect runtime error:\s?(.*?)\s*$")
RE_EXIT = re.compile(r"//\s*expect exit:\s*(-?\d+)\s*$")
RE_ARGS = re.compile(r"//\s*args:(.*)$")
RE_NOJDK = re.compile(r"//\s*no-jdk:")
RE_DRVM_OPTS = re.compile(r"//\s*drvm:(.*)$")
RE_STDERR = re.compile(r"//\s*expect stderr:\s?(.*?)\s*$")
RE_SOME_SEED = re.compile(r"//\s*expect some seed:(.*)$")
RE_TRACE = re.compile(r"//\s*expect trace:(.*)$")
RE_SEEDS = re.compile(r"//\s*seeds:\s*(\d+)\s*$")
RE_RACE = re.compile(r"//\s*race:\s*(norace|race-always|race-hidden)\b(.*)$")
RE_FALSE_ALARMS = re.compile(r"//\s*(eraser|hybrid):(.*)$")
RE_DIRECTIVE = re.compile(r"//\s*(expect\b[^:]*|args|no-jdk|drvm|seeds|race|eraser|hybrid|random-cannot):")
KNOWN_DIRECTIVES = {"expect", "expect error", "expect runtime error", "expect exit", "expect stderr", "args", "no-jdk",
                    "drvm", "expect some seed", "expect trace", "seeds", "race", "eraser", "hybrid", "random-cannot"}

EXIT_COMPILE_ERROR = 3
EXIT_UNCAUGHT = 1
EXIT_DEADLOCK = 4
EXIT_STEP_LIMIT = 5

SCHEDULERS = ("native", "random", "rr", "pct", "contest", "drfinder")
DEFAULT_SEEDS = 50
REPLAY_SEED = 7
TRACE_SEED = 1
DETERMINISM_SEEDS = (1, 2, 3)
PRECISE_DETECTORS = ("ft", "djit", "basicvc")
RACE_EXIT = 66
IMPRECISE_SEEDS = 10
PRECISION_SEEDS = (1, 2, 3, 4, 5)
MIN_SEEDS_FOR_UNION = 20


class Test:
    def __init__(self, path):
        self.path = path
        self.rel = os.path.relpath(path, os.getcwd())
        self.expect = []          # expected stdout lines
        self.errors = []          # (line, message) compile errors
        self.runtime = None       # uncaught exception text (prefix)
        self.exit = None          # explicit exit status
        self.args = []
        self.drvm_opts = []       # options for `drvm run`
        self.stderr = []          # texts some stderr line must contain
        self.no_jdk = False
        self.native = False
        self.problems = []        # malformed directives
        self.threads = "threads" in os.path.normpath(path).split(os.sep)   # a thread test
        self.seeds = DEFAULT_SEEDS  # thread tests: seeds 1..seeds per scheduler
        self.some_seed = []       # texts some random-scheduler run must print as a line
        self.trace = []           # expected lines of --trace output
        self.races = "races" in os.path.normpath(path).split(os.sep)       # a race test
        self.race_label = None    # norace, race-always, race-hidden
        self.random_cannot = False  # `// random-cannot: WHY`: no random schedule reaches the hidden race
        self.race_locs = set()    # the labeled locations
        self.false_alarms = {"eraser": set(), "hybrid": set()}
        if self.races:
            self.threads = True   # its seeds, `expect some seed`... work as in thread tests

    @property
    def status(self):
        if self.exit is not None:
            return self.exit
        if self.errors:
            return EXIT_COMPILE_ERROR
        if self.runtime is not None:
            return EXIT_UNCAUGHT
        return 0

    def jdk_eligible(self):
        if self.threads and (not self.expect or self.some_seed):
            return False
        return not self.errors and not self.no_jdk and not self.native

    @property
    def check_stdout(self):
        """Whether every run's stdout must equal the `expect:` lines."""
        if self.races:        # many race programs print in an order the schedule decides
            return bool(self.expect)
        return bool(self.expect) or not self.some_seed


def strip_comments_and_strings(text):
    """The source with comments, string and char literals blanked out."""
    return re.sub(r'//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'',
                  " ", text, flags=re.S)


def program_files(path):
    """The source files of a test: the file itself, or a .prog directory's files."""
    if not os.path.isdir(path):
        return [path]
    files = []
    for dirpath, dirnames, filenames in os.walk(path):
        dirnames.sort()
        files += [os.path.join(dirpath, f) for f in sorted(filenames) if f.endswith((".dl", ".java"))]
    return files


def parse_test(path):
    t = Test(path)
    texts = []
    for fpath in program_files(path):
        with open(fpath, encoding="utf-8", errors="surrogateescape") as f:
            texts.append(f.read())
        parse_directives(t, os.path.basename(fpath), texts[-1])
    text = "\n".join(texts)
    finish_test(t, text)
    return t


def parse_directives(t, fname, text):
    for lineno, line in enumerate(text.split("\n"), 1):
        line = line.rstrip("\r")
        d = RE_DIRECTIVE.search(line)
        if not d:
            continue
        kind = re.sub(r"\s+", " ", d.group(1)).strip()
        if kind not in KNOWN_DIRECTIVES:
            t.problems.append("line %d: unknown directive '// %s:'" % (lineno, kind))
            continue
        if kind == "expect":
            m = RE_EXPECT.search(line)
            s = m.group(1)
            t.expect.append(s[1:] if s.startswith(" ") else s)
        elif kind == "expect error":
            m = RE_ERROR.search(line)
            if not m:
                t.problems.append("line %d: malformed '// expect error: LINE: MESSAGE'" % lineno)
            else:
                t.errors.append((fname, int(m.group(1)), m.group(2)))
        elif kind == "expect runtime error":
            t.runtime = RE_RUNTIME.search(line).group(1)
        elif kind == "expect exit":
            m = RE_EXIT.search(line)
            if not m:
                t.problems.append("line %d: malformed '// expect exit: N'" % lineno)
            else:
                t.exit = int(m.group(1))
        elif kind == "args":
            t.args = RE_ARGS.search(line).group(1).split()
        elif kind == "no-jdk":
            t.no_jdk = True
        elif kind == "drvm":
            t.drvm_opts = RE_DRVM_OPTS.search(line).group(1).split()
        elif kind == "expect stderr":
            t.stderr.append(RE_STDERR.search(line).group(1))
        elif kind == "expect some seed":
            s = RE_SOME_SEED.search(line).group(1)
            t.some_seed.append(s[1:] if s.startswith(" ") else s)
        elif kind == "expect trace":
            s = RE_TRACE.search(line).group(1)
            t.trace.append(s[1:] if s.startswith(" ") else s)
        elif kind == "race":
            m = RE_RACE.search(line)
            if not m or t.race_label is not None:
                t.problems.append("line %d: malformed or repeated '// race: norace|race-always|race-hidden LOCS'"
                                  % lineno)
            else:
                t.race_label = m.group(1)
                t.race_locs = parse_locs(m.group(2))
                if (t.race_label == "norace") != (not t.race_locs):
                    t.problems.append("line %d: norace takes no locations, the others at least one" % lineno)
        elif kind in ("eraser", "hybrid"):
            t.false_alarms[kind] = parse_locs(RE_FALSE_ALARMS.search(line).group(2))
        elif kind == "random-cannot":
            t.random_cannot = True
        elif kind == "seeds":
            m = RE_SEEDS.search(line)
            if not m or int(m.group(1)) < 1:
                t.problems.append("line %d: malformed '// seeds: N' (N >= 1)" % lineno)
            else:
                t.seeds = int(m.group(1))


def finish_test(t, text):
    t.native = re.search(r"\bnative\b", strip_comments_and_strings(text)) is not None
    if t.errors and t.runtime is not None:
        t.problems.append("both 'expect error' and 'expect runtime error'")
    if not t.threads and t.some_seed:
        t.problems.append("'expect some seed' outside a threads directory")
    if not t.threads and any(RE_SEEDS.search(l) for l in text.split("\n")):
        t.problems.append("'seeds' outside a threads directory")
    if t.races and t.race_label is None:
        t.problems.append("a race test without its '// race: LABEL' header")
    if not t.races and (t.race_label is not None or RE_FALSE_ALARMS.search(text)):
        t.problems.append("'race', 'eraser' or 'hybrid' outside a races directory")
    if t.race_label not in (None, "norace") and (t.false_alarms["eraser"] or t.false_alarms["hybrid"]):
        t.problems.append("'eraser'/'hybrid' false alarms are declared on norace files only")


def parse_locs(text):
    return set(x.strip() for x in text.split(",") if x.strip() and x.strip() != "none")


def discover(paths):
    files = []
    for p in paths:
        if os.path.isdir(p) and p.rstrip("/").endswith(".prog"):
            files.append(p)
        elif os.path.isdir(p):
            for dirpath, dirnames, filenames in os.walk(p):
                dirnames.sort()
                files += [os.path.join(dirpath, d) for d in dirnames if d.endswith(".prog")]
                dirnames[:] = [d for d in dirnames if not d.endswith(".prog")]
                for fn in filenames:
                    if fn.endswith(".dl"):
                        files.append(os.path.join(dirpath, fn))
        elif os.path.isfile(p):
            files.append(p)
        else:
            print("runner: no such file or directory: %s" % p, file=sys.stderr)
            sys.exit(2)
    return sorted(set(os.path.normpath(f) for f in files))


def decode(b):
    return b.decode("utf-8", errors="replace")


def run_process(cmd, timeout, cwd=None):
    """Runs cmd; returns (returncode, stdout bytes, stderr bytes, timed_out)."""
    try:
        p = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, cwd=cwd, start_new_session=True)
    except OSError as e:
        return None, b"", str(e).encode(), False
    try:
        out, err = p.communicate(timeout=timeout)
        return p.returncode, out, err, False
    except subprocess.TimeoutExpired:
        try:
            os.killpg(p.pid, signal.SIGKILL)
        except OSError:
            p.kill()
        out, err = p.communicate()
        return p.returncode, out, err, True


def stdout_lines(out):
    lines = decode(out).split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def describe_status(rc):
    if rc is None:
        return "could not be started"
    if rc < 0:
        try:
            name = signal.Signals(-rc).name
        except ValueError:
            name = "signal %d" % -rc
        return "crashed with %s" % name
    return "exit status %d" % rc


def tail(text, n=15):
    lines = text.rstrip("\n").split("\n")
    if len(lines) > n:
        lines = ["..."] + lines[-n:]
    return "\n".join("    " + l for l in lines)


def diff_lines(expected, got, from_name, to_name, limit=60):
    lines = list(difflib.unified_diff(expected, got, from_name, to_name, lineterm="", n=2))
    if len(lines) > limit:
        lines = lines[:limit] + ["... (%d more diff lines)" % (len(lines) - limit)]
    return "\n".join("    " + l for l in lines)


def check_seed_report(seed, rc, errtext):
    """drvm's `drvm: seed K` line: last on stderr after a failed run, absent after a clean one."""
    lines = errtext.rstrip("\n").split("\n")
    want = "drvm: seed %d (rerun with --seed %d)" % (seed, seed)
    uncaught = any(l.startswith("Exception in thread ") for l in lines)
    if rc in (EXIT_UNCAUGHT, EXIT_DEADLOCK, EXIT_STEP_LIMIT) or uncaught:
        if lines[-1] != want:
            return ["the last line of stderr is not '%s'" % want]
    elif rc == 0 and any(l.startswith("drvm: seed ") for l in lines):
        return ["a clean run reported its seed on stderr"]
    return []


def check_output(t, who, rc, out, err, timed_out, timeout, check_stdout=True, seed=None, status=None):
    """Checks one run against t's expectations; returns a list of failure reasons.

    check_stdout=False skips the comparison of stdout with the `expect:` lines;
    seed=K also checks drvm's seed report for a run with --seed K;
    status=N expects exit status N instead of the file's."""
    errtext = decode(err)
    if timed_out:
        return ["%s timed out after %gs" % (who, timeout) + ("\n  stderr:\n" + tail(errtext) if errtext.strip() else "")]
    if rc is None or rc < 0:
        return ["%s %s\n  stderr:\n%s" % (who, describe_status(rc), tail(errtext))]
    reasons = []
    want_status = t.status if status is None else status
    if rc != want_status:
        reasons.append("%s %s, expected %d" % (who, describe_status(rc), want_status))
    if t.errors:
        elines = errtext.split("\n")
        for fname, line, msg in t.errors:
            pat = re.compile(r"%s:%d:\d+: error: .*%s" % (re.escape(fname), line, re.escape(msg)))
            if not any(pat.search(l) for l in elines):
                reasons.append("missing compile error at line %d containing '%s'" % (line, msg))
    if t.runtime is not None:
        want = 'Exception in thread "main" ' + t.runtime
        if not any(l.startswith(want) for l in errtext.split("\n")):
            reasons.append("stderr has no line starting with '%s'" % want)
    if who == "drvm":
        for want in t.stderr:
            if not any(want in l for l in errtext.split("\n")):
                reasons.append("stderr has no line containing '%s'" % want)
    if seed is not None:
        reasons += check_seed_report(seed, rc, errtext)
    got = stdout_lines(out)
    if check_stdout and got != t.expect:
        reasons.append("stdout differs:\n" + diff_lines(t.expect, got, "expected stdout", who + " stdout"))
    if reasons and errtext.strip():
        reasons.append("stderr:\n" + tail(errtext))
    return reasons


def drvm_command(t, opts, options=()):
    return [opts.drvm, "run"] + list(options) + t.drvm_opts + [t.path, "--"] + t.args


def shell_command(cmd, opts):
    """cmd as one line to paste into a shell (the drvm binary as the user named it)."""
    if cmd and cmd[0] == opts.drvm:
        cmd = [opts.drvm_shown] + cmd[1:]
    return " ".join(shlex.quote(c) for c in cmd)


def run_drvm(t, opts):
    rc, out, err, timed_out = run_process(drvm_command(t, opts), opts.timeout)
    return (rc, out, err, timed_out)


def java_main_class(t, files, texts):
    """The class `java` runs for a .prog test: --main, else the public class
    of the file that declares main (javac names the file after it)."""
    if "--main" in t.drvm_opts:
        return t.drvm_opts[t.drvm_opts.index("--main") + 1]
    for f, text in zip(files, texts):
        code = strip_comments_and_strings(text)
        pkg = re.search(r"^\s*package\s+([\w.]+)\s*;", code, re.M)
        if re.search(r"\bpublic\s+static\s+void\s+main\s*\(", code):
            cls = os.path.splitext(os.path.basename(f))[0]
            return (pkg.group(1) + "." if pkg else "") + cls
    return "Main"


def run_java_prog(t, opts):
    d = tempfile.mkdtemp(prefix="drvm-jdk-")
    try:
        texts, copies, files = [], [], program_files(t.path)
        for f in files:
            copy = os.path.join(d, "src", os.path.splitext(os.path.relpath(f, t.path))[0] + ".java")
            os.makedirs(os.path.dirname(copy), exist_ok=True)
            shutil.copyfile(f, copy)
            copies.append(copy)
            with open(f, encoding="utf-8", errors="surrogateescape") as fh:
                texts.append(fh.read())
        javac = os.path.join(os.path.dirname(os.path.realpath(opts.java)), "javac")
        rc, out, err, to = run_process([javac, "-d", os.path.join(d, "out")] + copies, opts.timeout * 3, cwd=d)
        if rc != 0 or to:
            return rc, out, err, to
        cmd = [opts.java, "-ea", "-XX:TieredStopAtLevel=1", "-cp", os.path.join(d, "out"),
               java_main_class(t, files, texts)] + t.args
        return run_process(cmd, opts.timeout * 3, cwd=d)
    finally:
        shutil.rmtree(d, ignore_errors=True)


def run_java(t, opts):
    if os.path.isdir(t.path):
        return run_java_prog(t, opts)
    d = tempfile.mkdtemp(prefix="drvm-jdk-")
    try:
        copy = os.path.join(d, "Prog.java")
        shutil.copyfile(t.path, copy)
        # C1 only: starts faster, same semantics.
        cmd = [opts.java, "-ea", "-XX:TieredStopAtLevel=1", copy] + t.args
        return run_process(cmd, opts.timeout * 3, cwd=d)
    finally:
        shutil.rmtree(d, ignore_errors=True)


def run_test(t, opts):
    """Returns a list of (check name, list of failure reasons)."""
    results = []
    if t.problems:
        return [(t.rel, ["bad test file: " + "; ".join(t.problems)])]
    do_jdk = opts.use_jdk and t.jdk_eligible()
    if opts.jdk_only:
        if not t.jdk_eligible():
            return []
        rc, out, err, to = run_java(t, opts)
        return [(t.rel + " [jdk]", check_output(t, "java", rc, out, err, to, opts.timeout * 3))]
    d = run_drvm(t, opts)
    results.append((t.rel, check_output(t, "drvm", *d, opts.timeout)))
    if do_jdk:
        j = run_java(t, opts)
        reasons = []
        jrc, jout, jerr, jto = j
        drc, dout = d[0], d[1]
        if jto:
            reasons.append("java timed out")
        else:
            if jout != dout:
                diff = difflib.unified_diff(stdout_lines(jout), stdout_lines(dout), "java stdout",
                                            "drvm stdout", lineterm="", n=2)
                lines = list(diff)
                if len(lines) > 60:
                    lines = lines[:60] + ["... (%d more diff lines)" % (len(lines) - 60)]
                if not lines:
                    lines = ["(outputs differ only in line endings / final newline)"]
                reasons.append("stdout differs from java's:\n" + "\n".join("    " + l for l in lines))
            if jrc != drc:
                reasons.append("java %s, drvm %s" % (describe_status(jrc), describe_status(drc)))
                if jrc != 0 and decode(jerr).strip():
                    reasons.append("java stderr:\n" + tail(decode(jerr)))
        results.append((t.rel + " [jdk]", reasons))
    return results


def run_scheduler(t, opts, sched):
    """A thread test under one scheduler for seeds 1..t.seeds; one check."""
    name = "%s [%s]" % (t.rel, sched)
    want_some = set(t.some_seed) if sched == "random" else set()
    seen = set()
    outcomes = {}             # stdout -> number of seeds (for the report of a missed `expect some seed`)
    report_seed = not ("-v" in t.drvm_opts or "--verbose" in t.drvm_opts)
    # drfinder: seed 0 is Phase I, each later seed runs Phase II on the
    # relations the run before it collected (the feedback chain)
    mtr_dir = tempfile.mkdtemp(prefix="drvm-mtr-") if sched == "drfinder" and "--sched" not in t.drvm_opts else None
    try:
        return run_scheduler_seeds(t, opts, sched, name, want_some, seen, outcomes, report_seed, mtr_dir)
    finally:
        if mtr_dir:
            shutil.rmtree(mtr_dir, ignore_errors=True)


def run_scheduler_seeds(t, opts, sched, name, want_some, seen, outcomes, report_seed, mtr_dir):
    for seed in range(0 if mtr_dir else 1, t.seeds + 1):
        extra = []
        if mtr_dir:
            extra = ["--mtr-out", os.path.join(mtr_dir, "mtr-%d" % seed)]
            if seed > 0:
                extra += ["--mtr-in", os.path.join(mtr_dir, "mtr-%d" % (seed - 1))]
        cmd = drvm_command(t, opts, ["--sched", sched, "--seed", str(seed)] + extra)
        rc, out, err, timed_out = run_process(cmd, opts.timeout)
        reasons = check_output(t, "drvm", rc, out, err, timed_out, opts.timeout, check_stdout=t.check_stdout,
                               seed=seed if report_seed else None)
        if reasons:
            return [(name, ["fails with seed %d (of 1..%d); rerun: %s" % (seed, t.seeds, shell_command(cmd, opts))]
                     + reasons)]
        if want_some:
            lines = stdout_lines(out)
            seen.update(want_some.intersection(lines))
            key = "\n".join(lines[:4]) + ("\n..." if len(lines) > 4 else "")
            outcomes[key] = outcomes.get(key, 0) + 1
    missing = [x for x in t.some_seed if x not in seen] if want_some else []
    if missing:
        reasons = ["no seed in 1..%d printed the line '%s'" % (t.seeds, x) for x in missing]
        shown = sorted(outcomes.items(), key=lambda kv: -kv[1])[:5]
        reasons.append("stdout seen (number of seeds: output):\n" + "\n".join(
            "    %3d: %s" % (n, text.replace("\n", "\n         ")) for text, n in shown))
        return [(name, reasons)]
    return [(name, [])]


def compare_runs(a, b, a_name, b_name):
    """Reasons why two runs (rc, out, err, timed_out) are not byte-identical."""
    reasons = []
    if a[0] != b[0]:
        reasons.append("%s %s, %s %s" % (a_name, describe_status(a[0]), b_name, describe_status(b[0])))
    for i, stream in ((1, "stdout"), (2, "stderr")):
        if a[i] != b[i]:
            diff = diff_lines(stdout_lines(a[i]), stdout_lines(b[i]), a_name + " " + stream, b_name + " " + stream,
                              limit=40)
            reasons.append("%s differs:\n%s" % (stream, diff or "    (only in the final newline or undecodable bytes)"))
    return reasons


def drop_replay_lines(r):
    return (r[0], r[1], re.sub(rb"(?m)^Replay: .*\n", b"", r[2]), r[3])


def run_replay(t, opts):
    """Record a random-scheduler run, replay it: stdout, stderr and status must be identical."""
    name = t.rel + " [replay]"
    fd, rec = tempfile.mkstemp(prefix="drvm-rec-", suffix=".sched")
    os.close(fd)
    try:
        rcmd = drvm_command(t, opts, ["--sched", "random", "--seed", str(REPLAY_SEED), "--record", rec])
        r = run_process(rcmd, opts.timeout)
        how = "\n  record: %s\n  replay: %s" % (
            shell_command(drvm_command(t, opts, ["--sched", "random", "--seed", str(REPLAY_SEED), "--record", "FILE"]),
                          opts),
            shell_command(drvm_command(t, opts, ["--replay", "FILE"]), opts))
        if r[3] or r[0] is None or r[0] < 0:
            return [(name, ["recording run " + (("timed out after %gs" % opts.timeout) if r[3] else
                                                describe_status(r[0])) + how, "stderr:\n" + tail(decode(r[2]))])]
        pcmd = drvm_command(t, opts, ["--replay", rec])
        p = run_process(pcmd, opts.timeout)
        if p[3]:
            return [(name, ["replay timed out after %gs" % opts.timeout + how])]
        # a race report's "Replay:" line names how to reproduce this very run,
        # which is rightly different for the recording and the replay
        reasons = compare_runs(drop_replay_lines(r), drop_replay_lines(p), "recorded", "replayed")
        if reasons:
            reasons[0] = "replay differs from the recorded run" + how + "\n  " + reasons[0]
        return [(name, reasons)]
    finally:
        try:
            os.unlink(rec)
        except OSError:
            pass


def run_determinism(t, opts):
    """Same program, options and seed, run twice with --trace: stdout, stderr, status and trace byte-identical."""
    name = t.rel + " [determinism]"
    for sched in ("native", "random"):
        for seed in DETERMINISM_SEEDS:
            runs = []
            for _ in range(2):
                fd, path = tempfile.mkstemp(prefix="drvm-det-", suffix=".txt")
                os.close(fd)
                try:
                    r = run_process(drvm_command(t, opts, ["--sched", sched, "--seed", str(seed), "--trace=" + path]),
                                    opts.timeout)
                    with open(path, "rb") as f:
                        runs.append((r[0], r[1], r[2] + b"\n--- trace ---\n" + f.read(), r[3]))
                finally:
                    os.unlink(path)
            if runs[0][3] or runs[1][3]:
                return [(name, ["timed out after %gs (--sched %s --seed %d)" % (opts.timeout, sched, seed)])]
            reasons = compare_runs(runs[0], runs[1], "first", "second")
            if reasons:
                reasons.insert(0, "two runs differ: " + shell_command(
                    drvm_command(t, opts, ["--sched", sched, "--seed", str(seed), "--trace"]), opts))
                return [(name, reasons)]
    return [(name, [])]


def run_trace(t, opts):
    """One run with --trace=FILE; the file must hold exactly the `expect trace:` lines."""
    name = t.rel + " [trace]"
    fd, path = tempfile.mkstemp(prefix="drvm-trace-", suffix=".txt")
    os.close(fd)
    try:
        cmd = drvm_command(t, opts, ["--seed", str(TRACE_SEED), "--trace=" + path])
        rc, out, err, timed_out = run_process(cmd, opts.timeout)
        reasons = check_output(t, "drvm", rc, out, err, timed_out, opts.timeout, check_stdout=t.check_stdout)
        if not timed_out and rc is not None and rc >= 0:
            with open(path, "rb") as f:
                got = stdout_lines(f.read())
            if got != t.trace:
                reasons.append("trace differs:\n" + diff_lines(t.trace, got, "expected trace", "drvm trace", limit=80))
        if reasons:
            reasons.insert(0, "run: " + shell_command(drvm_command(t, opts, ["--seed", str(TRACE_SEED), "--trace"]),
                                                       opts))
        return [(name, reasons)]
    finally:
        try:
            os.unlink(path)
        except OSError:
            pass


LOC_ARRAY_ELEMENT = re.compile(r"#\d+\[\d+\]$")


def race_locations(races):
    """The labeled form of a JSON report's race locations: arrays reduced to their type."""
    return set(LOC_ARRAY_ELEMENT.sub("", r.get("location", "?")) for r in races)


def run_detector(t, opts, sched, seed, det):
    """One run with --report json=TMP: (process result, list of races or None, command)."""
    fd, path = tempfile.mkstemp(prefix="drvm-races-", suffix=".json")
    os.close(fd)
    try:
        cmd = drvm_command(t, opts, ["--sched", sched, "--seed", str(seed), "--detector", det, "--report",
                                     "json=" + path])
        r = run_process(cmd, opts.timeout)
        races = None
        try:
            with open(path, encoding="utf-8") as f:
                text = f.read()
            if text:
                races = json.loads(text)["races"]
        except (OSError, ValueError, KeyError, TypeError):
            races = None
        shown = drvm_command(t, opts, ["--sched", sched, "--seed", str(seed), "--detector", det])
        return r, races, shown
    finally:
        try:
            os.unlink(path)
        except OSError:
            pass


def check_detector_run(t, opts, r, races, seed):
    """One precise detector's run: it ended as the program should, with a readable JSON report."""
    rc, out, err, timed_out = r
    status = RACE_EXIT if races else 0
    reasons = check_output(t, "drvm", rc, out, err, timed_out, opts.timeout, check_stdout=t.check_stdout,
                           seed=seed, status=status)
    if not reasons and races is None:
        reasons.append("no JSON report was written (or it is not valid JSON)")
    return reasons


def race_ids(races):
    return [r.get("id") for r in races]


def run_races(t, opts, sched):
    """A race test under one scheduler: every seed under ft, djit and basicvc."""
    name = "%s [races %s]" % (t.rel, sched)
    found = {}                # seed -> set of locations (ft)
    want_some = set(t.some_seed) if sched == "random" else set()
    seen = set()
    for seed in range(1, t.seeds + 1):
        ft_ids = None
        for det in PRECISE_DETECTORS:
            r, races, cmd = run_detector(t, opts, sched, seed, det)
            how = "fails with seed %d (of 1..%d); rerun: %s" % (seed, t.seeds, shell_command(cmd, opts))
            reasons = check_detector_run(t, opts, r, races, seed)
            if reasons:
                return [(name, [how] + reasons)]
            if det == "ft":
                ft_ids = race_ids(races)
                locs = race_locations(races)
                found[seed] = locs
                if want_some:
                    seen.update(want_some.intersection(stdout_lines(r[1])))
                if t.race_label == "norace" and locs:
                    bad = "reported races on %s in a norace program" % ", ".join(sorted(locs))
                elif t.race_label == "race-always" and locs != t.race_locs:
                    bad = "reported races on {%s}, labeled race-always on {%s}" % (
                        ", ".join(sorted(locs)), ", ".join(sorted(t.race_locs)))
                elif t.race_label == "race-hidden" and not locs <= t.race_locs:
                    bad = "reported races on %s, not among the labeled %s" % (
                        ", ".join(sorted(locs - t.race_locs)), ", ".join(sorted(t.race_locs)))
                else:
                    bad = None
                if bad:
                    return [(name, [how, bad, "stderr:\n" + tail(decode(r[2]), 30)])]
            elif race_ids(races) != ft_ids:
                return [(name, [how, "%s reported races %s, ft %s (the precise detectors must agree)" % (
                    det, race_ids(races), ft_ids)])]
    missing = [x for x in t.some_seed if x not in seen] if want_some else []
    if missing:
        return [(name, ["no seed in 1..%d printed the line '%s'" % (t.seeds, x) for x in missing])]
    if t.race_label == "race-hidden":
        racy = sum(1 for locs in found.values() if locs)
        per_loc = {loc: sum(1 for locs in found.values() if loc in locs) for loc in sorted(t.race_locs)}
        opts.rates.append((t.rel, sched, racy, t.seeds, per_loc))
        union = set().union(*found.values()) if found else set()
        # (a few seeds, as under make asan, may well miss a hidden race)
        if sched == "random" and t.seeds >= MIN_SEEDS_FOR_UNION and union != t.race_locs and not t.random_cannot:
            return [(name, ["over seeds 1..%d the random scheduler exposed {%s}, labeled race-hidden on {%s}" % (
                t.seeds, ", ".join(sorted(union)), ", ".join(sorted(t.race_locs)))])]
    return [(name, [])]


def run_imprecise(t, opts, det):
    """A norace file under eraser or hybrid: the union of what it flags is exactly the declared false alarms."""
    name = "%s [%s]" % (t.rel, det)
    union = set()
    first = {}                # location -> the command that first flagged it
    # native is a JVM's fixed order (only its quanta vary with the seed):
    # native-random samples the orders a switch can take
    for sched in ("native", "native-random", "random"):
        for seed in range(1, IMPRECISE_SEEDS + 1):
            r, races, cmd = run_detector(t, opts, sched, seed, det)
            rc, out, err, timed_out = r
            reasons = check_output(t, "drvm", rc, out, err, timed_out, opts.timeout, check_stdout=t.check_stdout,
                                   seed=seed, status=RACE_EXIT if races else 0)
            if not reasons and races is None:
                reasons.append("no JSON report was written (or it is not valid JSON)")
            if reasons:
                return [(name, ["fails with seed %d; rerun: %s" % (seed, shell_command(cmd, opts))] + reasons)]
            for loc in race_locations(races):
                if loc not in union:
                    union.add(loc)
                    first[loc] = shell_command(cmd, opts)
    want = t.false_alarms[det]
    if union != want:
        reasons = ["%s flagged {%s} over seeds 1..%d of native, native-random and random; the file declares '// %s: %s'" % (
            det, ", ".join(sorted(union)), IMPRECISE_SEEDS, det, ", ".join(sorted(want)) or "none")]
        reasons += ["%s first flagged by: %s" % (loc, first[loc]) for loc in sorted(union - want)]
        return [(name, reasons)]
    return [(name, [])]


RE_CONFIRMED = re.compile(r"^drvm: the predicted race on (\S+) is real: .*`drvm run --replay (\S+) ")


def run_predict(t, opts):
    """A race test under wcp --relaxed with confirmation: seen + confirmed races as labeled, witnesses replay."""
    name = t.rel + " [predict]"
    wdir = tempfile.mkdtemp(prefix="drvm-predict-")
    try:
        fd, path = tempfile.mkstemp(prefix="drvm-races-", suffix=".json")
        os.close(fd)
        extra = ["--sched", "native", "--seed", "1", "--detector", "wcp", "--relaxed", "--witness-dir", wdir]
        cmd = drvm_command(t, opts, extra + ["--report", "json=" + path])
        shown = shell_command(drvm_command(t, opts, extra[:-2]), opts)
        rc, out, err, timed_out = run_process(cmd, opts.timeout * 4)
        try:
            with open(path, encoding="utf-8") as f:
                races = json.load(f)["races"]
        except (OSError, ValueError, KeyError, TypeError):
            races = None
        os.unlink(path)
        seen = race_locations([r for r in races or [] if not r.get("predicted")])
        confirmed = {}
        for line in decode(err).splitlines():
            m = RE_CONFIRMED.match(line)
            if m:
                confirmed[LOC_ARRAY_ELEMENT.sub("", m.group(1))] = m.group(2)
        got = seen | set(confirmed)
        reasons = check_output(t, "drvm", rc, out, err, timed_out, opts.timeout * 4, check_stdout=t.check_stdout,
                               seed=1, status=RACE_EXIT if got else 0)
        if not reasons and races is None:
            reasons.append("no JSON report was written (or it is not valid JSON)")
        if not reasons:
            want = set() if t.race_label == "norace" else t.race_locs
            if got != want:
                reasons.append("seen {%s} and confirmed {%s}; labeled {%s}" % (
                    ", ".join(sorted(seen)), ", ".join(sorted(confirmed)), ", ".join(sorted(want))))
        for loc, rec in sorted(confirmed.items()):
            fd, rp = tempfile.mkstemp(prefix="drvm-replay-", suffix=".json")
            os.close(fd)
            run_process(drvm_command(t, opts, ["--replay", rec, "--report", "json=" + rp]), opts.timeout)
            try:
                with open(rp, encoding="utf-8") as f:
                    again = race_locations(json.load(f)["races"])
            except (OSError, ValueError, KeyError, TypeError):
                again = set()
            os.unlink(rp)
            if loc not in again:
                reasons.append("the witness %s of %s replays to races on {%s}" % (rec, loc, ", ".join(sorted(again))))
        if reasons:
            return [(name, ["rerun: " + shown] + reasons + ["stderr:\n" + tail(decode(err), 30)])]
        return [(name, [])]
    finally:
        shutil.rmtree(wdir, ignore_errors=True)


def run_precision(t, opts):
    """A thread test under ft, djit and basicvc: the same races in every run."""
    name = t.rel + " [precision]"
    for sched in ("native", "random"):
        for seed in PRECISION_SEEDS:
            ids = {}
            for det in PRECISE_DETECTORS:
                r, races, cmd = run_detector(t, opts, sched, seed, det)
                rc, timed_out = r[0], r[3]
                if timed_out or rc is None or rc < 0 or races is None:
                    return [(name, ["rerun: " + shell_command(cmd, opts),
                                    "timed out" if timed_out else describe_status(rc) if (rc is None or rc < 0)
                                    else "no JSON report was written", "stderr:\n" + tail(decode(r[2]))])]
                ids[det] = race_ids(races)
            if not ids["ft"] == ids["djit"] == ids["basicvc"]:
                return [(name, ["the precise detectors disagree with --sched %s --seed %d: %s" % (
                    sched, seed, "; ".join("%s %s" % (d, ids[d]) for d in PRECISE_DETECTORS))])]
    return [(name, [])]


def run_java_check(t, opts):
    """A thread test on the JDK, once: it must meet the expectations."""
    rc, out, err, to = run_java(t, opts)
    return [(t.rel + " [jdk]", check_output(t, "java", rc, out, err, to, opts.timeout * 3,
                                           status=0 if t.races else None))]


def plan(t, opts):
    """The jobs that check test t: a list of functions that return lists of (check name, reasons)."""
    if t.problems:
        return [lambda: [(t.rel, ["bad test file: " + "; ".join(t.problems)])]]
    if opts.jdk_only:
        return [lambda: run_test(t, opts)] if t.jdk_eligible() else []
    if t.races:
        jobs = [lambda s=s: run_races(t, opts, s) for s in ("native", "random")]
        jobs.append(lambda: run_predict(t, opts))
        if t.race_label == "norace":
            jobs += [lambda d=d: run_imprecise(t, opts, d) for d in ("eraser", "hybrid")]
    elif not t.threads:
        jobs = [lambda: run_test(t, opts)]
    else:
        jobs = [lambda s=s: run_scheduler(t, opts, s) for s in SCHEDULERS]
        jobs.append(lambda: run_replay(t, opts))
        jobs.append(lambda: run_determinism(t, opts))
        jobs.append(lambda: run_precision(t, opts))
    if t.trace:
        jobs.append(lambda: run_trace(t, opts))
    if t.threads and opts.use_jdk and t.jdk_eligible():
        jobs.append(lambda: run_java_check(t, opts))
    return jobs


def run_unit(path, opts):
    rc, out, err, to = run_process([path], opts.timeout)
    name = "unit: " + path
    if to:
        return [(name, ["timed out after %gs" % opts.timeout])]
    if rc != 0:
        output = (decode(out) + decode(err)).strip()
        return [(name, [describe_status(rc) + ("\n" + tail(output) if output else "")])]
    return [(name, [])]


def main():
    ap = argparse.ArgumentParser(description="Runs drvm's tests (see the module docstring).")
    ap.add_argument("paths", nargs="*", help="test files or directories (default: tests/lang)")
    ap.add_argument("--drvm", default=os.path.join(ROOT, "drvm"), help="the drvm binary (default: ./drvm)")
    g = ap.add_mutually_exclusive_group()
    g.add_argument("--jdk", dest="jdk", action="store_true", default=None,
                   help="cross-check with the JDK (default when java is on PATH)")
    g.add_argument("--no-jdk", dest="jdk", action="store_false", help="no JDK cross-check")
    g.add_argument("--jdk-only", action="store_true",
                   help="run only java, checking it against the expectations")
    ap.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1, help="parallel jobs")
    ap.add_argument("--timeout", type=float, default=30.0, help="seconds per drvm run (default 30)")
    ap.add_argument("--filter", default=None, help="only tests whose path contains SUBSTR")
    ap.add_argument("--exclude", action="append", default=[], metavar="SUBSTR",
                    help="leave out tests whose path contains SUBSTR (repeatable)")
    ap.add_argument("--seeds", type=int, default=None, metavar="N",
                    help="thread tests: run seeds 1..N (overrides '// seeds:')")
    ap.add_argument("--unit", action="append", default=[], metavar="BIN", help="also run a unit-test binary")
    ap.add_argument("-v", "--verbose", action="store_true", help="print passing checks too")
    opts = ap.parse_args()

    paths = opts.paths
    if not paths:
        paths = [os.path.relpath(os.path.join(ROOT, "tests", "lang"))]
    files = discover(paths)
    if opts.filter:
        files = [f for f in files if opts.filter in f]
    files = [f for f in files if not any(x in f for x in opts.exclude)]
    tests = [parse_test(f) for f in files]
    if opts.seeds is not None:
        if opts.seeds < 1:
            print("runner: --seeds must be at least 1", file=sys.stderr)
            return 2
        for t in tests:
            t.seeds = opts.seeds
    units = [] if opts.jdk_only else opts.unit
    if opts.filter:
        units = [u for u in units if opts.filter in u]
    if not tests and not units:
        print("runner: no tests found in %s" % " ".join(paths), file=sys.stderr)
        return 2

    opts.java = shutil.which("java")
    if opts.jdk_only:
        if not opts.java:
            print("runner: --jdk-only needs java on PATH", file=sys.stderr)
            return 2
        opts.use_jdk = True
    else:
        if tests and not (os.path.isfile(opts.drvm) and os.access(opts.drvm, os.X_OK)):
            print("runner: drvm binary not found: %s (build it with make, or pass --drvm)" % opts.drvm,
                  file=sys.stderr)
            return 2
        if opts.jdk is None:
            opts.use_jdk = opts.java is not None
            if not opts.java:
                print("jdk cross-check skipped: no java on PATH")
        elif opts.jdk:
            opts.use_jdk = opts.java is not None
            if not opts.java:
                print("jdk cross-check skipped: no java on PATH")
        else:
            opts.use_jdk = False

    opts.drvm_shown = opts.drvm
    opts.rates = []
    if os.path.isabs(opts.drvm):
        rel = os.path.relpath(opts.drvm)
        if not rel.startswith(".."):
            opts.drvm_shown = rel if os.sep in rel else os.path.join(".", rel)

    passed = failed = 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, opts.jobs)) as ex:
        futures = [ex.submit(run_unit, u, opts) for u in units]
        futures += [ex.submit(job) for t in tests for job in plan(t, opts)]
        for fut in futures:  # in submission (sorted) order: deterministic output
            for name, reasons in fut.result():
                if reasons:
                    failed += 1
                    print("FAIL %s: %s" % (name, "\n  ".join(reasons)), flush=True)
                else:
                    passed += 1
                    if opts.verbose:
                        print("ok   %s" % name, flush=True)
    if opts.rates:
        print("race-hidden detection rates (runs with a race / seeds; per location):")
        for rel, sched, racy, n, per_loc in sorted(opts.rates):
            print("  %-46s %-6s %3d/%-3d %s" % (rel, sched, racy, n,
                                                "  ".join("%s %d" % (loc, k) for loc, k in per_loc.items())))
    print("%d passed, %d failed" % (passed, failed))
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""drvm's test runner (Python 3 standard library only).

    python3 tests/runner.py [--drvm ./drvm] [--jdk | --no-jdk | --jdk-only]
                            [-j N] [--timeout S] [--filter SUBSTR] [-v]
                            [--unit BIN ...] [paths...]

Runs every tests/**/*.dl program (default path: tests/lang) with
`drvm run FILE -- ARGS` and checks it against expectations written as
comments in the program itself:

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

JDK cross-check (--jdk, on by default when `java` is on PATH): every test
without `expect error`, without `no-jdk` and without `native` methods is
also run as `java -ea COPY.java ARGS`; its stdout and exit status must be
identical to drvm's.  That is reported as a separate check, `FILE [jdk]`.
--jdk-only runs only the JDK side and checks it against the expectations
(to validate the suite itself without drvm).

--unit BIN (repeatable) also runs a C unit-test binary; it passes iff it
exits with status 0.

The last line printed is `N passed, N failed`; the exit status is 0 iff
nothing failed (2 if no test was found or the command line is bad).
"""

import argparse
import concurrent.futures
import difflib
import os
import re
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
RE_DIRECTIVE = re.compile(r"//\s*(expect\b[^:]*|args|no-jdk|drvm):")
KNOWN_DIRECTIVES = {"expect", "expect error", "expect runtime error", "expect exit", "expect stderr", "args", "no-jdk",
                    "drvm"}

EXIT_COMPILE_ERROR = 3
EXIT_UNCAUGHT = 1


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
        return not self.errors and not self.no_jdk and not self.native


def strip_comments_and_strings(text):
    """The source with comments, string and char literals blanked out."""
    return re.sub(r'//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'',
                  " ", text, flags=re.S)


def parse_test(path):
    t = Test(path)
    with open(path, encoding="utf-8", errors="surrogateescape") as f:
        text = f.read()
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
                t.errors.append((int(m.group(1)), m.group(2)))
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
    t.native = re.search(r"\bnative\b", strip_comments_and_strings(text)) is not None
    if t.errors and t.runtime is not None:
        t.problems.append("both 'expect error' and 'expect runtime error'")
    return t


def discover(paths):
    files = []
    for p in paths:
        if os.path.isdir(p):
            for dirpath, dirnames, filenames in os.walk(p):
                dirnames.sort()
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


def check_output(t, who, rc, out, err, timed_out, timeout):
    """Checks one run against t's expectations; returns a list of failure reasons."""
    errtext = decode(err)
    if timed_out:
        return ["%s timed out after %gs" % (who, timeout) + ("\n  stderr:\n" + tail(errtext) if errtext.strip() else "")]
    if rc is None or rc < 0:
        return ["%s %s\n  stderr:\n%s" % (who, describe_status(rc), tail(errtext))]
    reasons = []
    if rc != t.status:
        reasons.append("%s %s, expected %d" % (who, describe_status(rc), t.status))
    if t.errors:
        elines = errtext.split("\n")
        for line, msg in t.errors:
            pat = re.compile(r":%d:\d+: error: .*%s" % (line, re.escape(msg)))
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
    got = stdout_lines(out)
    if got != t.expect:
        diff = difflib.unified_diff(t.expect, got, "expected stdout", who + " stdout", lineterm="", n=2)
        lines = list(diff)
        if len(lines) > 60:
            lines = lines[:60] + ["... (%d more diff lines)" % (len(lines) - 60)]
        reasons.append("stdout differs:\n" + "\n".join("    " + l for l in lines))
    if reasons and errtext.strip():
        reasons.append("stderr:\n" + tail(errtext))
    return reasons


def run_drvm(t, opts):
    cmd = [opts.drvm, "run"] + t.drvm_opts + [t.path, "--"] + t.args
    rc, out, err, timed_out = run_process(cmd, opts.timeout)
    return (rc, out, err, timed_out)


def run_java(t, opts):
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
    ap.add_argument("--unit", action="append", default=[], metavar="BIN", help="also run a unit-test binary")
    ap.add_argument("-v", "--verbose", action="store_true", help="print passing checks too")
    opts = ap.parse_args()

    paths = opts.paths
    if not paths:
        paths = [os.path.relpath(os.path.join(ROOT, "tests", "lang"))]
    files = discover(paths)
    if opts.filter:
        files = [f for f in files if opts.filter in f]
    tests = [parse_test(f) for f in files]
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

    passed = failed = 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, opts.jobs)) as ex:
        futures = [ex.submit(run_unit, u, opts) for u in units]
        futures += [ex.submit(run_test, t, opts) for t in tests]
        for fut in futures:  # in submission (sorted) order: deterministic output
            for name, reasons in fut.result():
                if reasons:
                    failed += 1
                    print("FAIL %s: %s" % (name, "\n  ".join(reasons)), flush=True)
                else:
                    passed += 1
                    if opts.verbose:
                        print("ok   %s" % name, flush=True)
    print("%d passed, %d failed" % (passed, failed))
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())

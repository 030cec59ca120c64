#!/usr/bin/env python3
"""Scripted `drvm repl` sessions and their expected transcripts.

    python3 tests/repl/run.py [--drvm PATH] [--update | --print] [-v] [--timeout S] [NAME...]

Each test is tests/repl/NAME.cmds, the commands a person would type, and
NAME.out, the transcript it must give.  The .cmds file starts with a
header comment that says how to start the session:

    # drvm repl --seed 1 lost.dl [-- program args]

and may go on with more header comments (`#` lines) before the first
command.  Two of them run drvm before or after the session, in the same
directory, and add that run to the transcript:

    # before: drvm run --sched random --seed 4 --record w.rec lost.dl
    # after: drvm run --replay saved.rec lost.dl

A setup line runs drvm before the session and adds only its exit status
to the transcript (for a command whose output varies, as `drvm hunt`'s
timings do):

    # setup: drvm hunt repl_hidden.dl --runs 1 --techniques drfinder --phase1 collect --seed 1 --dir h

A third runs drvm after the session too, and requires its standard output
to be the program output the session showed (its "| " lines), whatever
the .out says: a recording saved by the REPL must replay to the same
output.

    # same-output: drvm run --replay saved.rec lost.dl

The runner runs `drvm repl --script NAME.cmds <options> <program>` (with
no --script of its own when the header names one, for the command line's
errors), standard input closed, in a fresh directory where the programs
of tests/repl (*.dl) and the repository's lang-examples/ are reachable by
the names the header uses: "lost.dl" is tests/repl/lost.dl, and
"lang-examples/x.dl" the repository's.  Files a session writes (save
FILE) land in that directory and go away with it.

The transcript is the REPL's standard output (script mode: each command
echoed as "> cmd", no prompts, no colours), then its standard error if
there is any, then its exit status:

    --- stderr
    ...
    --- exit 0

A timing such as "(back took 1.25 ms)" is written "(back took N ms)".
--update rewrites the .out files from what drvm prints now: read every
changed transcript before committing it (git diff tests/repl).  --print
prints the transcripts and compares nothing (a start for a KNOWN_WRONG
session's .out, to correct by hand).

KNOWN_WRONG lists the sessions whose .out holds what the REPL *should*
print and does not yet, with the reason: they run, their failure is
reported (-v: with the diff) but does not fail the suite, --update leaves
them alone, and one that passes says so (take it off the list).

Prints one line per failure with a diff, then "N passed, M failed";
exits 1 if any failed.  Python 3 standard library only.
"""
import argparse
import difflib
import glob
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

# name -> why its .out is not what the REPL prints today (see the .cmds
# file's header for the details).
KNOWN_WRONG = {}

TIMING = re.compile(r"\((\S+) took [0-9.]+ ms\)")


def parse_header(path):
    """The session's drvm repl arguments and its before/after commands."""
    with open(path) as f:
        lines = f.read().split("\n")
    # a challenge is a REPL session too: '# drvm challenge PROGRAM'
    m = re.match(r"# drvm (repl|challenge)\b", lines[0]) if lines else None
    if not m:
        raise ValueError("%s: the first line must be '# drvm repl [options] PROGRAM'" % path)
    args = shlex.split(lines[0][m.end():])
    if m.group(1) == "challenge":
        args = ["--challenge"] + args
    before, after = [], []
    for line in lines[1:]:
        if not line.startswith("#"):
            break
        body = line[1:].strip()
        for key, into, same in (("before:", before, False), ("setup:", before, True), ("after:", after, False),
                                ("same-output:", after, True)):
            if body.startswith(key):
                cmd = shlex.split(body[len(key):])
                if not cmd or cmd[0] != "drvm":
                    raise ValueError("%s: '%s' must run drvm" % (path, line))
                into.append((cmd[1:], same))
    return args, before, after


def stage(tmp):
    """The programs by the names the headers use."""
    for f in glob.glob(os.path.join(HERE, "*.dl")):
        os.symlink(f, os.path.join(tmp, os.path.basename(f)))
    os.symlink(os.path.join(ROOT, "lang-examples"), os.path.join(tmp, "lang-examples"))


def transcript(p, out, err):
    text = TIMING.sub(r"(\1 took N ms)", out)
    if text and not text.endswith("\n"):
        text += "\n"
    if err:
        text += "--- stderr\n" + err + ("" if err.endswith("\n") else "\n")
    return text + "--- exit %d\n" % p.returncode


def run_drvm(drvm, args, cwd, timeout):
    """The transcript of one drvm run, and its standard output alone."""
    env = dict(os.environ, NO_COLOR="1", TERM="dumb")
    try:
        p = subprocess.run([drvm] + args, cwd=cwd, stdin=subprocess.DEVNULL, capture_output=True,
                           env=env, timeout=timeout)
    except subprocess.TimeoutExpired as e:
        out = (e.stdout or b"").decode("utf-8", "replace")
        return out + "--- timed out after %ss\n" % timeout, out
    out = p.stdout.decode("utf-8", "replace")
    return transcript(p, out, p.stderr.decode("utf-8", "replace")), out


def run_test(drvm, name, timeout):
    """The session's transcript, and what is wrong whatever the .out says."""
    cmds = os.path.join(HERE, name + ".cmds")
    args, before, after = parse_header(cmds)
    tmp = tempfile.mkdtemp(prefix="drvm-repl-test-")
    problems = []
    try:
        stage(tmp)
        text = ""
        for b, quiet in before:
            text += "$ drvm %s\n" % " ".join(shlex.quote(a) for a in b)
            t = run_drvm(drvm, b, tmp, timeout)[0]
            text += t[t.rindex("--- exit"):] if quiet else t
        cmd = "repl"
        if args[:1] == ["--challenge"]:
            cmd, args = "challenge", args[1:]
        repl = [cmd] + ([] if "--script" in args else ["--script", cmds]) + args
        if before or after:
            text += "$ drvm %s %s\n" % (cmd, " ".join(shlex.quote(a) for a in args))
        session, out = run_drvm(drvm, repl, tmp, timeout)
        text += session
        shown = "".join(line[2:] + "\n" for line in out.split("\n") if line.startswith("| "))
        for a, same in after:
            cmd = "drvm %s" % " ".join(shlex.quote(x) for x in a)
            t, o = run_drvm(drvm, a, tmp, timeout)
            text += "$ %s\n" % cmd + t
            if same and o != shown:
                problems.append("%s prints %r; the session showed %r" % (cmd, o, shown))
        return text, problems
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--drvm", default=os.path.join(ROOT, "drvm"))
    ap.add_argument("--update", action="store_true", help="rewrite the .out files (not KNOWN_WRONG's)")
    ap.add_argument("--print", action="store_true", dest="show",
                    help="print the transcripts drvm gives now, compare nothing")
    ap.add_argument("-v", "--verbose", action="store_true", help="show the diffs of KNOWN_WRONG sessions too")
    ap.add_argument("--timeout", type=float, default=30, help="seconds per drvm run (default 30)")
    ap.add_argument("names", nargs="*", help="sessions to run (default: every NAME.cmds)")
    o = ap.parse_args()
    drvm = os.path.abspath(o.drvm)
    if not os.access(drvm, os.X_OK):
        sys.exit("run.py: no drvm at %s (make drvm)" % drvm)
    names = o.names or sorted(os.path.basename(p)[:-5] for p in glob.glob(os.path.join(HERE, "*.cmds")))
    for n in KNOWN_WRONG if not o.names else ():
        if not os.path.exists(os.path.join(HERE, n + ".cmds")):
            sys.exit("run.py: KNOWN_WRONG names %s, which has no %s.cmds" % (n, n))
    passed = failed = known = 0
    start = time.time()
    if o.show:
        for name in names:
            sys.stdout.write(run_test(drvm, name, o.timeout)[0])
        return
    for name in names:
        if not os.path.exists(os.path.join(HERE, name + ".cmds")):
            print("FAIL %s: no %s.cmds" % (name, name))
            failed += 1
            continue
        try:
            got, problems = run_test(drvm, name, o.timeout)
        except ValueError as e:
            print("FAIL %s: %s" % (name, e))
            failed += 1
            continue
        if problems and name not in KNOWN_WRONG:
            print("FAIL %s: %s" % (name, "; ".join(problems)))
            failed += 1
            continue
        out_path = os.path.join(HERE, name + ".out")
        want = open(out_path).read() if os.path.exists(out_path) else None
        if o.update and name not in KNOWN_WRONG:
            if got != want:
                with open(out_path, "w") as f:
                    f.write(got)
                print("updated %s.out" % name)
            passed += 1
            continue
        if got == want:
            if name in KNOWN_WRONG:
                print("NOW RIGHT %s: it passes; take it off KNOWN_WRONG in run.py" % name)
            passed += 1
            continue
        diff = "".join(difflib.unified_diff((want or "").splitlines(True), got.splitlines(True),
                                            name + ".out (expected)", name + " (drvm printed)"))
        if name in KNOWN_WRONG:
            known += 1
            print("known wrong %s: %s%s" % (name, KNOWN_WRONG[name], ("\n" + diff) if o.verbose else ""))
            continue
        failed += 1
        print("FAIL %s%s\n%s" % (name, "" if want is not None else " (no .out: --update writes it)", diff))
    print("repl sessions: %d passed, %d failed, %d known wrong (%.1f s)" % (passed, failed, known,
                                                                          time.time() - start))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()

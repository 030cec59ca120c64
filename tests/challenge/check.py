#!/usr/bin/env python3
"""Checks of the concurrency challenges (Python 3 standard library only).

    python3 tests/challenge/check.py [DRVM]      (default ./drvm)

1. Every lang-examples/challenges/NAME.dl has a goal, a hint and its
   solution NAME.sched; `drvm grade NAME.dl NAME.sched` passes (exit 0,
   "PASS: ..."), and so does its --json (one object, pass true).
2. A wrong schedule fails with a reason: the recording of a plain
   `drvm run --record` (the first of seeds 1..30 whose run does not reach
   the goal: a challenge that every plain run solves is an error) makes
   grade exit 1 with "FAIL: <reason>".
3. `drvm explore --json` on each finds the goal reachable within its
   limit, and its witness passes grade with the preemptions and
   decisions explore reported (grade counts preemptions as explore does).
4. The README lists every challenge.
5. Errors: every tests/challenge/bad/*.dl (a malformed goal comment)
   makes grade, challenge and explore exit 3 with the message its
   `// expect:` line gives; a program without a goal, a missing or
   malformed recording, a missing recording argument exit 2; a schedule
   over the limit, one that does not fit, one that stops early fail.

Prints one line per failure and "N passed, M failed"; exits 1 on failure.
"""
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
DRVM = os.path.abspath(sys.argv[1]) if len(sys.argv) > 1 else os.path.join(ROOT, "drvm")
CH = os.path.join(ROOT, "lang-examples", "challenges")
TMP = tempfile.mkdtemp(prefix="drvm-challenge-check-")
passed = failed = 0


def check(name, ok, detail=""):
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
        print("FAIL %s%s" % (name, (": " + detail) if detail else ""), flush=True)
    return ok


def drvm(*args):
    p = subprocess.run([DRVM] + list(args), cwd=TMP, capture_output=True, text=True, timeout=60,
                       stdin=subprocess.DEVNULL)
    return p.returncode, p.stdout, p.stderr


def grade_json(prog, sched):
    st, out, err = drvm("grade", "--json", prog, sched)
    try:
        return st, json.loads(out)
    except ValueError:
        return st, {"error": out + err}


def wrong_schedule(name, prog):
    """A plain run's recording that does not reach the goal, or None."""
    for seed in range(1, 31):
        rec = os.path.join(TMP, "%s-plain-%d.rec" % (name, seed))
        drvm("run", "--seed", str(seed), "--record", rec, prog)
        st, out, _ = drvm("grade", prog, rec)
        if st == 1:
            return rec, out
    return None, None


def check_challenge(prog):
    name = os.path.basename(prog)[:-3]
    text = open(prog).read()
    check(name + " has a goal", re.search(r"^// goal: ", text, re.M) is not None)
    check(name + " has a hint", re.search(r"^// hint: ", text, re.M) is not None)
    sched = prog[:-3] + ".sched"
    if not check(name + " has its solution", os.path.exists(sched), sched):
        return
    st, out, err = drvm("grade", prog, sched)
    check(name + ": its solution passes", st == 0 and out.startswith("PASS: "), "exit %d: %s%s" % (st, out, err))
    st, j = grade_json(prog, sched)
    check(name + ": grade --json passes", st == 0 and j.get("pass") is True and j.get("reached") is True, str(j))
    rec, out = wrong_schedule(name, prog)
    if check(name + ": some plain run does not reach the goal", rec is not None):
        check(name + ": a wrong schedule fails with a reason", re.match(r"FAIL: \S.*\S", out or "") is not None, out)
    jpath = os.path.join(TMP, name + ".json")
    st, out, err = drvm("explore", "--json", jpath, "--witnesses", os.path.join(TMP, name + ".explore"), prog)
    try:
        goal = json.load(open(jpath)).get("goal") or {}
    except (OSError, ValueError):
        goal = {}
    if check(name + ": explore finds the goal reachable", goal.get("reachable") is True, str(goal) + err):
        check(name + ": explore's text says so", "REACHABLE: the shortest solution" in out, out[-300:])
        st, g = grade_json(prog, goal["witness"])
        check(name + ": explore's witness passes grade, same length",
              st == 0 and g.get("preemptions") == goal["preemptions"], "grade %s, explore %s" % (g, goal))
    return name


def check_errors():
    for bad in sorted(glob.glob(os.path.join(HERE, "bad", "*.dl"))):
        name = os.path.basename(bad)
        want = re.search(r"^// expect: (.*)$", open(bad).read(), re.M).group(1)
        shutil.copy(bad, os.path.join(TMP, name))
        for cmd in (["grade", name, "x.sched"], ["challenge", name], ["explore", name]):
            st, out, err = drvm(*cmd)
            check("%s %s exits 3 with its message" % (cmd[0], name), st == 3 and want in err,
                  "exit %d: %s" % (st, err))
    lost = os.path.join(ROOT, "lang-examples", "repl_lostupdate.dl")
    two = os.path.join(CH, "TwoLocks.dl")
    cases = [
        ("a program without a goal", ["grade", lost, os.path.join(CH, "TwoLocks.sched")], 2, "has no goal"),
        ("challenge without a goal", ["challenge", lost], 2, "has no goal"),
        ("a missing recording", ["grade", two, "nowhere.sched"], 2, "nowhere.sched"),
        ("no recording argument", ["grade", two], 2, "needs the student's recording"),
        ("a malformed recording", ["grade", two, two], 2, ""),
        ("a missing program", ["grade", "nowhere.dl", "x.sched"], 2, "nowhere.dl"),
    ]
    for what, cmd, want_st, want in cases:
        st, out, err = drvm(*cmd)
        check("grade: %s exits %d" % (what, want_st), st == want_st and want in err, "exit %d: %s%s" % (st, out, err))
    # a solution of 2 preemptions against a limit of 1: fails, says why
    three = os.path.join(TMP, "TwoLocksTight.dl")
    with open(three, "w") as f:
        f.write(open(os.path.join(CH, "FlagLock.dl")).read().replace("max-preemptions: 2", "max-preemptions: 1"))
    st, out, _ = drvm("grade", three, os.path.join(CH, "FlagLock.sched"))
    check("grade: over the limit fails", st == 1 and out == "FAIL: assertion fails reached, but with 2 preemptions: "
          "the limit is 1\n", out)
    # another challenge's solution does not fit
    st, out, _ = drvm("grade", two, os.path.join(CH, "VolatileCounter.sched"))
    check("grade: a schedule of another program fails", st == 1 and "does not fit the program" in out, out)
    # a solution cut short stops before the goal
    short = os.path.join(TMP, "short.sched")
    lines = open(os.path.join(CH, "TwoLocks.sched")).read().split("\n")
    d = lines.index("decisions")
    with open(short, "w") as f:
        f.write("\n".join(lines[:d + 1] + [" ".join(lines[d + 1].split()[:3]), "end", ""]))
    st, out, _ = drvm("grade", two, short)
    check("grade: a schedule that stops early fails", st == 1 and "before the goal (deadlock) is reached" in out, out)


def check_readme(names):
    readme = open(os.path.join(CH, "README.md")).read()
    for n in names:
        check("README lists %s" % n, "%s.dl" % n in readme)


def main():
    if not os.access(DRVM, os.X_OK):
        sys.exit("check.py: no drvm at %s" % DRVM)
    progs = sorted(glob.glob(os.path.join(CH, "*.dl")))
    check("at least 12 challenges", len(progs) >= 12, str(len(progs)))
    names = [check_challenge(p) for p in progs]
    check_readme([n for n in names if n])
    check_errors()
    print("challenges: %d passed, %d failed" % (passed, failed))
    if failed:
        print("(files kept in %s)" % TMP)
        sys.exit(1)
    shutil.rmtree(TMP, ignore_errors=True)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""RaceFuzzer's checks (Python 3 standard library only).

    python3 tests/racefuzzer/check.py [DRVM]      (default ./drvm)

Phase 1 (`drvm run --detector hybrid --potential-races FILE`) then phase 2
(`drvm run --sched racefuzzer --race-pairs FILE [--pair N] --seed K`) on
several programs, checking that

  - racy programs get a real race ("real race: ..." on stderr) that
    FastTrack reports (exit status 66), in (nearly) every run;
  - race-free programs never do, even when hybrid listed false pairs for
    them, and even when every access of the program is in RaceSet (a
    pairs file made from `drvm disasm`: the most postponing there is);
  - programs with locks, wait/notify, joins, sleeps, interrupts and
    deadlocks all finish under that most-postponing RaceSet (no hang, no
    panic);
  - a race that leads to an uncaught exception is called harmful, with
    the command that reruns it;
  - bad inputs are usage errors (exit status 2) with a message;
  - the same seed gives the same run, and --record/--replay reproduces it;
  - --sched-report's JSON is well formed and lists the real races.

Prints "N passed, M failed" and exits non-zero on a failure.
"""
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
DRVM = os.path.abspath(sys.argv[1]) if len(sys.argv) > 1 else os.path.join(ROOT, "drvm")
TMP = tempfile.mkdtemp(prefix="drvm-racefuzzer-")
TIMEOUT = 300
MAX_STEPS = ["--max-steps", "50000000"]

SANITIZER_WORDS = ("AddressSanitizer", "LeakSanitizer", "runtime error:", "UndefinedBehaviorSanitizer")
passed = 0
failed = 0


def check(name, ok, detail=""):
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
        print("FAIL %s%s" % (name, (": " + detail) if detail else ""), flush=True)


def path(rel):
    return os.path.join(ROOT, rel)


def file_options(prog):
    """A test program's `// drvm:` options and `// args:`."""
    src = open(prog).read()
    d = re.search(r"^\s*// drvm:(.*)$", src, re.M)
    a = re.search(r"^\s*// args:(.*)$", src, re.M)
    opts, words = [], d.group(1).split() if d else []
    while words:  # another scheduler's options go: this is racefuzzer's run
        w = words.pop(0)
        if w in ("--sched", "--noise", "--depth", "--pct-steps", "--quantum", "--seed"):
            words = words[1:]
        else:
            opts.append(w)
    return opts, (a.group(1).split() if a else [])


def run(args, prog=None, timeout=TIMEOUT):
    """(status, stdout, stderr); status 'timeout' if it did not finish."""
    cmd = [DRVM, "run"] + args
    if prog:
        opts, pargs = file_options(prog)
        cmd += opts + [prog, "--"] + pargs
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, cwd=ROOT)
    except subprocess.TimeoutExpired:
        return "timeout", "", ""
    # under AddressSanitizer/UBSan (a build-asan drvm) any report fails
    if any(w in p.stderr for w in SANITIZER_WORDS):
        check("sanitizer-clean: " + " ".join(cmd[2:]), False, p.stderr[-2000:])
    return p.returncode, p.stdout, p.stderr


# The race pairs file (hybrid's --potential-races, racefuzzer's --race-pairs)
# is specified in vm/pairs.h, drvm's one reader and writer of it.  These
# three helpers are all this script knows of the format (the malformed
# files in usage_errors() break it on purpose).
def count_pairs(pairs_file):
    """The pair lines of a pairs file (not comments, not empty)."""
    with open(pairs_file) as f:
        return sum(1 for l in f if l.strip() and not l.startswith("#"))


def statement(method, pc, line):
    """A statement as pairs files name it: "Class.method(params) pc line"."""
    return "%s %s %d" % (method, pc, line)


def write_pairs(pairs_file, comment, pairs):
    """Writes (location, statement, statement) triples after a comment line."""
    with open(pairs_file, "w") as f:
        f.write("# %s\n" % comment)
        for p in pairs:
            f.write("\t".join(p) + "\n")


def phase1(prog):
    """Hybrid's potential races of prog: (pairs file, number of pairs)."""
    out = os.path.join(TMP, os.path.basename(prog) + ".pairs")
    run(["--detector", "hybrid", "--sched", "random", "--seed", "3", "--potential-races", out] + MAX_STEPS, prog)
    if not os.path.exists(out):
        return out, 0
    return out, count_pairs(out)


ACCESS = re.compile(r"^\s+(\d+)\s+(GETFIELD|PUTFIELD|GETSTATIC|PUTSTATIC|ALOAD_\w|ASTORE_\w)(_V)?\b")


def all_accesses(prog):
    """A pairs file whose RaceSet (without --pair) is every field, static
    and array access of prog, made from `drvm disasm`."""
    p = subprocess.run([DRVM, "disasm", prog], capture_output=True, text=True, cwd=ROOT)
    stmts, method, line = [], None, -1
    for l in p.stdout.splitlines():
        if l and not l[0].isspace():
            method = None
            if not l.startswith("class ") and not l.startswith("interface ") and "(" in l:
                head = l[len("static "):] if l.startswith("static ") else l
                method = head.split("  (")[0]
        elif l.startswith("  line "):
            line = int(l.split()[1])
        elif method:
            m = ACCESS.match(l)
            if m:
                stmts.append(statement(method, m.group(1), line))
    out = os.path.join(TMP, os.path.basename(prog) + ".all")
    write_pairs(out, "every access of %s" % prog, [("all", a, b) for a, b in zip(stmts, stmts[1:] + stmts[:1])])
    return out, len(stmts)


def fuzz(pairs, prog, seed, pair=None, extra=()):
    args = ["--sched", "racefuzzer", "--race-pairs", pairs, "--seed", str(seed)] + MAX_STEPS + list(extra)
    if pair:
        args += ["--pair", str(pair)]
    return run(args, prog)


def finished(rc, err):
    return rc != "timeout" and rc != 2 and rc >= 0 and "panic" not in err and "picked a thread" not in err


def racy(prog, seeds, need, pair=None):
    """Phase 1 then phase 2: a real race created and reported (66) in at
    least `need` of the seeds."""
    name = os.path.relpath(prog, ROOT)
    pairs, n = phase1(prog)
    check(name + " [phase 1 lists pairs]", n > 0, "hybrid wrote no pair")
    if n == 0:
        return
    created = 0
    for s in seeds:
        rc, _, err = fuzz(pairs, prog, s, pair)
        check("%s [seed %d finishes]" % (name, s), finished(rc, err), "status %s" % rc)
        created += "real race: " in err and rc == 66
    check("%s [real race in %d/%d seeds]" % (name, created, len(seeds)), created >= need, "need %d" % need)
    print("  %-52s real races created and reported in %d/%d seeds" % (name, created, len(seeds)), flush=True)


def race_free(prog, seeds):
    """Never a real race, nothing for FastTrack: with hybrid's pairs (one
    by one and all at once) and with every access in RaceSet."""
    name = os.path.relpath(prog, ROOT)
    runs = []
    pairs, n = phase1(prog)
    for p in range(1, n + 1):
        runs += [(pairs, p, s) for s in seeds[:3]]
    if n:
        runs += [(pairs, None, s) for s in seeds]
    every, na = all_accesses(prog)
    if na:
        runs += [(every, None, s) for s in seeds]
    bad = []
    for pf, p, s in runs:
        rc, _, err = fuzz(pf, prog, s, p)
        if rc != 0 or "real race" in err:
            bad.append("%s pair %s seed %d: status %s %s" % (os.path.basename(pf), p, s, rc, err[:200]))
    check(name + " [no real race, no race reported]", not bad, "; ".join(bad[:2]))


def finishes(prog, seeds):
    """Finishes (whatever its status) with every access in RaceSet."""
    name = os.path.relpath(prog, ROOT)
    every, na = all_accesses(prog)
    if not na:
        return
    for s in seeds:
        rc, _, err = fuzz(every, prog, s)
        check("%s [all accesses, seed %d finishes]" % (name, s), finished(rc, err), "status %s %s" % (rc, err[-300:]))


def usage_errors():
    prog = path("lang-examples/lostupdate.dl")
    good, n = phase1(prog)
    bad_line = os.path.join(TMP, "bad_line.pairs")
    with open(bad_line, "w") as f:
        f.write("# comment\nLostUpdate.count\tLostUpdate$RacyAdder.run() 13 50\n")
    no_method = os.path.join(TMP, "no_method.pairs")
    with open(no_method, "w") as f:
        f.write("# comment\nX.y\tNoSuch.run() 13 50\tLostUpdate$RacyAdder.run() 5 50\n")
    bad_pc = os.path.join(TMP, "bad_pc.pairs")
    with open(bad_pc, "w") as f:
        f.write("X.y\tLostUpdate$RacyAdder.run() 9999 50\tLostUpdate$RacyAdder.run() 5 50\n")
    empty = os.path.join(TMP, "empty.pairs")
    with open(empty, "w") as f:
        f.write("# drvm potential races (hybrid): none\n")
    cases = [
        ("missing file", ["--sched", "racefuzzer", "--race-pairs", os.path.join(TMP, "nope.txt")], "cannot read"),
        ("malformed line", ["--sched", "racefuzzer", "--race-pairs", bad_line], "bad_line.pairs:2: malformed line"),
        ("unknown method", ["--sched", "racefuzzer", "--race-pairs", no_method], "names no method"),
        ("pc beyond the code", ["--sched", "racefuzzer", "--race-pairs", bad_pc], "has no pc 9999"),
        ("empty file", ["--sched", "racefuzzer", "--race-pairs", empty], "no race pair"),
        ("--pair 99", ["--sched", "racefuzzer", "--race-pairs", good, "--pair", "99"], "--pair 99"),
        ("no --race-pairs", ["--sched", "racefuzzer"], "--potential-races"),
    ]
    for what, args, msg in cases:
        rc, _, err = run(args + ["--seed", "1"], prog)
        check("usage error: " + what, rc == 2 and msg in err, "status %s, stderr %r" % (rc, err[:300]))


def determinism_and_replay():
    prog = path("lang-examples/lostupdate.dl")
    pairs, _ = phase1(prog)
    for s in (1, 2, 3):
        a = fuzz(pairs, prog, s, 1)
        b = fuzz(pairs, prog, s, 1)
        check("same seed %d, same run" % s, a == b)
        rec = os.path.join(TMP, "rec%d.txt" % s)
        rc, out, err = fuzz(pairs, prog, s, 1, ["--record", rec])
        rrc, rout, rerr = run(["--replay", rec], prog)
        races = sorted(l for l in err.splitlines() if l.startswith("SUMMARY:"))
        rraces = sorted(l for l in rerr.splitlines() if l.startswith("SUMMARY:"))
        check("seed %d --record/--replay: same output and races" % s,
              rc == rrc == 66 and out == rout and races == rraces and races,
              "status %s/%s, races %s / %s" % (rc, rrc, races, rraces))
    # the other union-mode program too
    prog = path("tests/races/hidden_several_fields.dl")
    pairs, _ = phase1(prog)
    rec = os.path.join(TMP, "rec_union.txt")
    rc, out, err = fuzz(pairs, prog, 5, None, ["--record", rec])
    rrc, rout, rerr = run(["--replay", rec], prog)
    check("union mode --record/--replay",
          rc == rrc and out == rout and [l for l in err.splitlines() if "SUMMARY" in l] ==
          [l for l in rerr.splitlines() if "SUMMARY" in l])
    # --replay-prefix: racefuzzer takes over after a recorded prefix, with its pairs
    prog = path("lang-examples/lostupdate.dl")
    pairs, _ = phase1(prog)
    rec = os.path.join(TMP, "prefix.txt")
    run(["--sched", "random", "--seed", "1", "--max-steps", "200", "--record", rec], prog)
    rc, _, err = run(["--replay-prefix", rec, "--sched", "racefuzzer", "--race-pairs", pairs, "--pair", "1",
                      "--seed", "4"], prog)
    check("--replay-prefix then racefuzzer creates the race", rc == 66 and "real race:" in err, err[-300:])
    rc, _, err = run(["--replay-prefix", rec, "--sched", "racefuzzer", "--race-pairs", os.path.join(TMP, "nope")],
                     prog)
    check("--replay-prefix then racefuzzer reads its pairs", rc == 2 and "cannot read" in err, err[-300:])


def sched_report():
    prog = path("lang-examples/lostupdate.dl")
    pairs, n = phase1(prog)
    rep = os.path.join(TMP, "report.json")
    rc, _, err = fuzz(pairs, prog, 1, 1, ["--sched-report", rep, "--stats"])
    try:
        j = json.load(open(rep))
    except (OSError, ValueError) as e:
        check("--sched-report is JSON", False, str(e))
        return
    ok = (j.get("scheduler") == "racefuzzer" and j.get("pair") == 1 and j.get("pairs") == n and
          j.get("postponements", 0) > 0 and j.get("real_races") and
          all(r["location"] == "LostUpdate.count" and r["times"] >= 1 and r["first"]["kind"] in ("read", "write")
              and r["first"]["position"] == "lostupdate.dl:50" for r in j["real_races"]))
    check("--sched-report lists the real races", ok, json.dumps(j)[:400])
    check("--stats shows racefuzzer's counts", "real races created" in err and "postponements" in err)


def harmful():
    prog = path("tests/racefuzzer/harmful_check_then_act.dl")
    pairs, n = phase1(prog)
    check("harmful: phase 1 lists pairs", n > 0)
    if not n:
        return
    hits = 0
    for s in range(1, 11):
        rc, _, err = fuzz(pairs, prog, s)
        if "racefuzzer: harmful race: CheckThenAct.name" in err:
            hits += 1
            line = [l for l in err.splitlines() if l.startswith("racefuzzer: harmful race:")][0]
            rerun = line.split("rerun with: ", 1)[-1].split()
            check("harmful race names its rerun (seed %d)" % s,
                  rerun[:2] == ["drvm", "run"] and "--sched racefuzzer --seed %d" % s in line
                  and "--race-pairs %s" % pairs in line and rerun[-1] == prog, line)
    check("harmful race found in %d/10 seeds" % hits, hits >= 3)
    print("  %-52s harmful in %d/10 seeds" % ("harmful_check_then_act.dl", hits), flush=True)
    # a run where the race does no harm says nothing of harm
    lost = path("lang-examples/lostupdate.dl")
    rc, _, err = fuzz(phase1(lost)[0], lost, 1, 1)
    check("no harm, no harmful line", "harmful" not in err)


def main():
    seeds = list(range(1, 21))
    racy(path("lang-examples/lostupdate.dl"), seeds, 19, pair=1)
    for prog in ["tests/races/always_two_writers.dl", "tests/races/always_array_same_index.dl",
                 "tests/races/always_readers_and_writer.dl", "tests/races/always_several_fields.dl",
                 "tests/races/hidden_lock_after_write.dl", "tests/races/hidden_several_fields.dl",
                 "tests/races/hidden_symmetric_workers.dl", "tests/races/hidden_sync_getter_once.dl",
                 "tests/races/hidden_two_sections_needed.dl", "tests/races/always_dcl_no_volatile.dl"]:
        racy(path(prog), seeds[:10], 9)
    norace = sorted(f for f in os.listdir(path("tests/races")) if f.startswith("norace_"))
    for f in norace:
        race_free(path("tests/races/" + f), seeds[:5])
    for f in sorted(os.listdir(path("tests/threads"))):
        if f.endswith(".dl"):
            finishes(path("tests/threads/" + f), seeds[:3])
    for f in ["philosophers.dl", "prodcons.dl", "pingpong.dl", "bank.dl"]:
        finishes(path("lang-examples/" + f), seeds[:3])
    usage_errors()
    determinism_and_replay()
    sched_report()
    harmful()
    print("%d passed, %d failed" % (passed, failed))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()

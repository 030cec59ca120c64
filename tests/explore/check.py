#!/usr/bin/env python3
"""Checks of `drvm explore` (Python 3 standard library only).

    python3 tests/explore/check.py [DRVM] [--quick]      (default ./drvm)

1. Every tests/explore/*.dl explored with optimal DPOR gives exactly the
   outcomes its header lists (`// outcome:` lines: the line printed, or
   `deadlock`) and its header's trace count; the search is complete and
   abandons nothing.  A header states the count as "Mazurkiewicz traces:
   N" or, for programs that can deadlock, "N complete ... + M
   deadlocked": the explorer counts every execution that ran to an end,
   a deadlock included, so it must report N + M traces.
2. Every outcome's witness, replayed (`drvm run --replay W prog.dl`),
   prints the outcome's stdout and exits as it does (4 for a deadlock, 0
   or 66 for a normal end); every race's witness replays to a race on
   its location.
3. Cross-checks (skipped by --quick): the Mazurkiewicz trace fingerprints
   of --por none (every interleaving) are exactly optimal's, optimal
   runs each once, source finds the same set; outcome and race sets
   agree between the three.
4. The DPOR benchmarks (bench/*.dl) at small N give their published
   trace counts (the `// traces: N:count` lines); --por none agrees on
   the smallest ones (skipped by --quick).
5. Bounds: --preemptions, --max-executions, --time and --max-steps cut
   the search and say so (JSON and text).
6. Errors and exit statuses; --spurious-wakeups.

Prints one line per failure ("FAIL ...") and "N passed, M failed"; exits
1 on a failure (keeping its files).  EXPLORE_CHECK_TIMES=1 prints how
long each `drvm explore` took.
"""
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
ARGS = [a for a in sys.argv[1:] if not a.startswith("--")]
QUICK = "--quick" in sys.argv[1:]
DRVM = os.path.abspath(ARGS[0]) if ARGS else os.path.join(ROOT, "drvm")
TMP = tempfile.mkdtemp(prefix="drvm-explore-check-")
TIMEOUT = 120

# --por none explores every interleaving: these programs have hundreds of
# thousands (several seconds each); their none runs are bounded by
# NONE_SAMPLE executions and only checked for inclusion.
NONE_TOO_BIG = {"buffer_if.dl", "buffer_while.dl", "philosophers3.dl", "classinit.dl"}
NONE_SAMPLE = 20000
# Programs where a thread may start a step that then waits for another
# thread's class initializer: --por none runs such a wait as a step of its
# own (a fingerprint optimal DPOR, which never schedules the futile wait,
# does not have); outcomes and races must still agree.
FP_VARIES = {"classinit.dl"}

# The benchmarks at small N (their published counts come from the files).
BENCH = [("lastzero", [2, 4, 5, 6, 8]), ("readers", [2, 4, 8]), ("indexer", [11, 12, 13]),
         ("filesystem", [12, 13, 14, 16]), ("fib_bench", [1, 2, 3])]
# --por none on the smallest of each: readers(2) and fib_bench(1) run to
# the end (~300,000 and ~110,000 interleavings); the others have millions
# (lastzero(2): 43 million) and long executions: that many are sampled.
BENCH_NONE_SAMPLE = {"readers": None, "fib_bench": None, "lastzero": 5000, "indexer": 300, "filesystem": 2000}

# `drvm explore --spurious-wakeups`: True once the explorer supports it
# (a waiting thread may wake by itself), False while it is a usage error.
SPURIOUS_SUPPORTED = True

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
    return ok


def rel(p):
    r = os.path.relpath(p, ROOT)
    return os.path.basename(p) if r.startswith("..") else r


def drvm(args, timeout=TIMEOUT, cwd=ROOT):
    """(status, stdout, stderr); status 'timeout' if it did not finish."""
    cmd = [DRVM] + args
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, cwd=cwd)
    except subprocess.TimeoutExpired:
        check("finishes: drvm " + " ".join(args), False, "timeout after %d s" % timeout)
        return "timeout", "", ""
    if any(w in p.stderr for w in SANITIZER_WORDS):
        check("sanitizer-clean: drvm " + " ".join(args), False, p.stderr[-2000:])
    return p.returncode, p.stdout, p.stderr


_serial = [0]


class Explored:
    """One `drvm explore` run with its JSON and fingerprints."""

    def __init__(self, prog, opts=(), args=(), timeout=TIMEOUT):
        _serial[0] += 1
        base = os.path.join(TMP, "%d-%s" % (_serial[0], os.path.basename(prog)[:-3]))
        self.prog, self.args = prog, list(args)
        self.wdir, self.json_path, self.fp_path = base + ".w", base + ".json", base + ".fp"
        self.cmd = (["explore"] + list(opts) + ["--witnesses", self.wdir, "--json", self.json_path,
                                                "--fingerprints", self.fp_path, prog] +
                    (["--"] + self.args if self.args else []))
        self.name = "drvm " + " ".join(["explore"] + list(opts) + [rel(prog)] + self.args)
        t0 = time.time()
        self.status, self.out, self.err = drvm(self.cmd, timeout)
        if os.environ.get("EXPLORE_CHECK_TIMES"):
            print("%6.2f s  %s" % (time.time() - t0, self.name))
        self.j, self.fps = None, []
        try:
            with open(self.json_path) as f:
                self.j = json.load(f)
        except (OSError, ValueError) as e:
            check(self.name + " [writes its JSON]", False, "%s; status %s; %s" % (e, self.status, self.err[-500:]))
        try:
            with open(self.fp_path) as f:
                self.fps = [l.strip() for l in f if l.strip()]
        except OSError:
            pass

    @property
    def ok(self):
        return self.j is not None

    def __getitem__(self, key):
        return self.j[key]

    def outcome_set(self):
        return {outcome_key(o) for o in self.j["outcomes"]}

    def race_set(self):
        return {r["location"] for r in self.j["races"]}


def outcome_key(o):
    """An outcome as the headers write it: the line printed, or deadlock;
    anything else (exception, step limit, exit status) stays distinct."""
    if o["outcome"] == "DEADLOCK":
        return "deadlock"
    if o["outcome"] in ("NORMAL", "EXIT") and o["exit_status"] == 0:
        return o["stdout"][:-1] if o["stdout"].endswith("\n") else o["stdout"]
    return "%s(%d): %r" % (o["outcome"], o["exit_status"], o["stdout"])


# ------------------------------------------------------------ headers

def header(path):
    """(outcome set, expected traces) from a program's header comment."""
    text = open(path).read()
    head = "\n".join(l[2:].strip() for l in text.splitlines() if l.startswith("//"))
    outcomes = set(re.findall(r"^outcome: (.*)$", head, re.M))
    m = re.search(r"Mazurkiewicz traces: (\d+)([^.]*)", head)
    traces = None
    if m:
        traces = int(m.group(1))
        d = re.search(r"\+\s*(\d+)\s+deadlocked", m.group(2))
        if d:  # "2 complete (...) + 1 deadlocked": every ending counts
            traces += int(d.group(1))
    return outcomes, traces


def published(path):
    """{N: count} from a benchmark's `// traces: N:count ...` line."""
    counts = {}
    for line in open(path):
        m = re.match(r"^// traces:((?:\s+\d+:\d+)+)\s*$", line)
        if m:
            for pair in m.group(1).split():
                n, c = pair.split(":")
                counts[int(n)] = int(c)
    return counts


# ------------------------------------------------------------ common checks

def check_consistent(x, por):
    """What every run's JSON, text and fingerprints must agree on."""
    j, name = x.j, x.name
    check(name + " [por]", j["por"] == por, repr(j["por"]))
    check(name + " [outcome counts sum to traces]", sum(o["count"] for o in j["outcomes"]) == j["traces"] + j["step_limited"],
          "%s vs %d + %d" % ([o["count"] for o in j["outcomes"]], j["traces"], j["step_limited"]))
    check(name + " [one fingerprint per execution not abandoned]", len(x.fps) == j["executions"] - j["blocked"] - j["bounded"],
          "%d lines, %d executions, %d abandoned, %d bounded" % (len(x.fps), j["executions"], j["blocked"], j["bounded"]))
    check(name + " [every outcome and race seen, at most once per execution]",
          all(1 <= o["count"] <= j["executions"] for o in j["outcomes"] + j["races"]))
    m = re.search(r"^\s*(\d+) executions?: (\d+) (?:traces?|interleavings?)", x.out, re.M)
    check(name + " [header line]", m and int(m.group(1)) == j["executions"] and int(m.group(2)) == j["traces"],
          x.out[:300])
    word = "complete:" if j["complete"] else "INCOMPLETE:"
    check(name + " [says %s]" % word, re.search(r"^\s*" + word, x.out, re.M) is not None, x.out[:300])
    for o in j["outcomes"] + j["races"]:
        w = o["witness"]
        line = re.search(r"witness: (\d+) preemptions?, (\d+) decisions?: drvm run --replay " + re.escape(w) + r" ", x.out)
        check(name + " [witness line for %s]" % os.path.basename(w),
              line and int(line.group(1)) == o["preemptions"] and int(line.group(2)) == o["decisions"], w)
        check(name + " [witness file %s]" % os.path.basename(w), os.path.isfile(w))


def replay(x, o):
    """drvm run --replay of an outcome's or a race's witness."""
    return drvm(["run", "--replay", o["witness"], x.prog] + (["--"] + x.args if x.args else []))


def check_witnesses(x):
    for o in x.j["outcomes"]:
        what = "%s [witness %s replays to %r]" % (x.name, os.path.basename(o["witness"]), outcome_key(o))
        st, out, err = replay(x, o)
        if o["outcome"] == "DEADLOCK":
            check(what, st == 4 and out == o["stdout"] and "deadlock" in err, "status %s, stdout %r" % (st, out))
        elif o["outcome"] == "NORMAL":
            check(what, st in (0, 66) and out == o["stdout"], "status %s, stdout %r, want %r" % (st, out, o["stdout"]))
        else:
            check(what, st == o["exit_status"] and out == o["stdout"], "status %s, stdout %r" % (st, out))
    for r in x.j["races"]:
        st, out, err = replay(x, r)
        check("%s [race witness %s replays to a race on %s]" % (x.name, os.path.basename(r["witness"]), r["location"]),
              st != "timeout" and "DATA RACE" in err and r["location"] in err, "status %s, %s" % (st, err[-400:]))


# ------------------------------------------------------------ 1, 2, 3: the programs

def programs():
    return sorted(os.path.join(HERE, f) for f in os.listdir(HERE) if f.endswith(".dl"))


def check_program(path, args=(), want_outcomes=None, want_traces=None):
    f = os.path.basename(path)
    if want_outcomes is None:
        want_outcomes, want_traces = header(path)
    if not check(rel(path) + " [header states outcomes and traces]", want_outcomes and want_traces):
        return
    x = Explored(path, ["--por", "optimal"], args)
    if not x.ok:
        return
    check_consistent(x, "optimal")
    got = x.outcome_set()
    check(x.name + " [outcomes]", got == want_outcomes,
          "missing %s, unexpected %s" % (sorted(want_outcomes - got), sorted(got - want_outcomes)))
    check(x.name + " [traces]", x["traces"] == want_traces, "%d, header says %d" % (x["traces"], want_traces))
    check(x.name + " [complete]", x["complete"] is True and x["stopped_by"] is None and x["cut"] == 0)
    check(x.name + " [nothing abandoned]", x["blocked"] == 0 and x["executions"] == x["traces"],
          "executions %d, blocked %d" % (x["executions"], x["blocked"]))
    check(x.name + " [each trace once]", len(set(x.fps)) == len(x.fps) == x["executions"],
          "%d distinct of %d" % (len(set(x.fps)), len(x.fps)))
    check_witnesses(x)
    if QUICK:
        return
    cross_check(x, "source")
    if f in NONE_TOO_BIG:
        cross_check(x, "none", sample=NONE_SAMPLE)
    else:
        cross_check(x, "none")


def cross_check(opt, por, sample=None, extra=()):
    """Another reduction against optimal's run opt (same options else)."""
    opts = ["--por", por] + list(extra) + (["--max-executions", str(sample)] if sample else [])
    y = Explored(opt.prog, opts, opt.args)
    if not y.ok:
        return
    check_consistent(y, por)
    check_witnesses(y)
    want_fp, got_fp = set(opt.fps), set(y.fps)
    if sample and not y["complete"]:
        check(y.name + " [stopped by --max-executions]", y["stopped_by"] == "--max-executions" and
              y["executions"] == sample, "%s after %d" % (y["stopped_by"], y["executions"]))
        if os.path.basename(opt.prog) not in FP_VARIES:
            check(y.name + " [fingerprints among optimal's]", got_fp <= want_fp,
                  "%d of %d not optimal's" % (len(got_fp - want_fp), len(got_fp)))
        check(y.name + " [outcomes among optimal's]", y.outcome_set() <= opt.outcome_set(),
              str(sorted(y.outcome_set() - opt.outcome_set())))
        check(y.name + " [races among optimal's]", y.race_set() <= opt.race_set(),
              str(sorted(y.race_set() - opt.race_set())))
        return
    check(y.name + " [complete]", y["complete"] is True, "stopped by %s" % y["stopped_by"])
    check(y.name + " [same traces as optimal]", got_fp == want_fp,
          "%d missing, %d more" % (len(want_fp - got_fp), len(got_fp - want_fp)))
    if por == "none":
        check(y.name + " [nothing abandoned]", y["blocked"] == 0 and y["executions"] == y["traces"])
        check(y.name + " [more interleavings than traces]", y["traces"] >= len(want_fp))
    check(y.name + " [outcomes as optimal's]", y.outcome_set() == opt.outcome_set(),
          "%s vs %s" % (sorted(y.outcome_set()), sorted(opt.outcome_set())))
    check(y.name + " [races as optimal's]", y.race_set() == opt.race_set(),
          "%s vs %s" % (sorted(y.race_set()), sorted(opt.race_set())))


def check_wcp():
    """Under --detector wcp the search counts only the races its executions
    show: a prediction is another execution's race, which the search runs
    itself (before, the volatile-hidden race counted in 3 executions of 3)."""
    prog = os.path.join(ROOT, "tests", "races", "hidden_volatile_single_check.dl")
    x, y = Explored(prog, ["--detector", "ft"]), Explored(prog, ["--detector", "wcp"])
    if not (x.ok and y.ok):
        check(rel(prog) + " [wcp]", False, "an exploration failed")
        return
    counts = lambda e: sorted((r["location"], r["count"]) for r in e["races"])
    check(rel(prog) + " [wcp: the same races in the same executions as ft]", counts(x) == counts(y),
          "ft %s, wcp %s" % (counts(x), counts(y)))


# ------------------------------------------------------------ 4: benchmarks

def check_benchmarks():
    for prog, ns in BENCH:
        path = os.path.join(HERE, "bench", prog + ".dl")
        counts = published(path)
        smallest = None
        for n in ns:
            if not check("%s [publishes a count for %d]" % (rel(path), n), n in counts, str(sorted(counts))):
                continue
            x = Explored(path, ["--detector", "none"], [str(n)])
            if not x.ok:
                continue
            check_consistent(x, "optimal")
            check(x.name + " [traces = published]", x["traces"] == counts[n] and x["executions"] == counts[n],
                  "%d executions, %d traces, published %d" % (x["executions"], x["traces"], counts[n]))
            check(x.name + " [complete]", x["complete"] is True and x["blocked"] == 0)
            check(x.name + " [each trace once]", len(set(x.fps)) == len(x.fps) == counts[n],
                  "%d distinct of %d" % (len(set(x.fps)), len(x.fps)))
            check(x.name + " [no failure, no race]", x.status == 0 and not x["races"] and
                  all(o["outcome"] == "NORMAL" for o in x["outcomes"]), "status %s" % x.status)
            if smallest is None:
                smallest = x
        if smallest is not None and not QUICK:
            cross_check(smallest, "none", sample=BENCH_NONE_SAMPLE[prog], extra=["--detector", "none"])


# ------------------------------------------------------------ 5: bounds

def check_bounds():
    lost = os.path.join(HERE, "lostupdate2.dl")
    full = Explored(lost)
    if not full.ok:
        return
    for k in (0, 1):
        x = Explored(lost, ["--preemptions", str(k)])
        if not x.ok:
            continue
        check_consistent(x, "optimal")
        check(x.name + " [incomplete, cut]", x["complete"] is False and x["cut"] > 0 and x["preemption_bound"] == k,
              "complete %s cut %s bound %s" % (x["complete"], x["cut"], x["preemption_bound"]))
        check(x.name + " [says the bound cut]", "INCOMPLETE" in x.out and "--preemptions %d" % k in x.out, x.out[:400])
        check(x.name + " [fewer outcomes]", x.outcome_set() < full.outcome_set(),
              "%s vs %s" % (sorted(x.outcome_set()), sorted(full.outcome_set())))
        check(x.name + " [witnesses within the bound]",
              all(o["preemptions"] <= k for o in x["outcomes"] + x["races"]))
        check(x.name + " [traces among the unbounded ones]", set(x.fps) <= set(full.fps))
        check_witnesses(x)

    x = Explored(lost, ["--max-executions", "2"])
    if x.ok:
        check(x.name + " [2 executions, stopped]", x["executions"] == 2 and x["complete"] is False and
              x["stopped_by"] == "--max-executions", "%s %s %s" % (x["executions"], x["complete"], x["stopped_by"]))
        check(x.name + " [says so]", "INCOMPLETE" in x.out and "--max-executions" in x.out, x.out[:400])
        check_witnesses(x)

    big = os.path.join(HERE, "bench", "lastzero.dl")
    x = Explored(big, ["--time", "0.001", "--detector", "none"], ["12"])
    if x.ok:
        check(x.name + " [stopped by --time]", x["complete"] is False and x["stopped_by"] == "--time" and
              0 < x["executions"] < 15360 and x["seconds"] < 5,
              "%s %s %s %s" % (x["executions"], x["complete"], x["stopped_by"], x["seconds"]))
        check(x.name + " [says so]", "INCOMPLETE" in x.out and "--time" in x.out, x.out[:400])

    # a spin loop: the execution that never lets the writer run hits --max-steps
    spin = write("Spin.dl", SPIN)
    x = Explored(spin, ["--max-steps", "2000"])
    if x.ok:
        check(x.name + " [exit status 5]", x.status == 5, "status %s" % x.status)
        check(x.name + " [step limited, incomplete]", x["step_limited"] > 0 and x["complete"] is False)
        check(x.name + " [a STEP_LIMIT outcome]", any(o["outcome"] == "STEP_LIMIT" for o in x["outcomes"]))
        check(x.name + " [says so]", "INCOMPLETE" in x.out and "--max-steps" in x.out, x.out[:400])
        # the writer, starved by the spin, gets a branch of its own
        check(x.name + " [the starved writer runs too]", "done" in x.outcome_set(), str(sorted(x.outcome_set())))

    # the same spin with Thread.yield(): the others run, every trace ends
    spin_yield = write("SpinYield.dl", SPIN.replace("class Spin", "class SpinYield")
                       .replace("while (flag == 0) { }", "while (flag == 0) { Thread.yield(); }"))
    x = Explored(spin_yield, ["--max-steps", "20000", "--max-executions", "50"])
    if x.ok:
        check(x.name + " [a yield lets the writer run first]",
              x["outcomes"] and x["outcomes"][0]["stdout"] == "done\n" and x["outcomes"][0]["preemptions"] == 0,
              str(x["outcomes"][:1]))

    # deadlocks that differ only in the step and time of the thread dump
    # are one outcome (3 philosophers that each eat twice)
    phil = write("Phil.dl", PHIL)
    x = Explored(phil, ["--detector", "none", "--max-executions", "3000"])
    if x.ok:
        dead = [o for o in x["outcomes"] if o["outcome"] == "DEADLOCK"]
        check(x.name + " [one deadlock outcome]", len(dead) == 1, "%d deadlock outcomes" % len(dead))

    # Ctrl-C ends the search after the execution under way, with the report
    p = subprocess.Popen([DRVM, "explore", "--detector", "none", "--witnesses", os.path.join(TMP, "int.w"), big,
                          "--", "15"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(0.5)
    p.send_signal(signal.SIGINT)
    out, _ = p.communicate(timeout=TIMEOUT)
    check("drvm explore lastzero 15, Ctrl-C [reports, incomplete]",
          "Ctrl-C stopped the search" in out and "INCOMPLETE" in out and "distinct outcome" in out, out[:400])


PHIL = """public class Phil {
    static final Object[] forks = {new Object(), new Object(), new Object()};
    static class P implements Runnable {
        final int i;
        P(int i) { this.i = i; }
        public void run() {
            for (int k = 0; k < 2; k++)
                synchronized (forks[i]) { synchronized (forks[(i + 1) % 3]) { } }
        }
    }
    public static void main(String[] args) throws InterruptedException {
        Thread a = new Thread(new P(0)), b = new Thread(new P(1));
        a.start(); b.start();
        new P(2).run();
        a.join(); b.join();
        System.out.println("ate");
    }
}
"""


# ------------------------------------------------------------ 6: errors, statuses

SPIN = """public class Spin {
    static volatile int flag;
    static class W implements Runnable {
        public void run() { flag = 1; }
    }
    public static void main(String[] args) throws InterruptedException {
        Thread t = new Thread(new W());
        t.start();
        while (flag == 0) { }
        t.join();
        System.out.println("done");
    }
}
"""

THROWS = """public class Throws {
    static int x;
    static class W implements Runnable {
        public void run() { x = 1; }
    }
    public static void main(String[] args) throws InterruptedException {
        Thread t = new Thread(new W());
        t.start();
        if (x == 1) throw new IllegalStateException("saw x=1");
        t.join();
        System.out.println("x=" + x);
    }
}
"""

# a wait() guarded by `if`: only a spurious wake-up lets the thread see
# ready=false
WAKE = """public class Wake {
    static final Object lock = new Object();
    static boolean ready;
    static class W implements Runnable {
        public void run() {
            synchronized (lock) {
                if (!ready) {
                    try { lock.wait(); } catch (InterruptedException e) { }
                }
                System.out.println("ready=" + ready);
            }
        }
    }
    public static void main(String[] args) throws InterruptedException {
        Thread t = new Thread(new W());
        t.start();
        synchronized (lock) { ready = true; lock.notify(); }
        t.join();
    }
}
"""

BAD = """public class Bad {
    public static void main(String[] args) {
        int x = ;
    }
}
"""


def write(name, text):
    p = os.path.join(TMP, name)
    with open(p, "w") as f:
        f.write(text)
    return p


def usage_error(args, words, name=None):
    name = name or "drvm explore " + " ".join(args)
    st, out, err = drvm(["explore"] + args, cwd=TMP)
    check(name + " [exit 2]", st == 2, "status %s, stderr %r" % (st, err[-300:]))
    check(name + " [says %s]" % " / ".join(words), all(w in err for w in words), repr(err[-300:]))


def check_errors():
    sb = os.path.join(HERE, "sb.dl")
    usage_error(["--por", "bogus", sb], ["--por", "bogus", "optimal"])
    usage_error(["--time", "abc", sb], ["--time", "abc"])
    usage_error(["--preemptions", "-1", sb], ["--preemptions", "-1"])
    missing = os.path.join(TMP, "missing.dl")
    usage_error([missing], ["missing.dl"], "drvm explore missing.dl")
    usage_error([], ["prog.dl"], "drvm explore (no program)")
    usage_error(["--detector", "bogus", sb], ["bogus"])

    bad = write("Bad.dl", BAD)
    st, out, err = drvm(["explore", "--witnesses", os.path.join(TMP, "bad.w"), bad])
    check("drvm explore Bad.dl [exit 3]", st == 3, "status %s" % st)
    check("drvm explore Bad.dl [the diagnostic]", "Bad.dl:3:" in err and "error" in err, repr(err[-300:]))

    st, out, err = drvm(["explore", "--help"])
    check("drvm explore --help [exit 0]", st == 0, "status %s" % st)
    check("drvm explore --help [lists the reductions]", all(w in out + err for w in ("optimal", "source", "none", "--por")))

    # exit statuses
    cases = [(os.path.join(HERE, "deadlock2.dl"), [], 4, "a deadlock"),
             (os.path.join(HERE, "lostupdate2.dl"), [], 66, "only races"),
             (os.path.join(HERE, "buffer_while.dl"), [], 0, "race-free, deadlock-free"),
             (write("Throws.dl", THROWS), [], 1, "an uncaught exception")]
    for prog, opts, want, what in cases:
        x = Explored(prog, opts)
        check("%s [exit %d: %s]" % (x.name, want, what), x.status == want, "status %s" % x.status)
        if x.ok and want == 1:
            check_consistent(x, "optimal")
            check(x.name + " [both outcomes]", x.outcome_set() == {"x=1", "EXCEPTION(1): ''"}, str(x.outcome_set()))
            check_witnesses(x)
    # default witnesses directory: PROG.explore in the current directory
    st, out, err = drvm(["explore", sb], cwd=TMP)
    check("drvm explore sb.dl [witnesses in ./sb.explore]",
          st == 66 and os.path.isfile(os.path.join(TMP, "sb.explore", "outcome-1.rec")), "status %s" % st)

    check_spurious()


def check_spurious():
    buf_if = os.path.join(HERE, "buffer_if.dl")
    if not SPURIOUS_SUPPORTED:
        usage_error(["--spurious-wakeups", buf_if], ["--spurious-wakeups", "not supported"])
        return
    # wait() may return by itself: a guarded wait (while) still gives the
    # two outcomes; `if` lets a consumer take an empty slot (0) without
    # the other one being woken, and the producer overwrite an item.
    plain = header(buf_if)[0]
    x = Explored(buf_if, ["--spurious-wakeups"])
    if x.ok:
        check_consistent(x, "optimal")
        got = x.outcome_set()
        every = {"consumer=%d main=%d" % (c, m) for c in range(3) for m in range(3)}
        check(x.name + " [more outcomes than without]", plain < got and got <= every,
              "%s" % sorted(got))
        check(x.name + " [a single consumer takes 0]", {"consumer=0 main=2", "consumer=2 main=0"} & got, str(sorted(got)))
        check(x.name + " [never an item twice]", not {"consumer=1 main=1", "consumer=2 main=2"} & got)
        check(x.name + " [complete, each trace once]", x["complete"] is True and len(set(x.fps)) == len(x.fps))
        check(x.name + " [nothing abandoned]", x["blocked"] == 0, "blocked %d" % x["blocked"])
        check_witnesses(x)
        if not QUICK:
            cross_check(x, "source", extra=["--spurious-wakeups"])
    buf_while = os.path.join(HERE, "buffer_while.dl")
    x = Explored(buf_while, ["--spurious-wakeups"])
    if x.ok:
        check_consistent(x, "optimal")
        check(x.name + " [outcomes as without]", x.outcome_set() == header(buf_while)[0], str(sorted(x.outcome_set())))
        check(x.name + " [complete, each trace once]", x["complete"] is True and len(set(x.fps)) == len(x.fps))
        # a thread wakes by itself at most once per execution: that bound
        # is state the trace theory does not see, so here optimal DPOR may
        # abandon executions (docs/explore.md says so); no trace is lost
        check(x.name + " [abandoned ones are not outcomes]", x["traces"] + x["blocked"] == x["executions"])
        check_witnesses(x)
    wake = write("Wake.dl", WAKE)
    plain = Explored(wake)
    x = Explored(wake, ["--spurious-wakeups"])
    if plain.ok and x.ok:
        check(plain.name + " [no spurious wake-up]", plain.outcome_set() == {"ready=true"}, str(plain.outcome_set()))
        check(x.name + " [a spurious wake-up]", x.outcome_set() == {"ready=true", "ready=false"}, str(x.outcome_set()))
        check(x.name + " [complete, each trace once]", x["complete"] is True and x["blocked"] == 0 and
              len(set(x.fps)) == len(x.fps))
        check_witnesses(x)
        if not QUICK:
            cross_check(x, "none", extra=["--spurious-wakeups"])


# ------------------------------------------------------------ main

def main():
    if not os.path.isfile(DRVM):
        print("no drvm at %s" % DRVM)
        return 2
    start = time.time()
    for p in programs():
        check_program(p)
    # lostupdate2 with K = 3, as its header states it
    lost = os.path.join(HERE, "lostupdate2.dl")
    head = open(lost).read()
    k3 = re.search(r"(\d+) for K = 3", head)
    check(rel(lost) + " [header states K = 3]", k3 and "count=6" in head)
    if k3:
        check_program(lost, ["3"], {"count=%d" % i for i in range(2, 7)}, int(k3.group(1)))
    check_wcp()
    check_benchmarks()
    check_bounds()
    check_errors()
    print("tests/explore/check.py: %d passed, %d failed (%.1f s%s)" % (passed, failed, time.time() - start,
                                                                      ", quick" if QUICK else ""))
    if not failed:
        shutil.rmtree(TMP, ignore_errors=True)
    else:
        print("(files kept in %s)" % TMP)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

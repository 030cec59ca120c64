#!/usr/bin/env python3
"""The command line's own checks (Python 3 standard library only).

    python3 tests/cli/check.py [DRVM]      (default ./drvm)

What cli/ adds to the library: option parsing and its usage errors, the
rerun command that race reports print (DrvmConfig.rerun), the seed, -v
and --stats lines, --sched-report's JSON, option values handed to the
registries (escaped), help texts listing what the registries hold, and
the argv `drvm hunt` gives its children, and the output and exit status
of a run stopped by SIGINT or SIGTERM or by running out of memory.  Every
message is checked byte for byte.  And the exit statuses: each one
include/drvm.h defines is in README.md's, docs/language.md's,
docs/user-guide.md's and `drvm help run`'s lists.

Prints "N passed, M failed" and exits non-zero on a failure.
"""
import json
import os
import re
import resource
import signal
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
DRVM = os.path.abspath(sys.argv[1]) if len(sys.argv) > 1 else os.path.join(ROOT, "drvm")
TMP = tempfile.mkdtemp(prefix="drvm-cli-")
LOST = "lang-examples/lostupdate.dl"
FIG2 = "lang-examples/drfinder_fig2.dl"
HINT = "Try 'drvm --help'.\n"
passed = failed = 0


def check(name, ok, detail=""):
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
        print("FAIL %s%s" % (name, (": " + detail) if detail else ""), flush=True)


def drvm(*args):
    p = subprocess.run([DRVM] + list(args), capture_output=True, text=True, cwd=ROOT, timeout=120)
    return p.returncode, p.stdout, p.stderr


def usage_errors():
    cases = [
        (["run"], "run needs a program file (prog.dl)"),
        (["run", "--seed"], "--seed needs a value"),
        (["run", "--seed", "x", LOST], "--seed takes a number 0, 1, ..., not 'x'"),
        (["run", "--seed", "-1", LOST], "--seed takes a number 0, 1, ..., not '-1'"),
        (["run", "--quantum", "0", LOST], "--quantum takes a positive count, not '0'"),
        (["run", "--max-heap", "0", LOST], "--max-heap: bad value '0'"),
        (["run", "--max-steps", "x", LOST], "--max-steps takes a number 1, 2, ..., not 'x'"),
        (["run", "--depth", "0", LOST], "--depth takes 1..1000, not '0'"),
        (["run", "--depth", "1001", LOST], "--depth takes 1..1000, not '1001'"),
        (["run", "--pct-steps", "0", LOST], "--pct-steps takes a positive count, not '0'"),
        (["run", "--noise", "2", LOST], "--noise takes a probability 0..1, not '2'"),
        (["run", "--restarts", "1001", LOST], "--restarts takes 0..1000, not '1001'"),
        (["run", "--restarts", "", LOST], "--restarts needs a value"),
        (["run", "--filter", "foo", LOST], "--filter takes none or trade, not 'foo'"),
        (["run", "--pair", "0", "--sched", "racefuzzer", LOST], "--pair takes a pair number 1, 2, ..., not '0'"),
        (["run", "--pair", "", LOST], "--pair needs a value"),
        (["run", "--race-exit-code", "256", LOST], "--race-exit-code takes 0..255, not '256'"),
        (["run", "--report", "xml=f", LOST], "--report takes json=FILE, not 'xml=f'"),
        (["run", "--report", "json=", LOST], "--report takes json=FILE, not 'json='"),
        (["run", "--trace=", LOST], "--trace= needs a file name"),
        (["run", "--mtr-in", "", LOST], "--mtr-in needs a value"),
        (["run", "--sched-report", "", LOST], "--sched-report needs a value"),
        (["run", "--frob", LOST], "unknown option '--frob'"),
        (["run", "--replay", "a", "--replay-prefix", "b", LOST],
         "--replay-prefix: give one recording (--replay or --replay-prefix), once"),
        (["run", "--mtr-out", "m", LOST], "--mtr-in, --mtr-out, --escorts, --order and --candidates go with --sched drfinder"),
        (["run", "--sched", "pct", "--race-pairs", "p", LOST], "--race-pairs and --pair go with --sched racefuzzer"),
        (["check", "--sched", "random", LOST], "--sched is an option of drvm run, not of drvm check"),
        (["check", LOST, "extra"], "unexpected argument 'extra'"),
        (["check", LOST, "--", "x"], "'check' takes no program arguments"),
        (["disasm", "--lib", "x.so", LOST], "--lib is an option of drvm run, not of drvm disasm"),
        (["bogus"], "unknown command 'bogus'"),
        (["help", "bogus"], "no help for 'bogus'"),
    ]
    for args, msg in cases:
        rc, out, err = drvm(*args)
        check("usage error: %s" % " ".join(args), rc == 2 and err == "drvm: %s\n%s" % (msg, HINT) and not out,
              "exit %d, stderr %r" % (rc, err))


def run_errors():
    cases = [
        (["run", "--seed", "1", "--sched", "bogus", LOST], "drvm: unknown scheduler 'bogus' (choose one of: native, "),
        (["run", "--seed", "1", "--detector", "bogus", LOST], "drvm: unknown detector 'bogus' (choose one of: ft, "),
        (["run", "--seed", "1", "--potential-races", "p", LOST], "drvm: --potential-races needs --detector hybrid or wcp\n"),
        (["run", "--detector", "wcp", "--filter", "trade", LOST],
         "drvm: --filter needs --detector ft or djit or basicvc or eraser or hybrid\n"),
        (["run", "--detector", "empty", "--filter", "trade", LOST],
         "drvm: --filter needs --detector ft or djit or basicvc or eraser or hybrid\n"),
        (["run", "no/such.dl"], "drvm: cannot read no/such.dl: No such file or directory\n"),
        (["run", "--seed", "1", "--replay", "/no/such.rec", LOST], "drvm: cannot read /no/such.rec: "),
        (["run", "--seed", "1", "--detector", "none", "--sched-report", "/no/such/dir/r.json", LOST], "drvm: cannot write /no/such/dir/r.json"),
        # issue 18: a directory, an endless input, a trace on a full disk, a heap too small to start
        # a directory is every .dl and .java file under it (issue 19): one without any is an error
        (["run", "docs"], "drvm: docs has no .dl or .java file\n"),
        (["run", "tests/fuzz/corpus"], "is not a text file (it contains NUL bytes)\n"),
        (["run", "/dev/zero"], "drvm: cannot read /dev/zero: File too large\n"),
        (["run", "--seed", "1", "--trace=/dev/full", LOST], "drvm: cannot write /dev/full\n"),
        (["run", "--seed", "1", "--max-heap", "1", LOST], "drvm: the heap limit (--max-heap 1 bytes) is too small to start "
                                                          "the program"),
    ]
    for args, start in cases:
        rc, _, err = drvm(*args)
        check("error: %s" % " ".join(args), rc == 2 and start in err and "Try" not in err, "exit %d, %r" % (rc, err))
    # options of a scheduler that was not chosen are ignored, as always
    rc, _, err = drvm("run", "--seed", "1", "--depth", "5", "--noise", "0.5", "--detector", "none", LOST)
    check("another scheduler's options are ignored", rc == 0 and err == "", "exit %d, %r" % (rc, err))


def replay_line(err):
    lines = [l for l in err.splitlines() if l.startswith("Replay: ")]
    return lines[0][len("Replay: "):] if lines else None


def rerun_commands():
    rc, _, err = drvm("run", "--sched", "pct", "--seed", "03", "--depth", "2", "--pct-steps", "50", "--quantum", "4",
                      "--noise", "0.50", "--detector", "djit", "--all-races", "--race-exit-code", "7",
                      "--max-steps", "100000000", LOST, "2", "3")
    want = "drvm run --sched pct --seed 3 --quantum 4 --depth 2 --pct-steps 50 --noise 0.5 --detector djit %s 2 3" % LOST
    check("rerun: scheduler options, in the table's order", rc == 7 and replay_line(err) == want,
          "exit %d, %r" % (rc, replay_line(err)))
    rc, _, err = drvm("run", "--sched", "random", LOST)
    m = re.search(r"seed (\d+)\n", err)
    check("rerun: a drawn seed", rc == 66 and m and replay_line(err) == "drvm run --sched random --seed %s %s"
          % (m.group(1), LOST), err[-300:])
    rec = os.path.join(TMP, "a b.rec")
    drvm("run", "--sched", "random", "--seed", "5", "--record", rec, LOST)
    rc, _, err = drvm("run", "--replay", rec, "--detector", "basicvc", "--seed", "9", "--depth", "3", LOST)
    check("rerun: a replay's", rc == 66 and replay_line(err) == "drvm run --replay '%s' --detector basicvc %s"
          % (rec, LOST), repr(replay_line(err)))
    prefix = os.path.join(TMP, "prefix.rec")
    drvm("run", "--sched", "random", "--seed", "1", "--max-steps", "200", "--record", prefix, LOST)
    rc, _, err = drvm("run", "--replay-prefix", prefix, "--sched", "random", "-v", LOST)
    check("rerun: a prefix replay's, with the recording's seed", rc == 66 and
          replay_line(err) == "drvm run --replay-prefix %s --sched random --seed 1 %s" % (prefix, LOST) and
          err.endswith("drvm: seed 1 (rerun with --replay-prefix %s --seed 1)\n" % prefix), err[-400:])
    rc, _, err = drvm("run", "--replay-prefix", prefix, "--sched", "random", "--seed", "4", LOST)
    check("rerun: a prefix replay's, with --seed", rc == 66 and
          replay_line(err) == "drvm run --replay-prefix %s --sched random --seed 4 %s" % (prefix, LOST), err[-400:])


def lines_after_a_run():
    rc, _, err = drvm("run", "--seed", "5", "-v", "--detector", "none", LOST)
    last = err.splitlines()[-2:]
    check("-v: the run's line and the seed line", rc == 0 and len(last) == 2 and
          re.fullmatch(r"drvm: scheduler native, 5 threads, \d+ steps, \d+ scheduling points, virtual time "
                       r"\d+\.\d{3} ms", last[0]) and last[1] == "drvm: seed 5 (rerun with --seed 5)", repr(last))
    rc, _, err = drvm("run", "--seed", "5", LOST, "x")
    check("an uncaught exception: the seed line last", rc == 1 and err.endswith("drvm: seed 5 (rerun with --seed 5)\n"),
          err[-200:])
    rc, _, err = drvm("run", "--seed", "5", "--max-steps", "1000", "--detector", "none", LOST)
    check("the step limit: the seed line last", rc == 5 and err.endswith("drvm: seed 5 (rerun with --seed 5)\n"),
          err[-200:])
    mtr = os.path.join(TMP, "m0")
    drvm("run", "--sched", "drfinder", "--detector", "none", "--seed", "1", "--mtr-out", mtr, FIG2)
    rc, _, err = drvm("run", "--sched", "drfinder", "--seed", "2", "--mtr-in", mtr, "--stats", FIG2)
    check("--stats: the scheduler's counters", "\ndrvm: drfinder scheduler statistics\n  phase " in err, err[-600:])


def stat(err, name):
    m = re.search(r"^  %s +(\d+)" % re.escape(name), err, re.M)
    return int(m.group(1)) if m else None


def detector_stats():
    many = "tests/filter/many_threads.dl"
    for det in ("ft", "djit", "hybrid"):
        rc, out, err = drvm("run", "--detector", det, "--stats", many, "--", "2000")
        n = stat(err, "ended threads retired")
        # the last few Thread objects may not be collected before the end
        check("--stats: %s retires ended threads once their Thread objects are collected" % det,
              rc == 0 and out == "1999000\n" and n is not None and 1000 <= n <= 2000, "exit %d, %r" % (rc, n))
    rc, out, err = drvm("run", "--stats", many, "--", "200")
    inline = stat(err, "answered inline")
    check("--stats: ft counts the accesses answered inline", rc == 0 and inline is not None and inline > 0,
          err[-400:])
    rc, out, err = drvm("run", "--filter", "trade", "--stats", "tests/races/norace_publish_volatile.dl")
    counts = [stat(err, k) for k in ("objects made local", "objects that escaped", "accesses filtered",
                                     "records applied", "accesses applied")]
    check("--stats: the filter's counters", rc == 0 and None not in counts and counts[0] >= counts[1] > 0
          and counts[2] > 0 and counts[4] > 0, repr(counts))
    rc, out, err = drvm("run", "--stats", "tests/races/norace_publish_volatile.dl")
    check("--stats: no filter counters without --filter", rc == 0 and stat(err, "accesses filtered") is None)


def accordion_and_finals():
    many = "tests/filter/many_threads.dl"
    rc, out, err = drvm("run", "--stats", many, "--", "2000")
    n, slots = stat(err, "clock slots reused"), re.search(r"clock slots reused +\d+  \((\d+) slots in all", err)
    check("--stats: accordion clocks reuse ended threads' slots (ft's default)",
          # how many retire depends on how often the GC runs (a thread's clocks are small: 2,000
          # threads make 2 or 3 collections), so the bar is "most slots reused", not a count
          rc == 0 and n is not None and n >= 600 and slots and int(slots.group(1)) < 1500, err[-600:])
    rc, out, err = drvm("run", "--clocks", "grow", "--stats", many, "--", "2000")
    check("--stats: --clocks grow reuses no slot", rc == 0 and stat(err, "clock slots reused") is None, err[-400:])
    rc, out, err = drvm("run", "--detector", "hybrid", "--stats", many, "--", "200")
    check("--stats: hybrid has no accordion clocks", rc == 0 and stat(err, "clock slots reused") is None)
    # a static final read is no access for ft alone (its one write happens-before every use), except a
    # thread's first of the class; a trace beside it sees every one
    with tempfile.TemporaryDirectory() as tmp:
        prog, trace = os.path.join(tmp, "SF.dl"), os.path.join(tmp, "sf.trace")
        with open(prog, "w") as f:
            f.write("public class SF {\n  static final int[] table = {1, 2, 3};\n  static int plain = 4;\n"
                    "  static class W extends Thread { public void run() { int s = 0;\n"
                    "    for (int i = 0; i < 500; i++) s += table[1] + plain; System.out.println(s); } }\n"
                    "  public static void main(String[] a) throws InterruptedException {\n"
                    "    Thread t = new W(); t.start(); t.join(); }\n}\n")
        rc, out, err = drvm("run", "--stats", prog)
        reads = stat(err, "reads")
        check("--stats: ft skips a thread's static final reads after its first of the class",
              rc == 0 and out == "3000\n" and reads is not None and 1000 <= reads < 1100, "exit %d, reads %r" % (rc, reads))
        rc, out, err = drvm("run", "--stats", "--trace=" + trace, prog)
        text = open(trace).read() if os.path.exists(trace) else ""
        check("trace: every static final read shows when a trace listens",
              rc == 0 and text.count("rd   SF.table") == 500 and text.count("rd   SF.plain") == 500, text[-400:])


def memory_limit():
    # issue 18, item 4: --max-memory covers the detector's state; the heap past it is OutOfMemoryError
    rc, out, err = drvm("run", "--detector", "djit", "--max-memory", "5m", "tests/bench/sor.dl", "--", "4")
    check("--max-memory: the detector's clocks count; exit 70 and a clear message",
          rc == 70 and err.startswith("drvm: out of memory: the VM holds ") and "past --max-memory 5.0 MB" in err,
          "exit %d, %r" % (rc, err[:300]))
    rc, out, err = drvm("run", "--max-memory", "8m", "tests/bench/sparsematmult.dl", "--", "4")
    check("--max-memory: the heap past it is the program's OutOfMemoryError",
          rc == 1 and "java.lang.OutOfMemoryError: Java heap space" in err, "exit %d, %r" % (rc, err[:300]))
    rc, out, err = drvm("run", "--max-memory", "0", "tests/filter/many_threads.dl")
    check("--max-memory 0 is a usage error", rc == 2 and "--max-memory" in err, err)


def sched_report():
    rep = os.path.join(TMP, "sched.json")
    rc, _, _ = drvm("run", "--seed", "1", "--detector", "none", "--sched-report", rep, LOST)
    text = open(rep).read()
    want = re.compile(r'\{\n  "scheduler": "native",\n  "seed": 1,\n  "exit": 0,\n  "uncaught": 0,\n  "steps": \d+,\n'
                      r'  "points": \d+,\n  "threads": 5,\n  "attempts": 1\n\}\n')
    check("--sched-report: the run's members", rc == 0 and want.fullmatch(text), repr(text))
    mtr = os.path.join(TMP, "dir with space,comma\\")
    os.makedirs(mtr, exist_ok=True)
    mtr = os.path.join(mtr, "m 0")
    rc, _, err = drvm("run", "--sched", "drfinder", "--detector", "none", "--seed", "1", "--mtr-out", mtr,
                      "--sched-report", rep, FIG2)
    check("a scheduler option's value with spaces, commas and backslashes", rc == 0 and os.path.exists(mtr), err)
    text = open(rep).read()
    check("--sched-report: the scheduler's members after the run's",
          text.startswith('{\n  "scheduler": "drfinder",\n  "seed": 1,\n') and '  "attempts": 1,\n  "phase": 1,\n'
          in text and text.endswith("\n}\n") and json.loads(text)["relations_out"] >= 0, text)


def helps():
    _, run_help, _ = drvm("help", "run")
    _, usage, _ = drvm("--help")
    for name in ("native", "random", "rr", "pct", "contest", "drfinder", "racefuzzer",
                 "ft", "djit", "basicvc", "eraser", "hybrid", "empty", "none"):
        check("help run lists %s" % name, re.search(r"\n {22}%s " % name, run_help), name)
        check("--help lists %s" % name, re.search(r"[ ,]%s(,|\n)" % name, usage), name)
    for opt in ("--replay FILE", "--replay-prefix FILE", "--sched NAME", "--seed N", "--quantum N", "--depth D",
                "--pct-steps K", "--noise P", "--mtr-in FILE", "--mtr-out FILE", "--race-pairs FILE", "--pair N",
                "--restarts N", "--detector NAME", "--lib PATH", "--record FILE", "--trace[=FILE]",
                "--sched-report FILE", "--spurious-wakeups", "--all-races", "--race-exit-code N",
                "--report json=FILE", "--potential-races FILE", "--stats", "-v, --verbose", "--max-heap SIZE",
                "--max-steps N"):
        check("help run explains %s" % opt, "\n  %s " % opt in run_help, opt)
        check("--help names %s" % opt, " %s" % opt in usage, opt)
    rc, out, _ = drvm("run", "--help")
    check("run --help is help run", rc == 0 and out == run_help)
    rc, out, _ = drvm("disasm", "-h")
    check("disasm -h", rc == 0 and out.startswith("usage: drvm disasm") and "\n  --all " in out)
    rc, out, _ = drvm("--version")
    check("--version", rc == 0 and re.fullmatch(r"drvm \d+\.\d+\.\d+\n", out), out)


def hunt_children():
    prog = os.path.join(TMP, "broken.dl")
    with open(prog, "w") as f:
        f.write("public class Broken { public static void main(String[] args) { int x = ; } }\n")
    d = os.path.join(TMP, "hunt")
    rc, _, err = drvm("hunt", prog, "--runs", "1", "--seed", "1", "--dir", d, "--max-steps", "99", "--", "a b")
    m = re.search(r"the command was: (.*)\n", err)
    want = ("drvm run --sched native --seed %d --detector none --sched-report %s/plain-1.sched.json --max-steps 99 %s -- a b"
            % (0, d, prog))
    got = m.group(1) if m else ""
    got = re.sub(r"--seed \d+", "--seed 0", got)
    check("hunt: a child's argv from the options table", rc == 3 and got == want, "%r\n want %r" % (got, want))


def default_signals():
    # a background job's SIGINT is ignored, and drvm keeps an ignored
    # signal ignored: the child gets the defaults a terminal would give
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def cpu_seconds(pid):
    """The process's CPU time so far (Linux), None where /proc has none."""
    try:
        with open("/proc/%d/stat" % pid) as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return None


def started(p, timeout=10.0):
    """Waits until p has run its program for a while: 0.2 s of CPU time
    (compiling takes milliseconds; every program here spins, since even a
    sleep only moves the virtual clock), or 1 s without /proc."""
    end = time.time() + timeout
    while time.time() < end and p.poll() is None:
        cpu = cpu_seconds(p.pid)
        if cpu is None:
            time.sleep(1.0)
            return
        if cpu >= 0.2:
            return
        time.sleep(0.02)


def stopped_runs():
    """Issue 18, item 5: a run stopped by a signal writes what the program
    printed, then says so, and exits with 128 + the signal."""
    prog = "tests/cli/spin.dl"
    cases = [("spin", signal.SIGINT, []), ("spin", signal.SIGTERM, []), ("sleep", signal.SIGTERM, []),
             ("join", signal.SIGINT, ["--sched", "random", "--detector", "ft"])]
    for mode, sig, opts in cases:
        name = "%s stops %s" % (sig.name, mode)
        p = subprocess.Popen([DRVM, "run", "--seed", "3"] + opts + [prog, "--", mode], cwd=ROOT, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True, preexec_fn=default_signals)
        started(p)
        sent = time.time()
        p.send_signal(sig)
        try:
            out, err = p.communicate(timeout=20)
        except subprocess.TimeoutExpired:
            p.kill()
            out, err = p.communicate()
            check(name + ": it ended", False, "still running 20 s after the signal")
            continue
        took = time.time() - sent
        want_err = "drvm: interrupted (%s)\ndrvm: seed 3 (rerun with --seed 3)\n" % sig.name
        check(name + ": the output so far", out == "main done\n", "stdout %r" % out)
        check(name + ": exit status 128 + signal", p.returncode == 128 + sig, "exit %d" % p.returncode)
        check(name + ": the line on stderr", err == want_err, "stderr %r" % err)
        check(name + ": promptly", took < 5, "%.1f s after the signal" % took)


def out_of_memory():
    """Issue 18, item 5: running out of memory outside the heap (threads'
    detector state under a 100 MiB address space) still writes the output.
    ASan's shadow memory needs more address space than that: skipped."""
    if "asan" in os.path.basename(DRVM):
        return

    def small():
        default_signals()
        resource.setrlimit(resource.RLIMIT_AS, (100 << 20, 100 << 20))

    p = subprocess.run([DRVM, "run", "--seed", "1", "--detector", "ft", "tests/cli/threadbomb.dl"], cwd=ROOT,
                       capture_output=True, text=True, timeout=120, preexec_fn=small)
    check("out of memory: the output so far", p.stdout == "main done\n", "stdout %r" % p.stdout)
    check("out of memory: exit 70 and the message", p.returncode == 70 and p.stderr.startswith("drvm: out of memory"),
          "exit %d, stderr %r" % (p.returncode, p.stderr[:200]))


def status_table(path):
    """The statuses in the first column of PATH's `| status | meaning |`
    table ("130, 143" gives both; "N", System.exit's, is not a number)."""
    lines = open(os.path.join(ROOT, path), encoding="utf-8").read().splitlines()
    found = set()
    if "| status | meaning |" not in lines:
        return None
    for line in lines[lines.index("| status | meaning |") + 2:]:
        if not line.startswith("|"):
            break
        found.update(int(n) for n in re.findall(r"\d+", line.split("|")[1]))
    return found


def exit_status_lists():
    """Issue 18: every exit status the code defines (include/drvm.h's
    DRVM_EXIT_*, mirrored by vm/vm.h's DR_EXIT_*) is in each list of them
    a user reads, and no exit() in the sources takes a bare number, so a
    new status needs a constant and the lists cannot go stale."""
    header = open(os.path.join(ROOT, "include/drvm.h")).read()
    consts = {name: int(v) for name, v in re.findall(r"\b(DRVM_EXIT_[A-Z_]+)\s*=\s*(\d+)", header)}
    check("exit statuses: include/drvm.h defines DRVM_EXIT_*", len(consts) >= 9, repr(consts))
    vm_h = open(os.path.join(ROOT, "vm/vm.h")).read()
    mirrored = dict(re.findall(r"\b(DR_EXIT_[A-Z_]+)\s*=\s*(\w+)", vm_h))
    for name in consts:
        check("exit statuses: vm/vm.h mirrors %s" % name, mirrored.get("DR_" + name[len("DRVM_"):]) == name)
    for name, v in mirrored.items():
        check("exit statuses: %s is one of include/drvm.h's" % name, v in consts, "%s = %s" % (name, v))
    _, run_help, _ = drvm("help", "run")
    in_help = set(int(n) for n in re.findall(r"^  (\d+) ", run_help.split("\nexit status:\n")[-1], re.M))
    for path in ("README.md", "docs/language.md", "docs/user-guide.md"):
        listed = status_table(path)
        check("exit statuses: %s has a status table" % path, listed is not None)
        for name, v in sorted(consts.items(), key=lambda kv: kv[1]):
            check("exit statuses: %s lists %d (%s)" % (path, v, name), listed is not None and v in listed)
    for name, v in sorted(consts.items(), key=lambda kv: kv[1]):
        check("exit statuses: drvm help run lists %d (%s)" % (v, name), v in in_help, repr(sorted(in_help)))
    bare = re.compile(r"\b_?exit\(\s*\d+\s*\)")
    for d in ("vm", "cli", "compiler", "scheduler", "detector"):
        for f in sorted(os.listdir(os.path.join(ROOT, d))):
            if not f.endswith((".c", ".h")):
                continue
            text = open(os.path.join(ROOT, d, f), encoding="utf-8").read()
            for m in bare.finditer(text):
                check("exit statuses: %s/%s:%d exits with a constant" % (d, f, text.count("\n", 0, m.start()) + 1),
                      False, "%s: name it in include/drvm.h and list it" % m.group(0))


def main():
    exit_status_lists()
    usage_errors()
    run_errors()
    rerun_commands()
    lines_after_a_run()
    sched_report()
    detector_stats()
    accordion_and_finals()
    memory_limit()
    helps()
    hunt_children()
    stopped_runs()
    out_of_memory()
    print("%d passed, %d failed" % (passed, failed))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()

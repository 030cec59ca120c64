#!/usr/bin/env python3
"""drvm explore's speed (make bench): executions per second, the classic
DPOR benchmarks against their published trace counts with and without
reduction, and memory as the executions grow.

    python3 tests/bench/explore.py --drvm ./drvm [--budget 20] [--timeout 300]

Everything runs in one go, side by side, with --detector none (the search
alone; the race detector's cost is one line of its own):

  * the benchmarks: each program of tests/explore/bench at the N of the
    POPL'14 / JACM'17 tables (lastzero 10 and 15, readers 8 and 13,
    indexer 12 to 14, filesystem 14 to 18, fib_bench 4 and 5) under
    optimal DPOR, to its end: the traces it explored beside the published
    count (the file's `// traces: N:count` line, sources in
    tests/explore/bench/COUNTS.md), executions, wall and CPU seconds; then
    the same under --por none (every interleaving) with --time BUDGET
    (default 20 s): its count if it finishes, else "over budget" and how
    far it got.  A program over budget at one N is not run at a larger N.
  * throughput: executions per CPU second of the searches above on
    lastzero(15) (146 decisions per execution, 129 VM steps) and on
    filesystem(24) (about 1,000 decisions per execution), and decisions
    per second; the cost of the default FastTrack detector on lastzero(12).
  * memory: peak RSS of fib_bench(5) and lastzero(15) stopped after 1,000,
    10,000 and 100,000 executions (--max-executions) and run to the end.

The goals (at least 10,000 executions/s on lastzero(15); fib_bench(5)
and lastzero(15) complete in under 10 s of wall time each; memory roughly
flat as executions grow) are printed with the measured figures beside
them; they are information, not a verdict: the exit status is 1 only when
an optimal search that completed did not find the published number of
traces, or a run failed; 0 otherwise.

Peak RSS comes from GNU time when it is installed, as in run.py (a child's
own ru_maxrss, from os.wait4, counts this Python's memory from before the
exec: a floor of some 15 MB).  Python 3 standard library only.
"""

import argparse
import json
import os
import re
import shutil
import sys
import tempfile

BENCH_DIR = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(BENCH_DIR))
PROGS = os.path.join(ROOT, "tests", "explore", "bench")
sys.path.insert(0, BENCH_DIR)
import run as bench  # noqa: E402  (run_measured, GNU_TIME: one way to measure for every bench script)

# The POPL'14 / JACM'17 parameters (COUNTS.md).
TABLE = [("lastzero", 10), ("lastzero", 15), ("readers", 8), ("readers", 13), ("indexer", 12),
         ("indexer", 13), ("indexer", 14), ("filesystem", 14), ("filesystem", 16), ("filesystem", 18),
         ("fib_bench", 4), ("fib_bench", 5)]
# Throughput: a program of some hundred decisions (in TABLE), and a longer one.
RATE = ("lastzero", 15)
LONG = ("filesystem", 24)
# Memory as the executions grow: stopped after this many, then to the end.
MEMORY = [("fib_bench", 5), ("lastzero", 15)]
MEMORY_STOPS = (1000, 10000, 100000)
# The detector's cost: the default FastTrack against none.
DETECTOR = ("lastzero", 12)


def published(prog):
    """{N: traces} from the program's `// traces: N:count ...` line."""
    with open(os.path.join(PROGS, prog + ".dl"), encoding="utf-8") as f:
        for line in f:
            m = re.match(r"//\s*traces:\s*(.*)", line)
            if m:
                return {int(a): int(b) for a, b in (w.split(":") for w in m.group(1).split())}
    return {}


class Explored:
    """One `drvm explore` run: the process (wall, CPU, RSS) and its JSON."""

    def __init__(self, result, data):
        self.r = result
        self.data = data

    @property
    def ok(self):
        return self.data is not None and not self.r.timed_out

    def get(self, key, default=None):
        return self.data.get(key, default) if self.data else default


def explore(args, tmp, prog, n, extra=(), detector="none"):
    tag = "%s-%d-%d" % (prog, n, explore.count)
    explore.count += 1
    js = os.path.join(tmp, tag + ".json")
    argv = [args.drvm, "explore", "--detector", detector, "--witnesses", os.path.join(tmp, tag + ".w"),
            "--json", js] + list(extra) + [os.path.join(PROGS, prog + ".dl"), "--", str(n)]
    r = bench.run_measured(argv, args.timeout, cwd=tmp)
    data = None
    if os.path.exists(js):
        with open(js, encoding="utf-8") as f:
            data = json.load(f)
        os.remove(js)
    shutil.rmtree(os.path.join(tmp, tag + ".w"), ignore_errors=True)
    if data is None:
        print("  failed: %s (exit %s%s)\n%s" % (" ".join(argv), r.code, ", timed out" if r.timed_out else "",
                                                bench.first_lines(r.stderr)), file=sys.stderr)
    return Explored(r, data)


explore.count = 0


def witness_decisions(e):
    """The fewest decisions of an outcome's witness: an execution's length."""
    ds = [o["decisions"] for o in e.get("outcomes", [])]
    return min(ds) if ds else 0


def num(n):
    return "{:,}".format(n)


def mb(kib):
    return "%.1f" % (kib / 1024.0)


def print_table(headers, rows, left=(0,)):
    """Columns right-aligned but those in left; two spaces between."""
    widths = [max(len(str(r[i])) for r in [headers] + rows) for i in range(len(headers))]
    fmt = "  " + "  ".join("%%%s%ds" % ("-" if i in left else "", w) for i, w in enumerate(widths))
    for r in [headers] + rows:
        print((fmt % tuple(r)).rstrip())


def main():
    ap = argparse.ArgumentParser(description="drvm explore: throughput, DPOR benchmarks, memory.")
    ap.add_argument("--drvm", default="./drvm", help="path to the drvm executable (default ./drvm)")
    ap.add_argument("--budget", type=float, default=20.0,
                    help="seconds for each --por none run (default 20)")
    ap.add_argument("--timeout", type=float, default=300.0, help="seconds before a run is killed (default 300)")
    args = ap.parse_args()
    args.drvm = os.path.abspath(args.drvm)
    if not os.access(args.drvm, os.X_OK):
        sys.exit("explore.py: no executable %s (make drvm)" % args.drvm)
    tmp = tempfile.mkdtemp(prefix="drvm-bench-explore-")
    problems = 0
    counts = {p: published(p) for p in set(p for p, _ in TABLE + [LONG] + MEMORY + [DETECTOR])}

    # ---- the benchmarks, optimal and none
    print("drvm explore: the DPOR benchmarks (tests/explore/bench, --detector none; wall and CPU seconds)")
    rows, opt, over = [], {}, {}
    for prog, n in TABLE:
        e = explore(args, tmp, prog, n)
        opt[(prog, n)] = e
        pub = counts[prog].get(n)
        if not e.ok:
            problems += 1
            rows.append((prog, str(n), "FAIL", num(pub) if pub else "?", "", "", "", "", ""))
            continue
        traces, complete = e.get("traces"), e.get("complete")
        mark = ""
        if complete and pub is not None and traces != pub:
            mark = " MISMATCH"
            problems += 1
        elif not complete:
            mark = " (incomplete)"
        if prog in over:
            none_cell = "over budget (as N=%d)" % over[prog]
        else:
            z = explore(args, tmp, prog, n, ["--por", "none", "--time", "%g" % args.budget])
            if not z.ok:
                problems += 1
                none_cell = "FAIL"
            elif z.get("complete"):
                none_cell = "all %s in %.2f s" % (num(z.get("traces")), z.r.seconds)
            else:
                over[prog] = n
                none_cell = "over budget: %s in %.0f s (%s/s)" % (
                    num(z.get("executions")), z.r.seconds, num(int(z.get("executions") / max(z.r.cpu, 1e-3))))
        rows.append((prog, str(n), num(traces) + mark, num(pub) if pub else "?", num(e.get("executions")),
                     "%.2f" % e.r.seconds, "%.2f" % e.r.cpu, mb(e.r.maxrss_kib), none_cell))
    print_table(["program", "N", "traces", "published", "executions", "wall s", "cpu s", "MB",
                 "--por none (interleavings, budget %g s)" % args.budget], rows, left=(0, 8))
    if not bench.GNU_TIME:
        print("  (MB: ru_maxrss from os.wait4; without GNU time it includes this Python's size, ~15 MB)")
    print()

    # ---- throughput
    print("throughput (executions per CPU second of the whole command, compiling included):")
    rate = None
    lines = []
    for key in (RATE, LONG):
        e = opt.get(key) or explore(args, tmp, *key)
        if not e.ok:
            problems += 1
            continue
        x, cpu, d = e.get("executions"), max(e.r.cpu, 1e-3), witness_decisions(e)
        per = x / cpu
        if key == RATE:
            rate = (per, d, e)
        lines.append("  %s(%d): %s executions, %s decisions each (the witness's): %s executions/s, %.1f M decisions/s"
                     % (key[0], key[1], num(x), num(d), num(int(per)), per * d / 1e6))
    for line in lines:
        print(line)
    none_e = explore(args, tmp, *DETECTOR)
    ft_e = explore(args, tmp, *DETECTOR, detector="ft")
    if none_e.ok and ft_e.ok:
        print("  %s(%d) with the FastTrack detector watching (the default): %.2fx the CPU time of --detector none"
              % (DETECTOR[0], DETECTOR[1], ft_e.r.cpu / max(none_e.r.cpu, 1e-3)))
    print()

    # ---- memory
    print("peak memory (MB) as the executions grow (--max-executions, then to the end):")
    mem = {}
    mrows = []
    for key in MEMORY:
        row = [("%s(%d)" % key)]
        series = []
        for stop in MEMORY_STOPS:
            e = explore(args, tmp, *key, extra=["--max-executions", str(stop)])
            series.append((stop, e.r.maxrss_kib if e.ok else None))
        full = opt.get(key)
        series.append((full.get("executions") if full and full.ok else None,
                       full.r.maxrss_kib if full and full.ok else None))
        mem[key] = series
        row += ["-" if k is None else mb(k) for _, k in series]
        mrows.append(row)
    print_table(["program"] + [num(s) for s in MEMORY_STOPS] + ["all"], mrows)
    print()

    # ---- the goals
    def verdict(good):
        return "met" if good else "not met"

    print("goals (information; the exit status does not depend on time):")
    if rate:
        print("  at least 10,000 executions/s on lastzero(15), %d decisions each:  %s/s  %s"
              % (rate[1], num(int(rate[0])), verdict(rate[0] >= 10000)))
    for key in (("fib_bench", 5), ("lastzero", 15)):
        e = opt.get(key)
        if e and e.ok:
            print("  %s(%d) explored completely in under 10 s:  %s traces in %.2f s wall (%.2f s CPU)  %s"
                  % (key[0], key[1], num(e.get("traces")), e.r.seconds, e.r.cpu,
                     verdict(e.get("complete") and e.r.seconds < 10)))
    for key, series in mem.items():
        known = [(s, k) for s, k in series if k]
        if len(known) >= 2:
            (s0, k0), (s1, k1) = known[0], known[-1]
            grow = k1 / k0
            print("  memory roughly flat, %s(%d): %s MB after %s executions, %s MB after %s (%.1fx)  %s"
                  % (key[0], key[1], mb(k0), num(s0), mb(k1), num(s1), grow, verdict(grow <= 2.0)))
    shutil.rmtree(tmp, ignore_errors=True)
    if problems:
        print("%d problem%s (see above)" % (problems, "" if problems == 1 else "s"))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())

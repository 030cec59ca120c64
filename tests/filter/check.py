#!/usr/bin/env python3
"""TRaDe's differential test: --filter trade and accordion clocks change nothing a user sees.

    python3 tests/filter/check.py --drvm ./drvm [--seeds N] [--jobs J] [files...]

Every program of tests/races, tests/threads, tests/filter and lang-examples
(or the FILES given) runs under each detector the filter applies to (ft,
djit, basicvc, eraser, hybrid), with seeds 1..N (default 3) under the
native and the random scheduler: once plainly (`--clocks grow` for the
detectors accordion clocks apply to: ft, djit, basicvc) and once with
each of TRaDe's ideas, `--filter trade`, accordion clocks (their
default), and both.  Every variant must agree exactly with the plain run:
the same exit status, the same standard output and the same standard
error -- every race report with both accesses' stacks, the threads and
clocks named in its explanation, the summary, the race ids of
`--report json` -- except the rerun command, which names the options.
Under ft, one more variant runs with a trace beside the detector
(`--clocks grow --trace=/dev/null`): a second listener of accesses turns
the interpreter's inline check and its direct misses off (vm.h's
DrFastCheck), so every access reaches ft as an event -- the plain run,
answered mostly inline, must agree with it.
The variants must also say (--stats) that the filter filtered something,
that some clock slot was reused and that the plain runs answered accesses
inline, on at least one program each, so the test cannot pass with any of
them switched off.

Exit status 0 when every pair agrees, 1 otherwise.  Python 3 only.
"""

import argparse
import concurrent.futures
import glob
import json
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DETECTORS = ("ft", "djit", "basicvc", "eraser", "hybrid")
ACCORDION = ("ft", "djit", "basicvc")
SCHEDS = ("native", "random")
# (name, options): the plain run's options come first
VARIANTS = {"plain": [], "filter": ["--filter", "trade"], "accordion": ["--clocks", "accordion"],
            "both": ["--filter", "trade", "--clocks", "accordion"],
            "events": ["--clocks", "grow", "--trace=/dev/null"]}


def variants(det):
    if det == "ft":
        return ("filter", "accordion", "both", "events")
    return ("filter", "accordion", "both") if det in ACCORDION else ("filter",)


def plain_options(det):
    return ["--clocks", "grow"] if det in ACCORDION else []


def programs(args):
    if args.files:
        return args.files
    out = []
    for d in ("tests/races", "tests/threads", "tests/filter", "lang-examples"):
        out += sorted(glob.glob(os.path.join(ROOT, d, "*.dl")))
    return out


def stat(err, name):
    m = re.search(name + r"\s+(\d+)", err)
    return int(m.group(1)) if m else 0


def run(drvm, prog, det, sched, seed, variant, tmp):
    report = os.path.join(tmp, "r-%s-%s-%d-%s-%s.json" % (det, sched, seed, variant, os.path.basename(prog)))
    opts = VARIANTS[variant] if variant != "plain" else plain_options(det)
    cmd = [drvm, "run", "--detector", det, "--sched", sched, "--seed", str(seed), "--max-steps", "20000000",
           "--report", "json=" + report] + opts + ["--stats", prog]
    p = subprocess.run(cmd, stdin=subprocess.DEVNULL, capture_output=True, timeout=300)
    err = p.stderr.decode("utf-8", "replace")
    stats = (stat(err, "accesses filtered"), stat(err, "clock slots reused"), stat(err, "answered inline"))
    # drop the --stats block (its header and its indented lines) for the comparison
    kept, skipping = [], False
    for line in err.split("\n"):
        if line == "drvm: %s statistics" % det:
            skipping = True
            continue
        if skipping and line.startswith("  "):
            continue
        skipping = False
        kept.append(line)
    err = "\n".join(kept)
    for o in (" --filter trade", " --clocks accordion", " --clocks grow", " --trace=/dev/null"):
        err = err.replace(o, "")
    ids = []
    if os.path.exists(report):
        try:
            with open(report) as f:
                ids = sorted(r.get("id", "") for r in json.load(f).get("races", []))
        except (ValueError, OSError):
            ids = ["(unreadable report)"]
        os.unlink(report)
    return p.returncode, p.stdout, err, ids, stats


def check(drvm, prog, det, sched, seed, tmp):
    a = run(drvm, prog, det, sched, seed, "plain", tmp)
    what = "%s --detector %s --sched %s --seed %d" % (os.path.relpath(prog, ROOT), det, sched, seed)
    problems, filtered, reused = [], 0, 0
    for v in variants(det):
        b = run(drvm, prog, det, sched, seed, v, tmp)
        w = "%s (%s)" % (what, " ".join(VARIANTS[v]))
        if a[0] != b[0]:
            problems.append("%s: exit %d plainly, %d with it" % (w, a[0], b[0]))
        if a[1] != b[1]:
            problems.append("%s: standard output differs" % w)
        if a[3] != b[3]:
            problems.append("%s: race ids differ: %s / %s" % (w, a[3], b[3]))
        elif a[2] != b[2]:
            problems.append("%s: standard error differs" % w)
        if v in ("filter", "both"):
            filtered += b[4][0]
        if v in ("accordion", "both"):
            reused += b[4][1]
        if v == "events" and b[4][2]:
            problems.append("%s: %d accesses answered inline beside a trace" % (w, b[4][2]))
    return problems, filtered, reused, len(a[3]), len(variants(det)), a[4][2]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--drvm", default=os.path.join(ROOT, "drvm"))
    ap.add_argument("--seeds", type=int, default=3)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("files", nargs="*")
    args = ap.parse_args()
    progs = programs(args)
    jobs = [(p, d, s, seed) for p in progs for d in DETECTORS for s in SCHEDS for seed in range(1, args.seeds + 1)]
    problems, filtered, reused, races, pairs, inline = [], 0, 0, 0, 0, 0
    with tempfile.TemporaryDirectory() as tmp, concurrent.futures.ThreadPoolExecutor(args.jobs) as ex:
        for probs, f, r, n, k, i in ex.map(lambda j: check(args.drvm, j[0], j[1], j[2], j[3], tmp), jobs):
            inline += i
            problems += probs
            filtered += f
            reused += r
            races += n
            pairs += k
    for p in problems:
        print("FAIL " + p)
    print("trade: %d programs x %d detectors x %d schedulers x %d seeds: %d run pairs (filter, accordion clocks, "
          "both; ft beside a trace); %d races reported; %d accesses filtered; %d clock slots reused; %d accesses "
          "answered inline; %d differences"
          % (len(progs), len(DETECTORS), len(SCHEDS), args.seeds, pairs, races, filtered, reused, inline,
             len(problems)))
    if filtered == 0:
        print("FAIL the filter filtered no access at all: is it switched on?")
        return 1
    if reused == 0:
        print("FAIL no clock slot was ever reused: are accordion clocks switched on?")
        return 1
    if inline == 0:
        print("FAIL ft answered no access inline: is the interpreter's inline check switched on?")
        return 1
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())

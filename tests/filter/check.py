#!/usr/bin/env python3
"""The topological filter's differential test: --filter trade changes nothing a user sees.

    python3 tests/filter/check.py --drvm ./drvm [--seeds N] [--jobs J] [files...]

Every program of tests/races, tests/threads, tests/filter and lang-examples
(or the FILES given) runs under each detector the filter applies to (ft,
djit, basicvc, eraser, hybrid), with seeds 1..N (default 3) under the
native and the random scheduler, once without and once with
`--filter trade`.  The two runs must agree exactly: the same exit status,
the same standard output and the same standard error -- every race report
with both accesses' stacks, the summary, the race ids of `--report json`
-- except the rerun command, which names the filter.  A run with the
filter must also say (--stats) that it filtered something on at least
one program, so the test cannot pass with the filter switched off.

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
SCHEDS = ("native", "random")


def programs(args):
    if args.files:
        return args.files
    out = []
    for d in ("tests/races", "tests/threads", "tests/filter", "lang-examples"):
        out += sorted(glob.glob(os.path.join(ROOT, d, "*.dl")))
    return out


def run(drvm, prog, det, sched, seed, filt, tmp):
    report = os.path.join(tmp, "r-%s-%s-%d-%s.json" % (det, sched, seed, filt))
    cmd = [drvm, "run", "--detector", det, "--sched", sched, "--seed", str(seed), "--max-steps", "20000000",
           "--report", "json=" + report]
    if filt:
        cmd += ["--filter", "trade", "--stats"]
    cmd += [prog]
    p = subprocess.run(cmd, stdin=subprocess.DEVNULL, capture_output=True, timeout=300)
    err = p.stderr.decode("utf-8", "replace")
    stats = None
    if filt:
        m = re.search(r"accesses filtered\s+(\d+)", err)
        stats = int(m.group(1)) if m else None
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
    err = err.replace(" --filter trade", "")
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
    a = run(drvm, prog, det, sched, seed, False, tmp)
    b = run(drvm, prog, det, sched, seed, True, tmp)
    what = "%s --detector %s --sched %s --seed %d" % (os.path.relpath(prog, ROOT), det, sched, seed)
    problems = []
    if a[0] != b[0]:
        problems.append("%s: exit %d without the filter, %d with it" % (what, a[0], b[0]))
    if a[1] != b[1]:
        problems.append("%s: standard output differs" % what)
    if a[3] != b[3]:
        problems.append("%s: race ids differ: %s / %s" % (what, a[3], b[3]))
    elif a[2] != b[2]:
        problems.append("%s: standard error differs" % what)
    return problems, b[4] or 0, len(a[3])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--drvm", default=os.path.join(ROOT, "drvm"))
    ap.add_argument("--seeds", type=int, default=3)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("files", nargs="*")
    args = ap.parse_args()
    progs = programs(args)
    jobs = [(p, d, s, seed) for p in progs for d in DETECTORS for s in SCHEDS for seed in range(1, args.seeds + 1)]
    problems, filtered, races = [], 0, 0
    with tempfile.TemporaryDirectory() as tmp, concurrent.futures.ThreadPoolExecutor(args.jobs) as ex:
        for probs, f, n in ex.map(lambda j: check(args.drvm, j[0], j[1], j[2], j[3], tmp), jobs):
            problems += probs
            filtered += f
            races += n
    for p in problems:
        print("FAIL " + p)
    print("filter: %d programs x %d detectors x %d schedulers x %d seeds = %d run pairs; %d races reported; "
          "%d accesses filtered; %d differences"
          % (len(progs), len(DETECTORS), len(SCHEDS), args.seeds, len(jobs), races, filtered, len(problems)))
    if filtered == 0:
        print("FAIL the filter filtered no access at all: is it switched on?")
        return 1
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Tests of `drvm hunt` and `drvm racefuzz` (docs/hunt.md).

Standalone: python3 tests/hunt_test.py ./drvm
Prints "N passed, M failed" and exits non-zero on a failure.  The main
runner may import this file and call run_all(drvm) instead.
"""
import json
import os
import shlex
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LOST = os.path.join("lang-examples", "lostupdate.dl")
FIG2 = os.path.join("lang-examples", "drfinder_fig2.dl")


def run(drvm, args, timeout=300):
    p = subprocess.run([drvm] + args, cwd=ROOT, capture_output=True, text=True, timeout=timeout)
    return p.returncode, p.stdout, p.stderr


def normalize(doc, tmpdir):
    """A hunt's JSON without what legitimately differs between two hunts
    with the same seed: times and the run directory."""
    timing = {"mean_seconds", "slowdown", "seconds", "baseline_seconds", "phase1_seconds", "phase2_mean_seconds",
              "normal_seconds", "hybrid_seconds", "racefuzzer_seconds", "dir"}
    if isinstance(doc, dict):
        return {k: normalize(v, tmpdir) for k, v in doc.items() if k not in timing}
    if isinstance(doc, list):
        return [normalize(v, tmpdir) for v in doc]
    if isinstance(doc, str):
        return doc.replace(tmpdir, "DIR")
    return doc


def race_section(out):
    """The printed tables from the distinct races on (no times there)."""
    return out[out.index("Distinct races"):] if "Distinct races" in out else None


def test_hunt_same_seed_same_tables(drvm, tmp):
    results = []
    for jobs in ("1", "2"):
        d = os.path.join(tmp, "same-" + jobs)
        js = os.path.join(tmp, "same-%s.json" % jobs)
        code, out, err = run(drvm, ["hunt", LOST, "--runs", "3", "--seed", "1", "--techniques", "native,contest,pct",
                                    "--jobs", jobs, "--dir", d, "--json", js])
        assert code == 0, "exit %d: %s" % (code, err)
        assert "LostUpdate.count" in out, out
        with open(js) as f:
            doc = json.load(f)
        results.append((race_section(out).replace(d, "DIR"), normalize(doc, d)))
    assert results[0][0] == results[1][0], "race tables differ between --jobs 1 and 2"
    assert results[0][1] == results[1][1], "JSON differs between --jobs 1 and 2"
    doc = results[0][1]
    assert doc["runs"] == 3 and doc["seed"] == 1 and doc["total_races"] >= 1
    for t in ("native", "contest", "pct"):
        tech = doc["techniques"][t]
        for key in ("races", "found", "only", "missed", "cumulative", "failed_runs"):
            assert key in tech, (t, key)
        assert len(tech["cumulative"]) == 3
        assert tech["found"] + tech["missed"] == doc["total_races"]


def test_hunt_replay_reproduces(drvm, tmp):
    d = os.path.join(tmp, "replay")
    js = os.path.join(tmp, "replay.json")
    code, out, err = run(drvm, ["hunt", FIG2, "--runs", "3", "--seed", "5", "--dir", d, "--json", js,
                                "--techniques", "native,drfinder", "--jobs", "2"])
    assert code == 0, err
    with open(js) as f:
        doc = json.load(f)
    dr = doc["techniques"]["drfinder"]
    for key in ("thrash_rate", "phase1_seconds", "escorts", "reversals", "giveups", "restarts"):
        assert key in dr, key
    # --phase1 detect (the default): Phase I is DrFinder's run 1, no run apart
    assert dr["phase1"] == "detect"
    assert not os.path.exists(os.path.join(d, "drfinder-mtr-0.txt"))
    assert os.path.exists(os.path.join(d, "drfinder-mtr-1.txt"))
    assert os.path.exists(os.path.join(d, "drfinder-3.rec"))
    found = [r for t in doc["techniques"].values() for r in t["races"]]
    assert found, "no race found on drfinder_fig2.dl: " + out
    for race in found[:2]:
        argv = shlex.split(race["replay"])
        assert argv[:3] == ["drvm", "run", "--replay"], race["replay"]
        code, _, err = run(drvm, argv[1:])
        assert code == 66, "replay of %s: exit %d %s" % (race["replay"], code, err)


def test_hunt_bad_inputs(drvm, tmp):
    cases = [
        ["hunt"],
        ["hunt", "no/such/prog.dl"],
        ["hunt", LOST, "--runs", "0"],
        ["hunt", LOST, "--runs", "x"],
        ["hunt", LOST, "--jobs", "0"],
        ["hunt", LOST, "--techniques", "native,bogus"],
        ["hunt", LOST, "--techniques", "racefuzzer"],
        ["hunt", LOST, "--techniques", "native,native"],
        ["hunt", LOST, "--depth", "0"],
        ["hunt", LOST, "--frobnicate"],
        ["hunt", LOST, "--phase1", "both"],
        ["hunt", LOST, "--phase1"],
        ["hunt", LOST, "--order", "backward"],
        ["hunt", LOST, "--candidates", "all"],
        ["hunt", LOST, "--escorts", "0"],
        ["hunt", LOST, "--mtr-in", "x.txt"],
        ["hunt", LOST, "--seed"],
        ["racefuzz"],
        ["racefuzz", LOST, "--runs", "0"],
        ["racefuzz", "no/such/prog.dl"],
        ["racefuzz", LOST, "--jobs", "-1"],
    ]
    for args in cases:
        code, out, err = run(drvm, args + ["--dir", os.path.join(tmp, "bad")] if len(args) > 2 else args)
        assert code == 2, "%s: exit %d" % (args, code)
        assert err.startswith("drvm " + args[0] + ":"), "%s: stderr %r" % (args, err)


def test_hunt_drfinder_options(drvm, tmp):
    """--phase1 collect makes Phase I a run apart (drfinder-0, its relations
    in drfinder-mtr-0.txt) that reports no races; drfinder's own options
    reach every DrFinder run and no other technique's."""
    d = os.path.join(tmp, "drfopts")
    js = os.path.join(tmp, "drfopts.json")
    code, out, err = run(drvm, ["hunt", FIG2, "--runs", "2", "--seed", "3", "--dir", d, "--json", js,
                                "--techniques", "native,drfinder", "--phase1", "collect", "--order", "previous",
                                "--candidates", "able", "--escorts", "2"])
    assert code == 0, err
    with open(js) as f:
        dr = json.load(f)["techniques"]["drfinder"]
    assert dr["phase1"] == "collect"
    assert os.path.exists(os.path.join(d, "drfinder-mtr-0.txt"))
    assert not os.path.exists(os.path.join(d, "drfinder-0.json")), "Phase I apart runs no detector"
    for r in (0, 1, 2):
        with open(os.path.join(d, "drfinder-%d.sched.json" % r)) as f:
            rep = json.load(f)
        assert rep["order"] == "previous" and rep["candidates"] == "able", (r, rep)
    with open(os.path.join(d, "native-1.sched.json")) as f:
        assert "order" not in json.load(f)


def test_hunt_compile_error(drvm, tmp):
    prog = os.path.join(tmp, "broken.dl")
    with open(prog, "w") as f:
        f.write("public class Broken { public static void main(String[] args) { int x = ; } }\n")
    code, out, err = run(drvm, ["hunt", prog, "--runs", "2", "--seed", "1", "--dir", os.path.join(tmp, "broken")])
    assert code == 3, "exit %d" % code
    assert "compile error" in err and "broken.dl" in err, err


def test_help(drvm, tmp):
    for cmd in ("hunt", "racefuzz"):
        code, out, err = run(drvm, [cmd, "--help"])
        assert code == 0 and out.startswith("usage: drvm " + cmd), out


def racefuzzer_available(drvm):
    code, _, err = run(drvm, ["run", "--sched", "racefuzzer", "--detector", "none", LOST])
    return "unknown scheduler" not in err


def test_racefuzz(drvm, tmp):
    if not racefuzzer_available(drvm):
        print("  (skipped: drvm has no racefuzzer scheduler yet)")
        return
    d = os.path.join(tmp, "rf")
    js = os.path.join(tmp, "rf.json")
    code, out, err = run(drvm, ["racefuzz", LOST, "--runs", "5", "--seed", "2", "--jobs", "2", "--dir", d,
                                "--json", js])
    assert code == 0, err
    with open(js) as f:
        doc = json.load(f)
    assert doc["potential_races"] >= 1 and len(doc["pairs"]) == doc["potential_races"]
    assert doc["real_races"] >= 1, out
    assert os.path.exists(os.path.join(d, "pairs.txt"))


TESTS = [test_hunt_same_seed_same_tables, test_hunt_replay_reproduces, test_hunt_bad_inputs, test_hunt_drfinder_options,
         test_hunt_compile_error,
         test_help, test_racefuzz]


def run_all(drvm):
    drvm = os.path.abspath(drvm)
    passed = failed = 0
    with tempfile.TemporaryDirectory(prefix="drvm-hunt-test-") as tmp:
        for t in TESTS:
            try:
                t(drvm, tmp)
                passed += 1
            except Exception as e:  # a failed check or a crash: report and go on
                failed += 1
                print("FAIL %s: %s" % (t.__name__, e))
    print("%d passed, %d failed" % (passed, failed))
    return failed == 0


if __name__ == "__main__":
    sys.exit(0 if run_all(sys.argv[1] if len(sys.argv) > 1 else "./drvm") else 1)

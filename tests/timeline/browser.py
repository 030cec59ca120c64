#!/usr/bin/env python3
"""The timeline page in a real browser: headless Chromium, driven over the
DevTools protocol (tests/timeline/cdp.py, standard library only).

  browser.py [--drvm ./drvm] [--shots DIR] [--no-samples] [--big N] [PAGE.html ...]

For each page (those given, those made with --drvm from a few
lang-examples programs, and the samples of tests/timeline/samples/ put
into cli/timeline_page.html): it loads without script or console errors
and without network requests, draws one column per thread and lists
every race of its JSON, a real mouse click on each race's link shows that
race's report, a click on an event shows its details; a screenshot of
each goes to --shots.  The 10^5-event sample's timings are printed (they
never fail the test).  One line per check; exit 1 on any failure.  No
Chromium (and none to install): a SKIP line and exit 0.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "samples"))
import cdp  # noqa: E402
import gen  # noqa: E402

PROGRAMS = ["repl_lostupdate.dl", "racefuzzer_fig1.dl", "pingpong.dl", "drfinder_fig2.dl", "prodcons.dl",
            "lostupdate.dl"]
SEED = "7"

passed = failed = 0


def check(ok, name, what, why=""):
    global passed, failed
    if ok:
        passed += 1
        print("ok   %s: %s" % (name, what))
    else:
        failed += 1
        print("FAIL %s: %s%s" % (name, what, (" (" + why + ")") if why else ""))
    sys.stdout.flush()
    return ok


def page_data(path):
    """The JSON inside a page, read here independently of the page's script."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    m = re.search(r'<script id="drvm-data" type="application/json">(.*?)</script>', text, re.S)
    if not m:
        raise ValueError("no drvm-data element")
    return json.loads(m.group(1))


def make_pages(drvm, out):
    pages = []
    for prog in PROGRAMS:
        src = os.path.join(ROOT, "lang-examples", prog)
        if not os.path.exists(src):
            continue
        html = os.path.join(out, prog.replace(".dl", ".html"))
        r = subprocess.run([drvm, "run", "--timeline", html, "--seed", SEED, src],
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=120,
                           stdin=subprocess.DEVNULL)
        # 66: races found; other outcomes are fine too, as long as a page was written
        if check(os.path.exists(html), prog, "drvm run --timeline wrote a page",
                 "exit %d: %s" % (r.returncode, r.stderr.decode(errors="replace")[-300:])):
            pages.append(html)
    return pages


def make_samples(out, big):
    with open(os.path.join(ROOT, "cli", "timeline_page.html"), encoding="utf-8") as f:
        template = f.read()
    samples = [("sample-small", open(os.path.join(HERE, "samples", "small.json")).read()),
               ("sample-edge", json.dumps(gen.edge())),
               ("sample-empty", json.dumps(gen.empty()))]
    if big:
        samples.append(("sample-big", json.dumps(gen.big(big), separators=(",", ":"))))
    pages = []
    for name, text in samples:
        path = os.path.join(out, name + ".html")
        with open(path, "w", encoding="utf-8") as f:
            f.write(gen.embed(template, text))
        pages.append(path)
    return pages


def problems(events):
    """Script errors, console errors and network requests seen."""
    out = []
    for method, p in events:
        if method == "Runtime.exceptionThrown":
            d = p.get("exceptionDetails", {})
            out.append("exception: %s" % (d.get("exception", {}).get("description") or d.get("text")))
        elif method == "Runtime.consoleAPICalled" and p.get("type") in ("error", "assert", "warning"):
            out.append("console.%s: %s" % (p["type"], " ".join(str(a.get("value", a.get("description")))
                                                            for a in p.get("args", []))))
        elif method == "Log.entryAdded" and p.get("entry", {}).get("level") == "error":
            out.append("log: %s" % p["entry"].get("text"))
        elif method == "Network.requestWillBeSent":
            url = p.get("request", {}).get("url", "")
            if not url.startswith(("file:", "data:", "about:")):
                out.append("network request: %s" % url)
    return out


def load(b, path):
    b.events.clear()
    b.call("Page.navigate", {"url": "file://" + os.path.abspath(path)})
    b.wait_event("Page.loadEventFired", timeout=60)
    deadline = time.time() + 60
    while time.time() < deadline:
        if b.eval("!!(window.drvmTimeline && window.drvmTimeline.ready)"):
            return True
        time.sleep(0.05)
    return False


def test_page(b, path, shots, big):
    name = os.path.basename(path).replace(".html", "")
    try:
        data = page_data(path)
    except (ValueError, OSError) as e:
        check(False, name, "the page holds its JSON", str(e))
        return
    ready = load(b, path)
    probs = problems(b.events)
    check(not probs, name, "no script errors, console errors or network requests", "; ".join(probs[:5]))
    if not check(ready, name, "the page drew itself (drvmTimeline.ready)"):
        return
    cols = b.eval("drvmTimeline.columnCount()")
    check(cols == len(data["threads"]), name, "%d columns, one per thread" % len(data["threads"]),
          "the page drew %s" % cols)
    listed = b.eval("document.querySelectorAll('#race-list li').length")
    check(listed == len(data["races"]) and b.eval("drvmTimeline.raceCount()") == len(data["races"]),
          name, "%d races listed" % len(data["races"]), "the page lists %s" % listed)
    rows = b.eval("drvmTimeline.rowCount()")
    check((rows > 0) == (len(data["events"]) > 0), name, "rows drawn for the events (%s rows)" % rows)
    summary = b.eval("document.getElementById('summary').textContent")
    check(str(len(data["events"])) in summary and str(len(data["races"])) in summary, name,
          "the summary counts events and races", summary)

    # the races: a real click at each one's link shows its report
    for q, race in enumerate(data["races"][:4]):
        pt = b.eval("drvmTimeline.racePoint(%d)" % q)
        if not check(pt is not None, name, "race %d is drawn" % (q + 1)):
            continue
        b.click(pt["x"], pt["y"])
        sel = b.eval("drvmTimeline.selected()")
        j = sel["i"] if sel and sel.get("type") == "race" else None
        same = j is not None and (j == q or (data["races"][j]["cur"], data["races"][j]["prev"])
                                  == (race["cur"], race["prev"]))
        shown = b.eval("(document.getElementById('race-text') || {}).textContent || ''")
        # the report's lines (the page leaves out its ===== rulers)
        want = [l for l in data["races"][j]["text"].split("\n") if l.strip("=")] if j is not None else [None]
        check(same and all(l in shown for l in want), name,
              "a click on race %d shows its report" % (q + 1),
              "selected %s, panel shows %r" % (sel, shown[:80]))
        if q == 0:
            b.screenshot(os.path.join(shots, name + "-race.png"))

    # an event: the first race's access, else the first event
    if data["events"]:
        i = data["races"][0]["cur"] if data["races"] else 0
        pt = b.eval("drvmTimeline.eventPoint(%d)" % i)
        if check(pt is not None, name, "event #%d is drawn" % i):
            b.click(pt["x"], pt["y"])
            sel = b.eval("drvmTimeline.selected()")
            text = b.eval("document.getElementById('detail').textContent")
            check(sel == {"type": "event", "i": i} and ("#%d" % i) in text, name,
                  "a click on event #%d shows its details" % i, "selected %s" % sel)
    if name == "sample-small":
        interact(b, name, data)
    b.eval("window.scrollTo(0,0); document.getElementById('scroller').scrollTop = 0; 0")
    b.screenshot(os.path.join(shots, name + ".png"))
    probs = problems(b.events)
    check(not probs, name, "no errors while clicking", "; ".join(probs[:5]))

    if big:
        st = b.eval("drvmTimelineStats")
        # real wheel scrolling: the draws it causes
        b.eval("Object.assign(drvmTimelineStats, {draws: 0, drawTotalMs: 0, drawMaxMs: 0}); 0")
        for k in range(30):
            b.wheel(500, 500, 600)
        time.sleep(0.3)
        wheel = b.eval("drvmTimelineStats")
        bench = b.eval("drvmTimeline.bench()")
        print("     %s: %d events, %d rows: parse %.1f ms, layout %.1f ms, first draw %.1f ms, "
              "first paint %.0f ms after navigation start" % (name, st["events"], st["rows"], st["parseMs"],
                                                             st["layoutMs"], st["firstDrawMs"], st["firstPaintMs"]))
        if wheel["draws"]:
            print("     %s: wheel scrolling: %d frames, %.2f ms per draw (max %.2f ms)"
                  % (name, wheel["draws"], wheel["drawTotalMs"] / wheel["draws"], wheel["drawMaxMs"]))
        print("     %s: scroll redraw %.2f ms, zoom (relayout + redraw) %.2f ms, filter %.1f ms, unfilter %.1f ms"
              % (name, bench["scrollFrameMs"], bench["zoomFrameMs"], bench["filterMs"], bench["unfilterMs"]))
        print("     %s: folding off: relayout %.1f ms, %d rows, scroll redraw %.2f ms"
              % (name, bench["unfoldMs"], bench["unfoldedRows"], bench["unfoldedScrollFrameMs"]))
        probs = problems(b.events)
        check(not probs, name, "no errors while scrolling and zooming", "; ".join(probs[:5]))


def interact(b, name, data):
    """Keys, ctrl+wheel and unfolding, on the hand-written sample (which has
    a folded run of local accesses at event 4)."""
    b.eval("document.getElementById('scroller').focus(); 0")
    for key in ("n", "n"):
        b.call("Input.dispatchKeyEvent", {"type": "keyDown", "key": key, "text": key,
                                          "code": "Key" + key.upper()})
        b.call("Input.dispatchKeyEvent", {"type": "keyUp", "key": key, "code": "Key" + key.upper()})
    sel = b.eval("drvmTimeline.selected()")
    check(sel and sel.get("type") == "race", name, "the n key steps to a race", "selected %s" % sel)
    h0 = b.eval("drvmTimeline.rowHeight()")
    b.wheel(400, 400, -100, ctrl=True)
    h1 = b.eval("drvmTimeline.rowHeight()")
    b.wheel(400, 400, 100, ctrl=True)
    b.wheel(400, 400, 100, ctrl=True)
    h2 = b.eval("drvmTimeline.rowHeight()")
    check(h1 > h0 > h2, name, "ctrl+wheel zooms in and out", "row heights %s, %s, %s" % (h0, h1, h2))
    b.eval("drvmTimeline.setZoom(7)")
    rows = b.eval("drvmTimeline.rowCount()")
    pt = b.eval("drvmTimeline.eventPoint(4)")
    if check(pt is not None, name, "the folded run is drawn"):
        b.click(pt["x"], pt["y"])
        after = b.eval("drvmTimeline.rowCount()")
        check(after == rows + 2, name, "a click unfolds 3 local accesses", "rows %s -> %s" % (rows, after))

    # hiding a thread hides its column; the races it is in are no longer drawn
    b.eval("(b => { b.checked = false; b.dispatchEvent(new Event('change', {bubbles: true})); })"
           "(document.querySelector('#threads-list input[data-t=\"2\"]')); 0")
    cols = b.eval("drvmTimeline.columnCount()")
    stub = b.eval("drvmTimeline.racePoint(0)")      # its other end is still there: a stub
    check(cols == len(data["threads"]) - 1 and stub is not None, name, "unchecking thread b hides its column",
          "%s columns, race 1 at %s" % (cols, stub))
    b.eval("document.getElementById('threads-all').click(); 0")
    # the location filter, typed: the accesses to other locations go
    full = b.eval("drvmTimeline.rowCount()")
    b.eval("document.getElementById('filter').focus(); 0")
    b.call("Input.insertText", {"text": "Counter#1"})
    time.sleep(0.4)
    ctx_rows = b.eval("drvmTimeline.rowCount()")
    b.eval("(s => { s.value = 'only'; s.dispatchEvent(new Event('change')); })(document.getElementById('filter-mode')); 0")
    only_rows = b.eval("drvmTimeline.rowCount()")
    # Counter#1: 5 accesses, 2 locks, 2 unlocks
    check(full > ctx_rows > only_rows == 9, name, "the location filter keeps the matches (and the rest of the "
          "synchronization unless 'matches only')", "rows %s, %s, %s" % (full, ctx_rows, only_rows))
    b.eval("(s => { s.value = 'context'; s.dispatchEvent(new Event('change')); })(document.getElementById('filter-mode'));"
           "(f => { f.value = ''; f.dispatchEvent(new Event('input')); })(document.getElementById('filter')); 0")
    time.sleep(0.4)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("pages", nargs="*", help="pages made by drvm run --timeline")
    ap.add_argument("--drvm", help="make pages with this drvm from a few lang-examples programs")
    ap.add_argument("--shots", help="where the screenshots go (default: a temporary directory)")
    ap.add_argument("--no-samples", action="store_true", help="skip the samples of tests/timeline/samples")
    ap.add_argument("--big", type=int, default=100000, help="events of the generated sample (0: none)")
    args = ap.parse_args()

    exe = cdp.find_chromium()
    if not exe:
        why = cdp.install_chromium()
        exe = cdp.find_chromium()
        if not exe:
            print("SKIP: timeline browser test (%s)" % why)
            return 0
    work = tempfile.mkdtemp(prefix="drvm-timeline-")
    shots = args.shots or os.path.join(work, "shots")
    os.makedirs(shots, exist_ok=True)
    pages = list(args.pages)
    if args.drvm:
        pages += make_pages(args.drvm, work)
    if not args.no_samples:
        pages += make_samples(work, args.big)
    if not pages:
        print("SKIP: timeline browser test (no page given)")
        return 0
    try:
        b = cdp.Browser(exe)
    except (RuntimeError, OSError) as e:
        check(False, "chromium", "starts", str(e))
        return 1
    try:
        for domain in ("Page", "Runtime", "Log", "Network"):
            b.call(domain + ".enable")
        for path in pages:
            big = os.path.basename(path) == "sample-big.html"
            try:
                test_page(b, path, shots, big)
            except (RuntimeError, ConnectionError, TimeoutError, OSError) as e:
                check(False, os.path.basename(path), "the test ran", str(e))
                if isinstance(e, ConnectionError):
                    break
    finally:
        b.close()
    print("screenshots: %s" % shots)
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

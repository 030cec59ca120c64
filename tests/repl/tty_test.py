#!/usr/bin/env python3
"""`drvm repl` at a real terminal, driven through tmux.

    python3 tests/repl/tty_test.py [--drvm PATH]

Script mode (run.py) has no prompt, no readline and no colours; this test
runs the REPL in a tmux pane, types at it and reads the screen:

  - the prompt "(drvm #N)", and "(drvm end)" once the run is over
  - Tab completes a command name, a Class.field, and lists the threads
  - Up recalls the previous command (readline's history)
  - Ctrl-C at the prompt drops the line and keeps the session
  - Ctrl-C during a continue that never ends (spin.dl: a thread
    incrementing a static field forever) stops it: "interrupted", and a
    prompt again
  - Ctrl-D at an empty prompt ends the session (exit status 0)
  - colours on a terminal, none with NO_COLOR=1 (capture-pane -e shows
    the escape sequences)

Each session has its own tmux server (tmux -S, a socket in a temporary
directory) and a unique session name; both are killed and the directory
removed at the end, whatever happens.  Screens are polled until what is
awaited appears, with a timeout.  Exits 0 with a SKIP line when tmux is
not installed; otherwise prints "N passed, M failed" and exits 1 on a
failure, with the screen it saw.  Python 3 standard library only.
"""
import argparse
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
ESC = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
passed = failed = 0


class Failure(Exception):
    pass


class Pane:
    """One drvm repl in a tmux pane of its own server."""

    count = 0

    def __init__(self, drvm, args, env=None, width=120, height=40):
        Pane.count += 1
        self.name = "drvm-tty-%d-%d" % (os.getpid(), Pane.count)
        self.dir = tempfile.mkdtemp(prefix="drvm-tty-")
        self.socket = os.path.join(self.dir, "tmux")
        env_words = " ".join("%s=%s" % (k, shlex.quote(v)) for k, v in (env or {}).items())
        # after the REPL ends the pane says how, and stays for the test to read it
        cmd = "cd %s && env %s %s repl %s; echo \"[exit $?]\"; sleep 600" % (
            shlex.quote(HERE), env_words, shlex.quote(drvm), " ".join(shlex.quote(a) for a in args))
        self.tmux("new-session", "-d", "-s", self.name, "-x", str(width), "-y", str(height), cmd)

    def tmux(self, *args):
        return subprocess.run(["tmux", "-S", self.socket, "-f", "/dev/null"] + list(args), capture_output=True,
                              text=True, timeout=10)

    def keys(self, *keys):
        self.tmux("send-keys", "-t", self.name, *keys)

    def type(self, text):
        self.tmux("send-keys", "-t", self.name, "-l", text)

    def screen(self, escapes=False):
        p = self.tmux("capture-pane", "-p", "-t", self.name, *(["-e"] if escapes else []))
        return p.stdout

    def wait(self, pattern, timeout=10, escapes=False):
        """Polls the screen until pattern (a regex) matches it; returns the match."""
        deadline = time.time() + timeout
        while True:
            s = self.screen(escapes)
            m = re.search(pattern, s, re.M)
            if m:
                return m
            if time.time() > deadline:
                raise Failure("waited %ss for %r; the screen:\n%s" % (timeout, pattern, s))
            time.sleep(0.05)

    def prompt(self, pattern, timeout=10):
        """Polls until the last line of the screen that is not blank is the
        prompt pattern (trailing blanks dropped, as capture-pane does)."""
        deadline = time.time() + timeout
        while True:
            lines = [l.rstrip() for l in self.screen().split("\n") if l.strip()]
            m = re.fullmatch(pattern, lines[-1]) if lines else None
            if m:
                return m
            if time.time() > deadline:
                raise Failure("waited %ss for the prompt %r; the screen:\n%s" % (timeout, pattern, self.screen()))
            time.sleep(0.05)

    def close(self):
        """Leaves the REPL if it still runs (it removes its temporary
        directory on the way out), then kills the session and the server."""
        try:
            if "[exit" not in self.screen():
                self.keys("C-c")
                self.keys("C-u")
                self.type("quit")
                self.keys("Enter")
                deadline = time.time() + 3
                while "[exit" not in self.screen() and time.time() < deadline:
                    time.sleep(0.05)
            self.tmux("kill-session", "-t", self.name)
            self.tmux("kill-server")
        finally:
            shutil.rmtree(self.dir, ignore_errors=True)


def check(name, fn, *args):
    global passed, failed
    try:
        fn(*args)
        passed += 1
    except Failure as e:
        failed += 1
        print("FAIL %s: %s" % (name, e), flush=True)
    except subprocess.TimeoutExpired as e:
        failed += 1
        print("FAIL %s: tmux did not answer: %s" % (name, e), flush=True)


def expect(cond, what, pane):
    if not cond:
        raise Failure("%s; the screen:\n%s" % (what, pane.screen()))


def prompt_and_completion(drvm):
    p = Pane(drvm, ["--seed", "1", "lost.dl"], {"TERM": "xterm-256color"})
    try:
        p.prompt(r"\(drvm #9\)")
        p.wait(r"you are the scheduler")
        # a command name: "thr" + Tab gives "threads "
        p.type("thr")
        p.keys("Tab")
        p.prompt(r"\(drvm #9\) threads")
        p.keys("Enter")
        p.wait(r"^  T1  Thread-0   about to read Lost\.count")
        p.prompt(r"\(drvm #9\)")
        # Up: the previous command again
        p.keys("Up")
        p.prompt(r"\(drvm #9\) threads")
        p.keys("C-u")
        p.prompt(r"\(drvm #9\)")
        # a Class.field: "print Lost.c" + Tab gives "print Lost.count "
        p.type("print Lost.c")
        p.keys("Tab")
        p.prompt(r"\(drvm #9\) print Lost\.count")
        p.keys("Enter")
        p.wait(r"^  Lost\.count = 0$")
        # a thread: "step T" + Tab Tab lists T0 and T1; "1" makes it T1
        p.type("step T")
        p.keys("Tab")
        p.keys("Tab")
        p.wait(r"^T0\s+T1\s*$")
        p.type("1")
        p.keys("Enter")
        p.prompt(r"\(drvm #10\)")
        expect("about to write Lost.count" in p.screen(), "step T1 did not move T1 to its write", p)
        # the alias of a command completes to the command: "cont" + Tab
        p.type("cont")
        p.keys("Tab")
        p.prompt(r"\(drvm #10\) continue")
        p.keys("Enter")
        p.prompt(r"\(drvm #\d+\)", timeout=10)
        p.type("continue")
        p.keys("Enter")
        p.wait(r"^\| count = \d$")
        p.prompt(r"\(drvm end\)")
    finally:
        p.close()


def ctrl_c_at_prompt(drvm):
    p = Pane(drvm, ["--seed", "1", "lost.dl"], {"TERM": "xterm-256color"})
    try:
        p.prompt(r"\(drvm #9\)")
        p.type("frobnicate this line")
        p.prompt(r"\(drvm #9\) frobnicate this line")
        p.keys("C-c")
        # a fresh, empty prompt; the dropped line was not run
        p.prompt(r"\(drvm #9\)")
        p.type("where T1")
        p.keys("Enter")
        p.wait(r"^  holds: no lock$")
        expect("unknown command" not in p.screen(), "Ctrl-C ran the line it should drop", p)
        expect("[exit" not in p.screen(), "Ctrl-C ended the session", p)
        # Ctrl-D at an empty prompt: the session ends, status 0
        p.prompt(r"\(drvm #9\)")
        p.keys("C-d")
        p.wait(r"^\[exit 0\]$")
    finally:
        p.close()


def ctrl_c_during_continue(drvm):
    p = Pane(drvm, ["--seed", "1", "spin.dl"], {"TERM": "xterm-256color"})
    try:
        p.prompt(r"\(drvm #5\)")
        p.type("continue")
        p.keys("Enter")
        time.sleep(0.5)  # let it run (it never ends by itself)
        expect(re.search(r"^\(drvm #5\) continue$", p.screen(), re.M) and "interrupted" not in p.screen(),
               "continue on spin.dl did not keep running", p)
        p.keys("C-c")
        p.wait(r"stopped: interrupted$")
        m = p.prompt(r"\(drvm #(\d+)\)")
        expect(int(m.group(1)) > 5, "the interrupted continue did not move", p)
        expect(re.search(r"^\* T1  Thread-0   about to (read|write) Spin\.x", p.screen(), re.M),
               "the spinner is not where it loops", p)
        # the session goes on: a command, then quit
        p.type("print Spin.x")
        p.keys("Enter")
        p.wait(r"^  Spin\.x = \d+$")
        p.type("quit")
        p.keys("Enter")
        p.wait(r"^\[exit 0\]$")
    finally:
        p.close()


def colours(drvm):
    on = Pane(drvm, ["--seed", "1", "lost.dl"], {"TERM": "xterm-256color"})
    off = Pane(drvm, ["--seed", "1", "lost.dl"], {"TERM": "xterm-256color", "NO_COLOR": "1"})
    try:
        for p in (on, off):
            p.prompt(r"\(drvm #9\)")
            p.type("step T1")
            p.keys("Enter")
            p.prompt(r"\(drvm #10\)")
            p.type("frobnicate")
            p.keys("Enter")
            p.wait(r"^error: unknown command 'frobnicate'")
            p.prompt(r"\(drvm #10\)")
        coloured = on.screen(escapes=True)
        expect(ESC.search(coloured), "no escape sequence on a colour terminal", on)
        expect(re.search(r"\x1b\[1m\(drvm #10\)", coloured), "the prompt is not bold", on)
        plain = off.screen(escapes=True)
        expect(not ESC.search(plain), "NO_COLOR=1 still gives escape sequences: %r" %
               sorted(set(ESC.findall(plain))), off)
        expect(re.search(r"^\(drvm #10\) ?$", plain, re.M) and "error: unknown command" in plain,
               "NO_COLOR=1: the screen lacks the prompt or the error", off)
    finally:
        on.close()
        off.close()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--drvm", default=os.path.join(ROOT, "drvm"))
    o = ap.parse_args()
    if not shutil.which("tmux"):
        print("SKIP tests/repl/tty_test.py: tmux is not installed")
        return 0
    drvm = os.path.abspath(o.drvm)
    if not os.access(drvm, os.X_OK):
        sys.exit("tty_test.py: no drvm at %s (make drvm)" % drvm)
    start = time.time()
    check("prompt, Tab completion, Up", prompt_and_completion, drvm)
    check("Ctrl-C at the prompt, Ctrl-D", ctrl_c_at_prompt, drvm)
    check("Ctrl-C during continue", ctrl_c_during_continue, drvm)
    check("colours and NO_COLOR", colours, drvm)
    print("repl at a terminal: %d passed, %d failed (%.1f s)" % (passed, failed, time.time() - start))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""drvm on hostile inputs (issue 18; Python 3 standard library only).

    python3 tests/robustness/run.py [--drvm ./drvm] [-j N] [--filter SUBSTR]
                                    [--keep] [-v] [cases/FILE ...]

Runs every case in tests/robustness/cases/ and checks that drvm answers
each with a clear message and its documented exit status: never a crash,
a hang, an internal error or a sanitizer's report.  A case is a few lines
in a file: `NAME.case` holds one (named after the file), `NAME.cases`
several, separated by lines `---`, each named by its `name:` line.  Lines
`# ...` are comments.  In order of use:

  name: NAME          (in a .cases file) the case's name, NAME.cases:NAME
  file: NAME <<END    a file in the case's directory: the lines up to END.
                      `\\xNN` is the byte NN (a NUL, bytes that are not
                      UTF-8); {{TEXT*N}} is TEXT N times, with {i} in TEXT
                      the repetition's number (0, 1, ...) and \\n a newline,
                      so big inputs are made on the fly, never committed
  random: NAME SIZE SEED [nonul]   SIZE bytes of seeded garbage (nonul:
                      without NUL bytes)
  sparse: NAME SIZE   a file of SIZE bytes (a hole: costs no disk), SIZE
                      as 257M
  fifo: NAME          a FIFO that a writer fills with 'a' until drvm stops
                      reading it
  mkdir: NAME         a directory
  before: ARGS        drvm ARGS first (its status is not checked): to make a
                      recording, say
  stdin: PATH         drvm's standard input (default /dev/null)
  stdout-to: PATH     drvm's standard output goes to PATH (/dev/full), not
                      to the runner
  cmd: ARGS           drvm's arguments, split as by a shell ({{TEXT*N}} as
                      above); {tmp} is the case's directory (drvm's working
                      directory too), {root} the repository
  exit: N             the exit status drvm must end with
  stderr: REGEX       the first line of standard error, all of it ("" when
                      standard error is empty)
  stderr-has: REGEX   (repeatable) some line of standard error has a match
  stdout: REGEX       the first line of standard output, all of it
  timeout: S          seconds drvm may take (default 30): longer is a hang
  asan: skip REASON   not run against a sanitizer build

Every case also fails when drvm dies by a signal, when standard error says
"internal error" or has a report of AddressSanitizer, LeakSanitizer or
UndefinedBehaviorSanitizer.  A sanitizer build (found by its symbols) runs
with ASAN_OPTIONS=detect_leaks=1 and a timeout three times as long.

Prints "FAIL CASE: why" with the command for each failure, then
"N passed, M failed" (and the skipped), and exits non-zero on a failure.
"""
import argparse
import concurrent.futures
import os
import random
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import threading

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
CASES = os.path.join(HERE, "cases")
BAD_OUTPUT = [
    ("internal error", re.compile(r"internal error")),
    ("an AddressSanitizer report", re.compile(r"AddressSanitizer")),
    ("a LeakSanitizer report", re.compile(r"LeakSanitizer")),
    ("an UndefinedBehaviorSanitizer report", re.compile(r"runtime error:|UndefinedBehaviorSanitizer")),
]


class CaseError(Exception):
    pass


class Case:
    def __init__(self, name, where):
        self.name = name
        self.where = where
        self.setup = []          # (kind, args)
        self.cmd = None
        self.stdin = "/dev/null"
        self.stdout_to = None
        self.exit = None
        self.stderr = None
        self.stderr_has = []
        self.stdout = None
        self.timeout = 30.0
        self.asan_skip = None


def unescape(text):
    """\\xNN escapes to bytes; everything else as UTF-8."""
    out = bytearray()
    pos = 0
    for m in re.finditer(r"\\x([0-9A-Fa-f]{2})", text):
        out += text[pos:m.start()].encode("utf-8")
        out.append(int(m.group(1), 16))
        pos = m.end()
    out += text[pos:].encode("utf-8")
    return bytes(out)


def expand(text):
    """{{TEXT*N}}: TEXT N times ({i}: the repetition, \\n: a newline)."""
    def rep(m):
        unit, n = m.group(1).replace("\\n", "\n"), int(m.group(2))
        if "{i}" not in unit:
            return unit * n
        return "".join(unit.replace("{i}", str(i)) for i in range(n))
    return re.sub(r"\{\{(.*?)\*(\d+)\}\}", rep, text, flags=re.S)


def size_of(text):
    m = re.fullmatch(r"(\d+)([KMG]?)", text)
    if not m:
        raise CaseError("bad size %r" % text)
    return int(m.group(1)) << {"": 0, "K": 10, "M": 20, "G": 30}[m.group(2)]


def parse_stanza(lines, name, where):
    case = Case(name, where)
    i = 0
    while i < len(lines):
        line = lines[i]
        i += 1
        if not line.strip() or line.startswith("#"):
            continue
        key, sep, value = line.partition(":")
        if not sep:
            raise CaseError("%s: not 'key: value': %r" % (where, line))
        key, value = key.strip(), value.strip()
        if key == "name":
            case.name = value
        elif key == "file":
            m = re.fullmatch(r"(\S+)\s+<<(\w+)", value)
            if not m:
                raise CaseError("%s: file: NAME <<END" % where)
            body = []
            while i < len(lines) and lines[i] != m.group(2):
                body.append(lines[i])
                i += 1
            if i == len(lines):
                raise CaseError("%s: file %s has no end line %s" % (where, m.group(1), m.group(2)))
            i += 1
            case.setup.append(("file", (m.group(1), "\n".join(body) + "\n")))
        elif key in ("random", "sparse", "fifo", "mkdir"):
            case.setup.append((key, value.split()))
        elif key == "before":
            case.setup.append(("before", value))
        elif key == "stdin":
            case.stdin = value
        elif key == "stdout-to":
            case.stdout_to = value
        elif key == "cmd":
            case.cmd = value
        elif key == "exit":
            case.exit = int(value)
        elif key == "stderr":
            case.stderr = re.compile(value)
        elif key == "stderr-has":
            case.stderr_has.append(re.compile(value))
        elif key == "stdout":
            case.stdout = re.compile(value)
        elif key == "timeout":
            case.timeout = float(value)
        elif key == "asan":
            if not value.startswith("skip"):
                raise CaseError("%s: asan: skip REASON" % where)
            case.asan_skip = value[4:].strip() or "skipped"
        else:
            raise CaseError("%s: unknown key %r" % (where, key))
    if case.cmd is None or case.exit is None or case.stderr is None:
        raise CaseError("%s: a case needs cmd:, exit: and stderr:" % where)
    return case


def load(path):
    text = open(path, encoding="utf-8").read()
    base = os.path.basename(path)
    if path.endswith(".case"):
        return [parse_stanza(text.splitlines(), base[:-len(".case")], base)]
    cases = []
    for k, stanza in enumerate(re.split(r"^---$", text, flags=re.M)):
        lines = stanza.splitlines()
        if not any(l.strip() and not l.startswith("#") for l in lines):
            continue
        c = parse_stanza(lines, None, "%s stanza %d" % (base, k + 1))
        if not c.name:
            raise CaseError("%s stanza %d has no name:" % (base, k + 1))
        c.name = "%s:%s" % (base[:-len(".cases")], c.name)
        cases.append(c)
    return cases


def fill_fifo(path, stop):
    """Writes to the FIFO until its reader goes (or the case is over)."""
    try:
        fd = os.open(path, os.O_WRONLY)
    except OSError:
        return
    chunk = b"a" * 65536
    try:
        while not stop.is_set():
            os.write(fd, chunk)
    except OSError:
        pass
    finally:
        os.close(fd)


def subst(text, tmp):
    return text.replace("{tmp}", tmp).replace("{root}", ROOT)


def prepare(case, tmp, drvm, env, threads, stop):
    for kind, args in case.setup:
        if kind == "file":
            name, body = args
            with open(os.path.join(tmp, name), "wb") as f:
                f.write(unescape(expand(body)))
        elif kind == "random":
            name, size, seed = args[0], size_of(args[1]), int(args[2])
            rng = random.Random(seed)
            data = bytearray(rng.getrandbits(8) for _ in range(size))
            if "nonul" in args[3:]:
                data = data.replace(b"\0", b"\1")
            with open(os.path.join(tmp, name), "wb") as f:
                f.write(data)
        elif kind == "sparse":
            with open(os.path.join(tmp, args[0]), "wb") as f:
                f.truncate(size_of(args[1]))
        elif kind == "fifo":
            path = os.path.join(tmp, args[0])
            os.mkfifo(path)
            t = threading.Thread(target=fill_fifo, args=(path, stop), daemon=True)
            t.start()
            threads.append((t, path))
        elif kind == "mkdir":
            os.makedirs(os.path.join(tmp, args[0]), exist_ok=True)
        elif kind == "before":
            subprocess.run([drvm] + shlex.split(subst(args, tmp)), cwd=tmp, env=env, stdin=subprocess.DEVNULL,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=120)


def release_fifos(threads, stop):
    """A writer still waiting for a reader (drvm never opened the FIFO)
    is let go by opening the FIFO here."""
    stop.set()
    for t, path in threads:
        if t.is_alive():
            try:
                fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
                t.join(5)
                os.close(fd)
            except OSError:
                pass


def run_case(case, drvm, asan, workdir):
    """None if it passed, else (why, command)."""
    tmp = os.path.join(workdir, re.sub(r"[^\w.-]", "_", case.name))
    os.makedirs(tmp)
    env = dict(os.environ)
    if asan:
        env.setdefault("ASAN_OPTIONS", "detect_leaks=1")
        env.setdefault("UBSAN_OPTIONS", "print_stacktrace=1")
    threads, stop = [], threading.Event()
    argv = [drvm] + shlex.split(expand(subst(case.cmd, tmp)))
    shown = "cd %s && %s%s%s" % (tmp, " ".join(shlex.quote(a) for a in argv),
                                 "" if case.stdin == "/dev/null" else " < " + case.stdin,
                                 " > " + case.stdout_to if case.stdout_to else "")
    timeout = case.timeout * (3 if asan else 1)
    try:
        prepare(case, tmp, drvm, env, threads, stop)
        with open(subst(case.stdin, tmp), "rb") as stdin, \
                open(subst(case.stdout_to, tmp) if case.stdout_to else os.devnull, "wb") as stdout_to:
            p = subprocess.Popen(argv, cwd=tmp, env=env, stdin=stdin,
                                 stdout=stdout_to if case.stdout_to else subprocess.PIPE, stderr=subprocess.PIPE,
                                 start_new_session=True)
            try:
                out, err = p.communicate(timeout=timeout)
            except subprocess.TimeoutExpired:
                os.killpg(p.pid, signal.SIGKILL)
                p.communicate()
                return "hung: still running after %g s" % timeout, shown
    finally:
        release_fifos(threads, stop)
    out = (out or b"").decode("utf-8", "replace")
    err = err.decode("utf-8", "replace")
    first_err = err.split("\n", 1)[0]
    first_out = out.split("\n", 1)[0]
    problems = []
    if p.returncode < 0:
        problems.append("killed by %s" % signal.Signals(-p.returncode).name)
    elif p.returncode != case.exit:
        problems.append("exit status %d, expected %d" % (p.returncode, case.exit))
    for what, rx in BAD_OUTPUT:
        if rx.search(err):
            problems.append("standard error has %s" % what)
    if not case.stderr.fullmatch(first_err):
        problems.append("first line of stderr %r does not match %r" % (first_err, case.stderr.pattern))
    for rx in case.stderr_has:
        if not any(rx.search(line) for line in err.splitlines()):
            problems.append("no line of stderr matches %r" % rx.pattern)
    if case.stdout is not None and not case.stdout.fullmatch(first_out):
        problems.append("first line of stdout %r does not match %r" % (first_out, case.stdout.pattern))
    if problems:
        tail = err if len(err) < 1500 else err[:700] + "\n...\n" + err[-700:]
        return "; ".join(problems) + "\n  stderr:\n" + "".join("    | %s\n" % l for l in tail.splitlines()), shown
    shutil.rmtree(tmp, ignore_errors=True)
    return None


def is_sanitized(drvm):
    with open(drvm, "rb") as f:
        data = f.read()
    return b"__asan_init" in data or b"__ubsan_handle" in data


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--drvm", default=os.path.join(ROOT, "drvm"))
    ap.add_argument("-j", type=int, default=2, help="cases at once (default 2)")
    ap.add_argument("--filter", default="", help="only cases whose name contains this")
    ap.add_argument("--keep", action="store_true", help="keep the cases' directories")
    ap.add_argument("-v", action="store_true", help="name each case as it passes")
    ap.add_argument("files", nargs="*", help="case files (default: every one in tests/robustness/cases)")
    args = ap.parse_args()
    drvm = os.path.abspath(args.drvm)
    if not os.access(drvm, os.X_OK):
        sys.exit("no drvm at %s" % drvm)
    files = args.files or sorted(os.path.join(CASES, f) for f in os.listdir(CASES)
                                 if f.endswith((".case", ".cases")))
    try:
        cases = [c for f in files for c in load(f)]
    except CaseError as e:
        sys.exit("tests/robustness: %s" % e)
    names = [c.name for c in cases]
    dups = sorted(set(n for n in names if names.count(n) > 1))
    if dups:
        sys.exit("tests/robustness: cases named twice: %s" % ", ".join(dups))
    cases = [c for c in cases if args.filter in c.name]
    asan = is_sanitized(drvm)
    skipped = [c for c in cases if asan and c.asan_skip]
    cases = [c for c in cases if c not in skipped]
    workdir = tempfile.mkdtemp(prefix="drvm-robust-")
    passed = failed = 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.j)) as pool:
        futures = [(c, pool.submit(run_case, c, drvm, asan, workdir)) for c in cases]
        for c, fut in futures:
            try:
                result = fut.result()
            except Exception as e:  # a broken case is a failure, not a crash of the runner
                result = ("could not run: %s" % e, "")
            if result is None:
                passed += 1
                if args.v:
                    print("ok %s" % c.name, flush=True)
            else:
                failed += 1
                why, shown = result
                first, _, rest = why.partition("\n")
                print("FAIL %s: %s\n  command: %s\n%s" % (c.name, first, shown, rest), end="", flush=True)
                if rest and not rest.endswith("\n"):
                    print(flush=True)
    if not args.keep:
        shutil.rmtree(workdir, ignore_errors=True)
    print("%d passed, %d failed%s" % (passed, failed, ", %d skipped under a sanitizer" % len(skipped) if skipped else ""))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()

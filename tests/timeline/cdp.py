"""A small client of the Chrome DevTools protocol, standard library only.

Starts headless Chromium with a debugging port chosen by the browser
(--remote-debugging-port=0; the port is read from DevToolsActivePort in
the user data dir) and speaks the protocol over a WebSocket implemented
here: the HTTP upgrade, then masked text frames out and unmasked frames
in (RFC 6455, only what the protocol needs).  One page target, attached
with a flat session.
"""
import base64
import json
import os
import shutil
import socket
import struct
import subprocess
import tempfile
import time


def find_chromium():
    for name in ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable"):
        path = shutil.which(name)
        if path:
            return path
    return None


def install_chromium():
    """apt-get install chromium, when we are root and apt-get exists; the
    reason it could not be had otherwise."""
    if not shutil.which("apt-get"):
        return "no chromium and no apt-get to install it"
    if os.geteuid() != 0:
        return "no chromium, and not root to install it"
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    for cmd in (["apt-get", "update", "-qq"], ["apt-get", "install", "-y", "-qq", "chromium"]):
        r = subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=900)
        if r.returncode != 0:
            return "%s failed: %s" % (" ".join(cmd), r.stderr.decode(errors="replace").strip()[-200:])
    return None if find_chromium() else "apt-get installed no chromium"


class WebSocket:
    def __init__(self, host, port, path, timeout=60):
        self.sock = socket.create_connection((host, port), timeout=timeout)
        key = base64.b64encode(os.urandom(16)).decode()
        req = ("GET %s HTTP/1.1\r\nHost: %s:%d\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
               "Sec-WebSocket-Key: %s\r\nSec-WebSocket-Version: 13\r\n\r\n" % (path, host, port, key))
        self.sock.sendall(req.encode())
        self.buf = b""
        while b"\r\n\r\n" not in self.buf:
            chunk = self.sock.recv(4096)
            if not chunk:
                raise ConnectionError("the browser closed the connection during the handshake")
            self.buf += chunk
        head, self.buf = self.buf.split(b"\r\n\r\n", 1)
        if b" 101 " not in head.split(b"\r\n", 1)[0]:
            raise ConnectionError("no WebSocket upgrade: %r" % head[:200])

    def _read(self, n):
        while len(self.buf) < n:
            chunk = self.sock.recv(max(65536, n - len(self.buf)))
            if not chunk:
                raise ConnectionError("the browser closed the connection")
            self.buf += chunk
        out, self.buf = self.buf[:n], self.buf[n:]
        return out

    def send(self, text):
        data = text.encode()
        head = bytes([0x81])                       # FIN, text
        n = len(data)
        if n < 126:
            head += bytes([0x80 | n])
        elif n < 65536:
            head += bytes([0x80 | 126]) + struct.pack(">H", n)
        else:
            head += bytes([0x80 | 127]) + struct.pack(">Q", n)
        mask = os.urandom(4)                       # a client's frames are masked
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(data))
        self.sock.sendall(head + mask + masked)

    def recv(self):
        """The next text message (fragments joined; pings answered)."""
        parts = []
        while True:
            b0, b1 = self._read(2)
            op, n = b0 & 0x0F, b1 & 0x7F
            if n == 126:
                n = struct.unpack(">H", self._read(2))[0]
            elif n == 127:
                n = struct.unpack(">Q", self._read(8))[0]
            mask = self._read(4) if b1 & 0x80 else None
            data = self._read(n)
            if mask:
                data = bytes(b ^ mask[i % 4] for i, b in enumerate(data))
            if op == 0x8:
                raise ConnectionError("the browser closed the WebSocket")
            if op == 0x9:                          # ping: pong
                self.sock.sendall(bytes([0x8A, 0x80 | len(data)]) + b"\0\0\0\0" + data)
                continue
            if op in (0x1, 0x2, 0x0):
                parts.append(data)
                if b0 & 0x80:
                    return b"".join(parts).decode()

    def close(self):
        try:
            self.sock.close()
        except OSError:
            pass


class Browser:
    """Headless Chromium and one page in it."""

    def __init__(self, exe, width=1400, height=900):
        self.dir = tempfile.mkdtemp(prefix="drvm-chromium-")
        args = [exe, "--headless=new", "--remote-debugging-port=0", "--user-data-dir=" + self.dir,
                "--no-first-run", "--no-default-browser-check", "--disable-gpu",
                "--disable-extensions", "--disable-background-networking", "--disable-sync",
                "--mute-audio", "--window-size=%d,%d" % (width, height),
                "about:blank"]
        if os.geteuid() == 0:
            args.insert(1, "--no-sandbox")         # Chromium refuses to run as root otherwise
        self.proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        port_file = os.path.join(self.dir, "DevToolsActivePort")
        deadline = time.time() + 30
        while True:
            try:
                with open(port_file) as f:
                    lines = f.read().split("\n")
                if len(lines) >= 2 and lines[0].strip() and lines[1].strip():
                    break
            except OSError:
                pass
            if self.proc.poll() is not None or time.time() > deadline:
                self.close()
                raise RuntimeError("chromium did not start (no DevToolsActivePort)")
            time.sleep(0.05)
        self.ws = WebSocket("127.0.0.1", int(lines[0]), lines[1].strip())
        self.next_id = 0
        self.events = []                           # (method, params) of the page's session
        target = self.call("Target.createTarget", {"url": "about:blank"}, session=False)["targetId"]
        self.session = self.call("Target.attachToTarget", {"targetId": target, "flatten": True},
                                 session=False)["sessionId"]

    def call(self, method, params=None, session=True, timeout=60):
        self.next_id += 1
        msg = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = self.session
        self.ws.send(json.dumps(msg))
        deadline = time.time() + timeout
        while time.time() < deadline:
            m = json.loads(self.ws.recv())
            if m.get("id") == self.next_id:
                if "error" in m:
                    raise RuntimeError("%s: %s" % (method, m["error"].get("message")))
                return m.get("result", {})
            if "method" in m:
                self.events.append((m["method"], m.get("params", {})))
        raise TimeoutError(method)

    def wait_event(self, method, timeout=30):
        """Waits for an event (kept in self.events, which it returns)."""
        deadline = time.time() + timeout
        seen = len([e for e in self.events if e[0] == method])
        if seen:
            return True
        self.ws.sock.settimeout(timeout)
        while time.time() < deadline:
            m = json.loads(self.ws.recv())
            if "method" in m:
                self.events.append((m["method"], m.get("params", {})))
                if m["method"] == method:
                    return True
        return False

    def eval(self, expr, await_promise=False):
        r = self.call("Runtime.evaluate", {"expression": expr, "returnByValue": True,
                                           "awaitPromise": await_promise})
        if "exceptionDetails" in r:
            d = r["exceptionDetails"]
            raise RuntimeError("evaluate %s: %s" % (expr[:60], d.get("exception", {}).get("description") or d.get("text")))
        return r["result"].get("value")

    def click(self, x, y):
        for kind in ("mouseMoved", "mousePressed", "mouseReleased"):
            self.call("Input.dispatchMouseEvent", {"type": kind, "x": x, "y": y, "button": "left",
                                                   "buttons": 1 if kind == "mousePressed" else 0,
                                                   "clickCount": 0 if kind == "mouseMoved" else 1})

    def wheel(self, x, y, dy, ctrl=False):
        self.call("Input.dispatchMouseEvent", {"type": "mouseWheel", "x": x, "y": y, "deltaX": 0,
                                               "deltaY": dy, "modifiers": 2 if ctrl else 0})

    def screenshot(self, path):
        data = self.call("Page.captureScreenshot", {"format": "png"})["data"]
        with open(path, "wb") as f:
            f.write(base64.b64decode(data))

    def close(self):
        try:
            self.ws.close()
        except Exception:
            pass
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        shutil.rmtree(self.dir, ignore_errors=True)

"""Codegen children forked from a process that stays: isolation without a Python
start per kernel.

Some LLVM backends end the process they run in (an abort in the SPIR-V or AMDGPU
backend, ``exit(1)`` on a missing libcall), so GPU, WebAssembly and HIP codegen
runs in a child (``llvm_toolchain.run_isolated``).  A fresh ``python -m module``
per kernel costs its start -- Python, llvmlite, every LLVM target initialised,
about 0.15 s -- more than the codegen of a small kernel.

Here a *fork server* starts once: a Python that has imported llvmlite and
initialised every target, and nothing else.  For each request (a JSON line
``{"module", "request", "timeout"}``) it imports ``module`` if it has not yet and
forks; the forked child runs ``module.emit(request)``, writes the result to a pipe
and exits.  Each kernel's codegen thus starts from the same state a fresh
process would have -- LLVM's command-line options (``set_option``), its global
context and every backend's static state are the server's, untouched -- so the
output is a fresh child's, byte for byte, for every backend, LLVM 22's SPIR-V
included (which carries state from one module to the next within a process).

The server answers with one JSON line: ``{"ok": result}``; ``{"error": traceback}``
(an exception in ``emit``, reported as a one-shot child's exit status 1, or
``status`` for a ``SystemExit``); ``{"died": code}`` (the child was killed by a
signal, ``-code``, or exited without answering); ``{"timeout": true}`` (the
server killed it).  The caller raises the error a one-shot child gives, with the
end of the child's stderr.  The server serves callers with the environment and
working directory it started with (:func:`_key`); at most :data:`MAX_IDLE` idle
servers are kept, each ending with its caller (its stdin closes).  Without
``os.fork`` (Windows) every request starts a one-shot child as before.
"""
from __future__ import annotations

import atexit
import collections
import hashlib
import importlib
import json
import os
import select
import signal
import subprocess
import sys
import threading
import time
import traceback

MAX_IDLE = 4            # idle servers kept in all (each holds LLVM: ~70 MB)
_TAIL = 15
_DONE = "\x00hanajit-codegen-done"     # on stderr after each request

# variables that change without changing what a child computes: pytest names the
# running test in the environment
_VOLATILE = frozenset({"PYTEST_CURRENT_TEST"})

_lock = threading.Lock()
_idle: collections.OrderedDict = collections.OrderedDict()   # key -> [_Server], LRU


def available() -> bool:
    return hasattr(os, "fork")


class WorkerFailed(Exception):
    """The child could not answer: ``str()`` is the one-shot child's message
    without the ``what`` (``"was killed by SIGABRT:\\n<stderr tail>"``)."""


def _key() -> str:
    env = sorted(item for item in os.environ.items() if item[0] not in _VOLATILE)
    return hashlib.blake2b(repr((os.getcwd(), env)).encode(),
                           digest_size=16).hexdigest()


class _Server:
    def __init__(self):
        self.owner = os.getpid()
        self.proc = subprocess.Popen([sys.executable, "-m", __name__],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE)
        self.tail: collections.deque = collections.deque(maxlen=_TAIL)
        self._done = threading.Semaphore(0)
        self._buf = b""
        self._drain = threading.Thread(target=self._read_stderr, daemon=True)
        self._drain.start()

    def _read_stderr(self):
        for raw in self.proc.stderr:
            line = raw.decode("utf-8", "replace").rstrip("\n")
            if line == _DONE:
                self._done.release()
            else:
                self.tail.append(line)

    def alive(self) -> bool:
        return self.proc.poll() is None and self.owner == os.getpid()

    def ask(self, module: str, request: dict, timeout: float) -> dict:
        """``module.emit(request)`` in a forked child; :class:`WorkerFailed` or
        ``TimeoutError``."""
        self.tail.clear()
        line = json.dumps({"module": module, "request": request,
                           "timeout": timeout}).encode() + b"\n"
        try:
            self.proc.stdin.write(line)
            self.proc.stdin.flush()
        except OSError:
            raise self._server_died() from None
        # the server enforces the timeout; a little more here for a stuck server
        answer = self._read_line(timeout + 30)
        if answer is None:
            raise self._server_died()
        reply = json.loads(answer)
        self._done.acquire(timeout=5)          # the child's stderr is all in the tail
        if "ok" in reply:
            return reply["ok"]
        if reply.get("timeout"):
            raise TimeoutError
        if "died" in reply:
            raise WorkerFailed(describe_exit(reply["died"]) + ":\n" + "\n".join(self.tail))
        lines = list(self.tail) + reply["error"].rstrip("\n").splitlines()
        raise WorkerFailed(f"exited with status {reply.get('status', 1)}:\n"
                           + "\n".join(lines[-_TAIL:]))

    def _read_line(self, timeout: float):
        end = time.monotonic() + timeout
        fd = self.proc.stdout.fileno()
        while b"\n" not in self._buf:
            left = end - time.monotonic()
            if left <= 0:
                self.close(kill=True)
                raise TimeoutError
            ready, _, _ = select.select([fd], [], [], left)
            if ready:
                chunk = os.read(fd, 1 << 20)
                if not chunk:
                    return None
                self._buf += chunk
        line, _, self._buf = self._buf.partition(b"\n")
        return line

    def _server_died(self) -> WorkerFailed:
        code = self.proc.wait()
        self._drain.join(timeout=5)
        return WorkerFailed(describe_exit(code) + ":\n" + "\n".join(self.tail))

    def close(self, kill: bool = False):
        """End the server (closing its stdin ends it; ``kill``: at once) and close
        the pipes; only in the process that started it."""
        if self.owner != os.getpid():
            return
        try:
            if kill:
                self.proc.kill()
            self.proc.stdin.close()
            self.proc.wait(timeout=10)
        except Exception:               # already gone, or will be with its caller
            pass
        self._drain.join(timeout=5)
        for pipe in (self.proc.stdout, self.proc.stderr):
            try:
                pipe.close()
            except Exception:
                pass


def describe_exit(code: int) -> str:
    """How a child ended, as ``run_isolated`` words it (a negative code: a signal)."""
    return (f"was killed by {signal.Signals(-code).name}" if code < 0
            else f"exited with status {code}")


def run(module: str, request: dict, timeout: float) -> dict:
    """``module.emit(request)`` in a child forked from a kept server."""
    key = _key()
    server, dead = None, []
    with _lock:
        waiting = _idle.get(key, [])
        while waiting and server is None:
            candidate = waiting.pop()
            if candidate.alive():
                server = candidate
            else:
                dead.append(candidate)
    for gone in dead:
        gone.close()
    if server is None:
        server = _Server()
    try:
        out = server.ask(module, request, timeout)
    except (WorkerFailed, TimeoutError):
        if server.alive():
            _keep(key, server)
        else:
            server.close()
        raise
    _keep(key, server)
    return out


def _keep(key: str, server: _Server) -> None:
    evicted = []
    with _lock:
        _idle.setdefault(key, []).append(server)
        _idle.move_to_end(key)
        while sum(len(s) for s in _idle.values()) > MAX_IDLE:
            oldest = next(iter(_idle))
            evicted.append(_idle[oldest].pop(0))
            if not _idle[oldest]:
                del _idle[oldest]
    for s in evicted:
        s.close()


@atexit.register
def _close_all():
    with _lock:
        servers = [s for ss in _idle.values() for s in ss]
        _idle.clear()
    for s in servers:
        s.close()


# ------------------------------------------------------------------ the server
def _child(module, request, out_fd: int) -> None:
    """In the forked child: ``emit``, the reply on ``out_fd``, then exit."""
    try:
        reply = {"ok": module.emit(request)}
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 1
        reply = {"error": f"SystemExit({exc.code!r})", "status": code}
    except BaseException:
        reply = {"error": traceback.format_exc()}
    data = json.dumps(reply).encode()
    view = memoryview(data)
    while view:
        view = view[os.write(out_fd, view):]
    os.close(out_fd)
    sys.stderr.flush()
    os._exit(0)


def _serve(ask: dict) -> dict:
    try:
        module = importlib.import_module(ask["module"])
    except BaseException:
        return {"error": traceback.format_exc()}
    read_fd, write_fd = os.pipe()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:
        os.close(read_fd)
        try:
            _child(module, ask["request"], write_fd)
        finally:
            os._exit(70)
    os.close(write_fd)
    chunks, end, timed_out = [], time.monotonic() + ask["timeout"], False
    while True:
        left = end - time.monotonic()
        ready = select.select([read_fd], [], [], max(left, 0))[0] if left > 0 else []
        if not ready:
            timed_out = True
            os.kill(pid, signal.SIGKILL)
            break
        chunk = os.read(read_fd, 1 << 20)
        if not chunk:
            break
        chunks.append(chunk)
    os.close(read_fd)
    _, status = os.waitpid(pid, 0)
    if timed_out:
        return {"timeout": True}
    data = b"".join(chunks)
    code = os.waitstatus_to_exitcode(status)
    if code != 0 or not data:
        return {"died": code if code != 0 else 1}
    return json.loads(data)


def main() -> None:
    """The server: LLVM's targets initialised once, then a forked child per
    request.  Anything written to stdout (a print, LLVM) goes to stderr; the
    replies go to the stdout it started with."""
    from . import llvm_toolchain
    llvm_toolchain.binding(all_targets=True)
    answers = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    for line in sys.stdin.buffer:
        reply = _serve(json.loads(line))
        sys.stderr.write(_DONE + "\n")
        sys.stderr.flush()
        answers.write(json.dumps(reply).encode() + b"\n")
        answers.flush()


if __name__ == "__main__":
    main()

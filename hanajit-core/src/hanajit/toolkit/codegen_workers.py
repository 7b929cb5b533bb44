"""Codegen child processes that stay alive between requests.

Some LLVM backends end the process they run in (an abort in the SPIR-V or AMDGPU
backend, ``exit(1)`` on a missing libcall), so GPU, WebAssembly and HIP codegen
runs in a child Python (``llvm_toolchain.run_isolated``).  A fresh child per
kernel costs its start: Python, llvmlite and every LLVM target initialised, about
0.15 s, more than the codegen of a small kernel.  Here a child serves one
request after another instead: the caller writes ``{"module", "request"}`` as a
JSON line, the child answers with ``module.emit(request)`` as a JSON line.

The isolation is the same: a crash ends only the child, and the caller raises
the error a one-shot child would have given (the signal or exit status and the
end of its stderr); the next request starts a new child.  What a child keeps
from one request to the next is what LLVM keeps in a process:

* command-line options (``llvm_options`` of a kernel row, set with
  ``set_option``) -- so a child serves one module and one option set
  (:func:`_key`), never a request asking for other options;
* the environment and working directory the child started with -- so a child
  serves only callers with the same ones (a test setting ``PYTHONPATH`` or a
  toolkit path gets a child of its own);
* types and constants in LLVM's global context, which only grows -- so a child
  is replaced after :data:`MAX_REQUESTS` requests.

Callers on several threads each take an idle child or start one (each request
has its child to itself); at most :data:`MAX_IDLE` idle children are kept, the
least recently used ended first.  A child ends when its caller's process does (its stdin closes).
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

MAX_REQUESTS = 200
MAX_IDLE = 4            # idle children kept in all (each holds LLVM: ~80 MB)
_TAIL = 15

# variables that change without changing what a child computes: pytest names the
# running test in the environment
_VOLATILE = frozenset({"PYTEST_CURRENT_TEST"})

_lock = threading.Lock()
_idle: collections.OrderedDict = collections.OrderedDict()   # key -> [_Worker], LRU


class WorkerFailed(Exception):
    """The child could not answer: ``str()`` is the one-shot child's message
    without the ``what`` (``"was killed by SIGABRT:\\n<stderr tail>"``)."""


def _key(module: str, request: dict) -> str:
    options = request.get("llvm_options") if isinstance(request, dict) else None
    env = sorted(item for item in os.environ.items() if item[0] not in _VOLATILE)
    return hashlib.blake2b(repr((module, options, os.getcwd(), env)).encode(),
                           digest_size=16).hexdigest()


class _Worker:
    def __init__(self):
        self.pid_owner = os.getpid()
        self.proc = subprocess.Popen([sys.executable, "-m", __name__],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE)
        self.served = 0
        self.tail: collections.deque = collections.deque(maxlen=_TAIL)
        self._buf = b""
        self._drain = threading.Thread(target=self._read_stderr, daemon=True)
        self._drain.start()

    def _read_stderr(self):
        for line in self.proc.stderr:
            self.tail.append(line.decode("utf-8", "replace").rstrip("\n"))

    def alive(self) -> bool:
        return self.proc.poll() is None and self.pid_owner == os.getpid()

    def ask(self, module: str, request: dict, timeout: float) -> dict:
        """``module.emit(request)``; :class:`WorkerFailed` (the child is then
        gone) or ``TimeoutError``."""
        self.tail.clear()
        self.served += 1
        line = json.dumps({"module": module, "request": request}).encode() + b"\n"
        try:
            self.proc.stdin.write(line)
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError):
            raise self._died() from None
        answer = self._read_line(timeout)
        if answer is None:
            raise self._died()
        reply = json.loads(answer)
        if "ok" in reply:
            return reply["ok"]
        # an exception in the child: it serves on, but report as a one-shot child
        # whose exception ended it (status 1, the traceback the tail of stderr)
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
                    return None                 # the child ended
                self._buf += chunk
        line, _, self._buf = self._buf.partition(b"\n")
        return line

    def _died(self) -> WorkerFailed:
        code = self.proc.wait()
        self._drain.join(timeout=5)
        how = (f"was killed by {signal.Signals(-code).name}" if code < 0
               else f"exited with status {code}")
        return WorkerFailed(f"{how}:\n" + "\n".join(self.tail))

    def close(self, kill: bool = False):
        try:
            if kill:
                self.proc.kill()
            else:
                self.proc.stdin.close()
            self.proc.wait(timeout=10)
        except Exception:               # already gone, or will be with its parent
            pass


def run(module: str, request: dict, timeout: float) -> dict:
    """``module.emit(request)`` in a kept child (see the module's docstring)."""
    key = _key(module, request)
    worker = None
    with _lock:
        waiting = _idle.get(key, [])
        while waiting and worker is None:
            candidate = waiting.pop()
            if candidate.alive():
                worker = candidate
    if worker is None:
        worker = _Worker()
    try:
        out = worker.ask(module, request, timeout)
    except WorkerFailed:
        if worker.alive() and worker.served < MAX_REQUESTS:
            _keep(key, worker)          # an exception in emit: the child serves on
        raise
    _keep(key, worker)
    return out


def _keep(key: str, worker: _Worker) -> None:
    if worker.served >= MAX_REQUESTS:
        worker.close()
        return
    evicted = []
    with _lock:
        _idle.setdefault(key, []).append(worker)
        _idle.move_to_end(key)
        while sum(len(ws) for ws in _idle.values()) > MAX_IDLE:
            oldest = next(iter(_idle))
            evicted.append(_idle[oldest].pop(0))
            if not _idle[oldest]:
                del _idle[oldest]
    for w in evicted:
        w.close()


@atexit.register
def _close_all():
    with _lock:
        workers = [w for ws in _idle.values() for w in ws]
        _idle.clear()
    for w in workers:
        if w.pid_owner == os.getpid():
            w.close()


def main() -> None:
    """The child: answer JSON lines on stdin, on the stdout it started with;
    anything else written to stdout (a print, LLVM) goes to stderr."""
    answers = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    for line in sys.stdin.buffer:
        ask = json.loads(line)
        try:
            reply = {"ok": importlib.import_module(ask["module"]).emit(ask["request"])}
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else 1
            reply = {"error": f"SystemExit({exc.code!r})", "status": code}
        except BaseException:
            reply = {"error": traceback.format_exc()}
        answers.write(json.dumps(reply).encode() + b"\n")
        answers.flush()


if __name__ == "__main__":
    main()

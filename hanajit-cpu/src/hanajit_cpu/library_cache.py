"""The compiled pieces of hanajit's library on disk, for later processes.

A piece (``shared_code``: a sort, a selection, a quantile's search, an einsum's
loops ...) is compiled the first time a process needs it; that LLVM work is most
of the first compile of a function calling ``np.median``, ``np.einsum`` or
``np.histogram`` (0.5-1 s).  The object is written here, under
``_library/<digest>.hjc`` in the cache folder (``hanajit.cache.store``: checked,
atomic files), and a later process links it instead of compiling the piece again.

The digest covers everything the object depends on: the piece's LLVM IR with its
symbol and raise table (its whole meaning), the compiler's own files (never a
pinned ``HANAJIT_CACHE_COMPILER_ID``: the object is the code generator's output),
and the CPU and LLVM build (``CpuTarget.cache_env``, which follows
``HANAJIT_CPU_NAME``).  Only library code is kept, never a user's function (that
is ``@jit(cache=True)``), so nothing is written that the user wrote.  A folder that
cannot be written, or a damaged entry, only means the piece is compiled in
memory, without a warning: the user did not ask for a cache.
``HANAJIT_LIBRARY_CACHE=0`` turns it off.

The folder is kept under a size (:func:`limit_bytes`: 256 MB, or
``HANAJIT_LIBRARY_CACHE_MB``): a process that writes a piece first removes the
least recently used files past it, once (a piece linked from the folder counts
as used: its file's time is renewed).  Entries of an older hanajit or NumPy are
never read again, and so they go first.

Each piece's signature is kept as well (:class:`Signatures`, under
``_library/signatures/``): the root's argument and return types, raise table
and symbol, by its Python function, argument types and the compilation's
fingerprint.  A later process's pipeline then finds the piece there
(``CpuTarget.linked_pieces``) and neither infers nor lowers the
piece's functions: it links the object (``shared_code.link_symbol``) and
calls it.
"""
from __future__ import annotations

import contextlib
import os
import time
import zlib

from hanajit.errors import stored_deopt

FOLDER = "_library"
_pruned = False                 # (the folder is kept under its size once per process)


def enabled() -> bool:
    return os.environ.get("HANAJIT_LIBRARY_CACHE", "1") != "0"


def entry_path(key: str) -> str:
    """The entry of the piece whose IR and raise table digest to ``key``."""
    from hanajit.cache import store
    from hanajit.cache.key import blake2b, compiler_fingerprint

    from .target import CpuTarget
    target = CpuTarget()
    digest = blake2b(repr((key, compiler_fingerprint(target, pinned=False),
                           target.cache_env())).encode(), digest_size=20).hexdigest()
    return os.path.join(store.cache_dir(), FOLDER, f"{digest}.hjc")


def load(key: str):
    """``(optimised IR text, object, raise table)`` of the piece from an earlier
    process, or None."""
    from hanajit import cache
    from hanajit.cache import store
    path = entry_path(key)
    entry = store.read_entry(path)
    if not (isinstance(entry, dict) and isinstance(entry.get("obj"), bytes)
            and isinstance(entry.get("llvm"), bytes)):
        return None
    try:
        raises = [(cache.decode_class(c), message, deopt)
                  for c, message, deopt in entry["raises"]]
        out = zlib.decompress(entry["llvm"]).decode(), entry["obj"], raises
    except (zlib.error, UnicodeDecodeError, KeyError, TypeError, ValueError, ImportError,
            AttributeError):
        return None
    _used(path)
    return out


LOCKS = 64                      # lock files, a piece's by its key (``compiling``)
WAIT = 120.0                    # seconds to wait for another process's compile


@contextlib.contextmanager
def compiling(key: str):
    """Held while this process compiles the piece ``key``: another process that
    needs the same piece meanwhile (the workers of a parallel test run, the
    processes of a pool) waits, then finds it written (``load``) instead of
    compiling it a second time.  An advisory ``flock`` on one of :data:`LOCKS`
    files (two pieces may share one and wait for each other: only time); without
    ``fcntl``, or when the folder cannot be written, or after :data:`WAIT`
    seconds, the process compiles the piece itself -- never a wrong result."""
    try:
        import fcntl
        from hanajit.cache import store
        folder = os.path.join(store.cache_dir(), FOLDER, "locks")
        os.makedirs(folder, exist_ok=True)
        fd = os.open(os.path.join(folder, f"{int(key[:8], 16) % LOCKS}.lock"),
                     os.O_RDWR | os.O_CREAT, 0o644)
    except (ImportError, OSError, ValueError):
        yield
        return
    try:
        deadline = time.monotonic() + WAIT
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except OSError:
                if time.monotonic() > deadline:
                    break
                time.sleep(0.01)
        yield
    finally:
        os.close(fd)                # (closing releases the lock)


def _used(path: str) -> None:
    """Renew the time of a file read (the least recently used go first)."""
    try:
        os.utime(path)
    except OSError:
        pass


def limit_bytes() -> int:
    """The most the folder may hold: ``HANAJIT_LIBRARY_CACHE_MB`` (256)."""
    try:
        return int(float(os.environ.get("HANAJIT_LIBRARY_CACHE_MB", "256")) * 1e6)
    except ValueError:
        return 256_000_000


def prune(folder: str, limit: int) -> int:
    """Remove the least recently used files of ``folder`` (and of its
    ``signatures/``) until they hold at most three quarters of ``limit`` bytes,
    when they hold more than ``limit``; return how many were removed."""
    files = []
    for sub in (folder, os.path.join(folder, "signatures")):
        try:
            names = os.listdir(sub)
        except OSError:
            continue
        for name in names:
            if name.endswith(".hjc"):
                path = os.path.join(sub, name)
                try:
                    st = os.stat(path)
                except OSError:
                    continue
                files.append((st.st_mtime, st.st_size, path))
    total = sum(size for _, size, _ in files)
    if total <= limit:
        return 0
    removed = 0
    for _, size, path in sorted(files):
        if total <= limit * 3 // 4:
            break
        try:
            os.unlink(path)
        except OSError:
            continue
        total -= size
        removed += 1
    return removed


def _keep_small() -> None:
    global _pruned
    if not _pruned:
        _pruned = True
        from hanajit.cache import store
        prune(os.path.join(store.cache_dir(), FOLDER), limit_bytes())


def save(key: str, optimized: str, obj: bytes, raises: list) -> None:
    """Keep the piece for later processes (quietly nothing when the folder cannot
    be written).  The optimised IR goes with it, compressed: it says which runtimes
    and C functions the object imports (``Engine.imports_for``); and its raise
    table, by class name."""
    from hanajit import cache
    from hanajit.cache import store
    try:
        table = [(cache.encode_class(exc), message, stored_deopt(deopt))
                 for exc, message, deopt in raises]
    except ValueError:                  # (a class that cannot be found by name)
        return
    _keep_small()
    store.write_entry(entry_path(key), {"obj": obj, "raises": table,
                                        "llvm": zlib.compress(optimized.encode(), 1)},
                      report=False)


class Signatures:
    """The signatures of linked pieces (``CpuTarget.linked_pieces``)."""

    def __init__(self):
        self._missing: set = set()      # keys looked up in vain in this process

    def _path(self, key) -> str:
        from hanajit.cache import store
        from hanajit.cache.key import blake2b, compiler_fingerprint, type_text

        from .target import CpuTarget
        import sys

        import numpy
        from hanajit import plugins
        pyfunc, arg_types, fingerprint = key
        # (what the piece's lowering may depend on besides its function, types and
        # the compilation's options, capabilities and CPU: the compiler's files,
        # NumPy's release, the installed plugins' passes)
        parts = (pyfunc.__module__, pyfunc.__qualname__,
                 tuple(type_text(t) for t in arg_types), repr(fingerprint),
                 compiler_fingerprint(CpuTarget(), pinned=False), numpy.__version__,
                 sys.version_info[:2], plugins.installed_key())
        digest = blake2b(repr(parts).encode(), digest_size=20).hexdigest()
        return os.path.join(store.cache_dir(), FOLDER, "signatures", f"{digest}.hjc")

    @staticmethod
    def _per_process(key) -> bool:
        """A piece specialised for a function argument (``np.vectorize(f)``'s
        helper at ``f``) is known by that function's identity, which no later
        process shares (its name may be another function's there): not kept."""
        from hanajit.infer.function_args import holds_function
        return any(holds_function(t) for t in key[1])

    def save(self, key, stub) -> None:
        from hanajit import cache
        from hanajit.cache import store
        if not enabled() or self._per_process(key):
            return
        try:
            symbol, raises = stub.external
            record = {
                "symbol": symbol,
                "raises": [(cache.encode_class(exc), message, stored_deopt(deopt))
                           for exc, message, deopt in raises],
                "params": list(stub.params),
                "locals": [cache.encode_type(stub.locals[p]) for p in stub.params],
                "return_type": cache.encode_type(stub.return_type),
                "pyname": stub.pyname, "filename": stub.filename,
                "can_raise": bool(stub.can_raise), "returns_param": stub.returns_param,
                "draws": bool(stub.draws_random),
                "numpy_result": None if stub.numpy_result is None
                else cache.encode_type(stub.numpy_result)}
        except (ValueError, TypeError):         # a type or class not kept on disk
            return
        store.write_entry(self._path(key), record, report=False)

    def load(self, key):
        """The stub of the piece saved under ``key``, its code linked; or None."""
        from hanajit import cache
        from hanajit.cache import store
        from hanajit.ir import nodes as N

        from . import shared_code
        if not enabled() or key in self._missing or self._per_process(key):
            return None
        path = self._path(key)
        record = store.read_entry(path)
        if not isinstance(record, dict):
            self._missing.add(key)
            return None
        _used(path)
        pyfunc, arg_types, _ = key
        try:
            raises = tuple((cache.decode_class(c), message, deopt)
                           for c, message, deopt in record["raises"])
            params = list(record["params"])
            locals_ = {p: cache.decode_type(t) for p, t in zip(params, record["locals"])}
            stub = N.Function(name="", params=params, arg_types=arg_types, locals=locals_,
                              return_type=cache.decode_type(record["return_type"]),
                              pyname=record["pyname"], filename=record["filename"],
                              can_raise=record["can_raise"], level="primitive",
                              origin=(pyfunc, arg_types),
                              external=(record["symbol"], raises))
            stub.returns_param = record["returns_param"]
            stub.draws_random = bool(record["draws"])
            if record["numpy_result"] is not None:
                stub.numpy_result = cache.decode_type(record["numpy_result"])
        except (KeyError, TypeError, ValueError, ImportError, AttributeError):
            return None
        if len(params) != len(arg_types) or not shared_code.link_symbol(record["symbol"]):
            return None
        return stub


SIGNATURES = Signatures()

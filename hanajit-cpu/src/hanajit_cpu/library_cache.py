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
"""
from __future__ import annotations

import os
import zlib

FOLDER = "_library"


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
    """``(optimised IR text, object)`` of the piece from an earlier process, or
    None."""
    from hanajit.cache import store
    entry = store.read_entry(entry_path(key))
    if not (isinstance(entry, dict) and isinstance(entry.get("obj"), bytes)
            and isinstance(entry.get("llvm"), bytes)):
        return None
    try:
        return zlib.decompress(entry["llvm"]).decode(), entry["obj"]
    except (zlib.error, UnicodeDecodeError):
        return None


def save(key: str, optimized: str, obj: bytes) -> None:
    """Keep the piece for later processes (quietly nothing when the folder cannot
    be written).  The optimised IR goes with it, compressed: it says which runtimes
    and C functions the object imports (``Engine.imports_for``)."""
    from hanajit.cache import store
    store.write_entry(entry_path(key), {"obj": obj,
                                        "llvm": zlib.compress(optimized.encode(), 1)},
                      report=False)

"""The runtimes compiled code links against, one copy of each per process.

Three small LLVM IR modules are compiled once per process and never freed: the
array memory runtime (``hanajit.lowering.nrt``: ``hj_nrt_*``), the thread runtime
behind ``prange`` (``threads.py``: ``hj_parallel_for``, ``hj_num_threads``) and
hanajit's own vector exp (``vexp.py``: ``_ZGV*_hjexp*``).  Whichever linker needs
one first -- ORC for freshly compiled code, ``objload`` for code loaded from the
disk cache -- this module links it, and every later object of the process, linked
either way, imports the same addresses (the thread runtime holds the worker pool
and ``hj_num_threads``, so there must be only one).

A compilation for ``@jit(cache=True)`` also writes the object of every runtime its
code calls to ``_runtime/<name>-<digest>.hjc`` in the cache folder (the digest
covers the compiler, the CPU identity and the runtime's IR); a process that only
loads cached code then links those objects with ``objload`` and never loads LLVM.
"""
from __future__ import annotations

import os
import sys

from hanajit.toolkit.llvm_toolchain import LOCK as _lock     # (the engine's lock too)

NAMES = ("nrt", "threads", "vexp")

_linked: dict = {}                 # name -> (keepalive, {symbol: address})


def needed(llvm_text: str) -> list:
    """The runtimes an optimised module calls."""
    out = []
    if "@hj_nrt_" in llvm_text:
        out.append("nrt")
    if "@hj_parallel_for" in llvm_text or "@hj_num_threads" in llvm_text:
        out.append("threads")
    if "_hjexp" in llvm_text:
        out.append("vexp")
    return out


def _source(name: str) -> tuple:
    """(LLVM IR, exported symbols) of a runtime."""
    if name == "nrt":
        from hanajit.lowering import nrt
        return nrt.runtime_ir(huge_pages=sys.platform.startswith("linux")), list(nrt.SYMBOLS)
    if name == "threads":
        from . import threads
        return threads.RUNTIME_IR, list(threads.SYMBOLS)
    from .vexp import SYMBOL, runtime_ir
    return runtime_ir(), list(SYMBOL.values())


def entry_path(name: str) -> str:
    from hanajit.cache import store
    from hanajit.cache.key import blake2b, compiler_fingerprint

    from .target import CpuTarget, _host_identity
    ir = _source(name)[0]
    digest = blake2b(repr((compiler_fingerprint(CpuTarget()), _host_identity(), ir))
                     .encode(), digest_size=16).hexdigest()
    return os.path.join(store.cache_dir(), "_runtime", f"{name}-{digest}.hjc")


def addresses(name: str, cached: bool = False) -> dict:
    """The runtime's addresses, linking it on the first request.  Before the engine
    runs, with ``cached`` (the caller loads cached code), the object comes from the
    cache folder and ``objload`` links it; otherwise the engine compiles it (and,
    with ``cached``, writes the entry for the next process)."""
    with _lock:
        if name in _linked:
            return _linked[name][1]
        from . import engine as E
        linked = None
        if cached and E._engine is None:
            linked = _link_entry(name)
        if linked is None:
            eng = E.get_engine()
            ir, symbols = _source(name)
            obj = eng.compile_object(ir)[1]
            linked = eng.link(obj, symbols)
            if cached:
                _write(name, obj)
        _linked[name] = linked
        _after_link(name, linked[1])
        return linked[1]


def store_for(llvm_text: str, eng) -> None:
    """Write the entry of every runtime ``llvm_text`` calls that has none yet
    (a compilation for the disk cache)."""
    from hanajit.cache import store
    if store.cache_unwritable():
        return
    for name in needed(llvm_text):
        with _lock:
            if os.path.exists(entry_path(name)):
                continue
            ir, symbols = _source(name)
            obj = eng.compile_object(ir)[1]
            _write(name, obj)
            if name not in _linked:       # (the code about to be loaded needs it)
                _linked[name] = eng.link(obj, symbols)
                _after_link(name, _linked[name][1])


def _write(name: str, obj: bytes) -> None:
    from hanajit.cache import store
    if not store.cache_unwritable():
        store.write_entry(entry_path(name), {"obj": obj})


def _link_entry(name: str):
    from hanajit.cache import store

    from . import objload
    if not objload.available():
        return None
    entry = store.read_entry(entry_path(name))
    if not (isinstance(entry, dict) and isinstance(entry.get("obj"), bytes)):
        return None
    try:
        return objload.link(entry["obj"], _source(name)[1])
    except objload.Unsupported:
        return None


def _after_link(name: str, addrs: dict) -> None:
    if name == "threads":
        from . import threads
        from .parallel_config import apply_num_threads
        apply_num_threads(addrs[threads.NUM_THREADS])

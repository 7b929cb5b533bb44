"""The disk cache key: which file holds a function's entry on this host.

The file name is a digest of everything that decides the machine code apart from
the sources: the cache format, hanajit's version and a fingerprint of its installed
files (so editing the compiler in a development checkout invalidates entries), the
Python implementation and version, NumPy's version (the compiled code follows the
installed NumPy where its releases differ, e.g. ``np.fmin`` of signed zeros), the
target with its LLVM version and host CPU name and features
(``Target.cache_env``), its declared capabilities, the installed plugins (a
plugin's passes change the code), the jit options, the function's module, file and qualified
name, and the argument types.  The sources of the function and of
everything it reaches, and the globals it froze, are checked against the entry's
dependency record (``hanajit.cache.deps``) when it is loaded; a stale entry is
recompiled and overwritten in place, so editing a function does not grow the cache.
"""
from __future__ import annotations

import os
import re
import sys

try:                           # hashlib imports OpenSSL: 2-3 ms on a warm start
    from _blake2 import blake2b
except ImportError:            # pragma: no cover
    from hashlib import blake2b

from .. import plugins
from .._version import __version__

FORMAT = 1
# options that never change the generated code
_NOT_IN_KEY = ("cache", "fallback", "signature")
_compiler_fp: dict = {}


def compiler_fingerprint(target=None, pinned: bool = True) -> str:
    """hanajit's version plus the name, size and modification time of every module
    of hanajit and of ``target``'s plugin package (computed once per process and
    package), or ``HANAJIT_CACHE_COMPILER_ID`` when set and ``pinned`` (pinned
    builds; the test suite, whose entries must not change while the compiler's
    files are being edited)."""
    if pinned and os.environ.get("HANAJIT_CACHE_COMPILER_ID"):
        return "id:" + os.environ["HANAJIT_CACHE_COMPILER_ID"]
    package = type(target).__module__.split(".")[0] if target is not None else ""
    fp = _compiler_fp.get(package)
    if fp is None:
        roots = [os.path.dirname(os.path.dirname(os.path.abspath(__file__)))]
        mod = sys.modules.get(package)
        if package != "hanajit" and getattr(mod, "__file__", None):
            roots.append(os.path.dirname(mod.__file__))
        h = blake2b(__version__.encode(), digest_size=16)
        for root in roots:
            for dirpath, dirs, files in os.walk(root):
                dirs[:] = sorted(d for d in dirs if d != "__pycache__")
                for f in sorted(files):
                    if f.endswith(".py"):
                        st = os.stat(os.path.join(dirpath, f))
                        h.update(f"{dirpath[len(root):]}/{f}:{st.st_size}:"
                                 f"{st.st_mtime_ns};".encode())
        fp = _compiler_fp[package] = h.hexdigest()
    return fp


def type_text(t) -> str:
    """An argument type spelt unambiguously (IR types print distinctly)."""
    return f"{type(t).__name__}:{t!s}:{t!r}"


def entry_path(root: str, jf, arg_types: tuple, target) -> str | None:
    """The entry file of ``jf`` at ``arg_types``, or None when ``target`` cannot
    cache (its ``cache_env`` is None)."""
    env = target.cache_env()
    if env is None:
        return None
    func = jf.py_func
    opts = sorted((k, repr(v)) for k, v in jf.options.items() if k not in _NOT_IN_KEY)
    parts = [
        f"format={FORMAT}", f"hanajit={compiler_fingerprint(target)}",
        f"python={sys.implementation.name}-{sys.version_info[:3]}",
        f"numpy={_numpy_version()}",
        f"target={target.name}", f"env={env!r}", f"caps={target.capabilities.key()}",
        f"plugins={plugins.installed_key()}",
        f"options={opts!r}",
        f"module={func.__module__}", f"file={func.__code__.co_filename}",
        f"qualname={func.__qualname__}",
        "args=" + ",".join(type_text(t) for t in arg_types),
    ]
    digest = blake2b("\n".join(parts).encode(), digest_size=20).hexdigest()
    module = _safe(func.__module__ or "_")
    return os.path.join(root, module, f"{_safe(func.__qualname__)}-{digest}.hjc")


def _numpy_version() -> str:
    numpy = sys.modules.get("numpy")
    if numpy is None:
        import numpy
    return numpy.__version__


def _safe(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]", "_", name)[:80]

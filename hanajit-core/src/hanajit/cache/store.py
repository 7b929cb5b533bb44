"""The disk cache's files: where they live, their format, atomic writes.

One file per cache entry (a function at argument types on one host).  Layout::

    magic  b"HJC1"                     4 bytes
    length of the payload              8 bytes, little endian
    blake2b-256 of the payload        32 bytes
    payload                            marshal data (see ``hanajit.cache``)

A reader checks all three before it trusts the payload, so a truncated, corrupted or
foreign file reads as a miss (and is rewritten by the next compilation).  A writer
writes a temporary file in the same directory and renames it over the entry with
``os.replace``, which is atomic: a reader sees the old entry or the new one, never a
half-written file, however many processes write the same entry at once.
"""
from __future__ import annotations

import marshal
import os
import sys
import warnings

try:                           # hashlib imports OpenSSL: 2-3 ms on a warm start
    from _blake2 import blake2b
except ImportError:            # pragma: no cover
    from hashlib import blake2b

MAGIC = b"HJC1"
_HEADER = len(MAGIC) + 8 + 32
SUFFIX = ".hjc"

_unwritable: set = set()      # directories already reported unwritable (warn once)


class HanaJitCacheWarning(UserWarning):
    """The disk cache cannot be used here; functions compile in memory."""


def cache_dir() -> str:
    """``HANAJIT_CACHE_DIR``, else the user cache directory (``$XDG_CACHE_HOME/hanajit``
    or ``~/.cache/hanajit`` on Linux, ``~/Library/Caches/hanajit`` on macOS,
    ``%LOCALAPPDATA%\\hanajit\\Cache`` on Windows)."""
    env = os.environ.get("HANAJIT_CACHE_DIR")
    if env:
        return os.path.abspath(os.path.expanduser(env))
    if sys.platform == "win32":
        base = os.environ.get("LOCALAPPDATA") or os.path.expanduser("~\\AppData\\Local")
        return os.path.join(base, "hanajit", "Cache")
    if sys.platform == "darwin":
        return os.path.expanduser("~/Library/Caches/hanajit")
    base = os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache")
    return os.path.join(base, "hanajit")


def read_entry(path: str):
    """The payload stored at ``path`` (any marshal-able value), ``None`` when there is
    no entry, or the string ``"corrupt"`` when the file is not a complete entry."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except FileNotFoundError:
        return None
    except OSError:
        return "corrupt"
    if len(data) < _HEADER or data[:4] != MAGIC:
        return "corrupt"
    n = int.from_bytes(data[4:12], "little")
    payload = data[_HEADER:]
    if len(payload) != n or blake2b(payload, digest_size=32).digest() \
            != data[12:_HEADER]:
        return "corrupt"
    try:
        return marshal.loads(payload)
    except (ValueError, EOFError, TypeError):
        return "corrupt"


def write_entry(path: str, value, report: bool = True) -> bool:
    """Write ``value`` (marshal-able) to ``path`` atomically; False (with one
    :class:`HanaJitCacheWarning` per directory and process, unless not ``report``)
    when the directory cannot be created or written."""
    payload = marshal.dumps(value)
    data = (MAGIC + len(payload).to_bytes(8, "little")
            + blake2b(payload, digest_size=32).digest() + payload)
    import tempfile               # only when writing (4 ms to import)
    folder = os.path.dirname(path)
    tmp = None
    try:
        os.makedirs(folder, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=".tmp-", suffix=SUFFIX, dir=folder)
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
        return True
    except OSError as exc:
        if tmp is not None:
            try:
                os.unlink(tmp)
            except OSError:
                pass
        if report:
            report_unwritable(folder, exc)
        return False


def report_unwritable(folder: str, exc: BaseException) -> None:
    """Warn once per process that the cache cannot be written (the first folder
    that fails stands for the whole cache: one warning, not one per function)."""
    if _unwritable:
        return
    _unwritable.add(folder)
    warnings.warn(HanaJitCacheWarning(
        f"hanajit: the disk cache at {folder} cannot be written ({exc}); functions "
        "with cache=True compile in memory in this process"), stacklevel=6)


def cache_unwritable() -> bool:
    """True once a write failed in this process (later writes are not attempted)."""
    return bool(_unwritable)

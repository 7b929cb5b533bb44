"""Per-chunk random streams of a ``np.random.Generator`` in parallel loops.

A ``prange`` loop (or a ``parallel=True`` loop) that draws from a ``Generator``
argument ``rng`` runs in ``T`` chunks (static: chunk ``k`` takes iterations
``chunk_bounds(k, T, n)``, ``T = min(n, thread count)``, see
:mod:`hanajit.frontend.parallel`).  Chunk ``k`` draws from a stream of its own,
``parallel_streams(rng, T)[k]``:

* a bit generator with ``jumped`` (PCG64, PCG64DXSM, MT19937, Philox): chunk
  ``k`` draws from ``rng.bit_generator.jumped(k + 1)``, and afterwards ``rng``'s
  state is that of ``rng.bit_generator.jumped(T + 1)`` -- the streams never
  overlap each other nor what ``rng`` draws next (NumPy's jump is 2**127 draws
  for PCG64, 2**128 for Philox and MT19937's is 2**128 too);
* SFC64 (no ``jumped``): chunk ``k`` draws from ``rng.bit_generator.spawn(T)[k]``
  (``SeedSequence.spawn``); ``rng``'s state is unchanged, its seed sequence has
  spawned ``T`` more children, so the next loop gets new streams.

The result therefore depends on the seed and on ``T`` (the thread count, and
``n`` when it is smaller), never on scheduling.  :func:`parallel_streams` and
:func:`advance` are the interpreter's equivalent: a test draws chunk by chunk
from them in plain NumPy and compares bit for bit.

Compiled code reaches this module through two host functions
(``hj.host.hanajit_streams_open`` / ``hanajit_streams_close``, linked by the
CPU engine as ctypes callbacks): before the loop, ``open`` gets the generator's
four words (state pointer and ``next_*`` functions), finds the bit generator
object they belong to (its type from ``next_uint64``, the object from the state
pointer at an offset found once per process and checked on every NumPy bit
generator), makes the ``T`` streams and writes their four words per chunk; the
streams stay alive until ``close`` after the loop, which advances ``rng``.
"""
from __future__ import annotations

import ctypes

_KINDS = ("PCG64", "PCG64DXSM", "MT19937", "Philox", "SFC64")
_state: dict = {}
_open: dict = {}          # words address -> (bit generator, streams, state after)


def chunk_bounds(k: int, nchunks: int, n: int) -> tuple:
    """Iterations ``lo..hi`` (of ``0..n``) that chunk ``k`` of ``nchunks`` runs
    (the first ``n % nchunks`` chunks take one more)."""
    q, r = divmod(n, nchunks)
    return k * q + min(k, r), (k + 1) * q + min(k + 1, r)


def num_chunks(n: int, threads: int) -> int:
    """How many chunks a parallel loop of ``n`` iterations runs in on
    ``threads`` threads (``hanajit.get_num_threads()`` or ``@jit(workers=)``)."""
    return min(n, threads)


def _streams(bg, nchunks: int):
    """(the chunks' bit generators, ``bg``'s state afterwards or None)."""
    if hasattr(bg, "jumped"):
        out, cur = [], bg
        for _ in range(nchunks):        # jumped(1) k + 1 times is jumped(k + 1)
            cur = cur.jumped()
            out.append(cur)
        return out, cur.jumped().state
    return list(bg.spawn(nchunks)), None


def parallel_streams(rng, nchunks: int) -> list:
    """The generators that chunks ``0..nchunks-1`` of a parallel loop draw from
    (new ``np.random.Generator`` objects; ``rng`` is not changed: see
    :func:`advance`, except that SFC64's seed sequence spawns its children)."""
    import numpy as np
    bgs, _ = _streams(rng.bit_generator, nchunks)
    return [np.random.Generator(b) for b in bgs]


def advance(rng, nchunks: int) -> None:
    """Leave ``rng`` as a parallel loop of ``nchunks`` chunks leaves it (after
    :func:`parallel_streams`): at ``jumped(nchunks + 1)``; SFC64 unchanged."""
    bg = rng.bit_generator
    if hasattr(bg, "jumped"):
        bg.state = bg.jumped(nchunks + 1).state


def supported() -> bool:
    """Can compiled code find a generator's bit generator from its words (the
    layout probe passed for every bit generator NumPy ships)?"""
    return _types() is not None


def _types():
    """``next_uint64`` address -> (class, offset of the state in the object)."""
    if "types" not in _state:
        try:
            _state["types"] = _probe()
        except Exception:               # pragma: no cover - any surprise: serial
            _state["types"] = None
    return _state["types"]


def _fn(f) -> int:
    return ctypes.cast(f, ctypes.c_void_p).value


def _probe():
    import numpy as np
    found = {}
    for kind in _KINDS:
        cls = getattr(np.random, kind)
        offsets, fns = set(), set()
        for seed in (1, 2):
            bg = cls(seed)
            off = bg.ctypes.state_address - id(bg)
            if not 16 <= off < type(bg).__basicsize__:
                return None
            offsets.add(off)
            fns.add(_fn(bg.ctypes.next_uint64))
        if len(offsets) != 1 or len(fns) != 1 or fns & set(found):
            return None
        found[fns.pop()] = (cls, offsets.pop())
    return found


def _owner(state: int, next_uint64: int):
    """The bit generator whose state is at ``state`` (None if unknown)."""
    known = (_types() or {}).get(next_uint64)
    if known is None:
        return None
    cls, off = known
    bg = ctypes.cast(state - off, ctypes.py_object).value
    if not isinstance(bg, cls) or bg.ctypes.state_address != state:
        return None
    return bg


def _words(bg) -> tuple:
    c = bg.ctypes
    return (c.state_address, _fn(c.next_uint64), _fn(c.next_uint32),
            _fn(c.next_double))


def open_streams(state, next_uint64, nchunks, out):
    """``hanajit_streams_open``: 0 when the ``nchunks`` streams' words are at
    ``out`` (4 int64 each), 1 when the generator is not one hanajit knows."""
    try:
        bg = _owner(state or 0, next_uint64 or 0)
        if bg is None or (not hasattr(bg, "jumped") and getattr(bg, "seed_seq", None)
                          is None):
            return 1
        streams, after = _streams(bg, nchunks)
        words = (ctypes.c_int64 * (4 * nchunks)).from_address(out)
        for k, s in enumerate(streams):
            words[4 * k:4 * k + 4] = list(_words(s))
        _open[out] = (bg, streams, after)
        return 0
    except Exception:                   # pragma: no cover - reported as unknown
        return 1


def close_streams(out):
    """``hanajit_streams_close``: the loop is over; advance the generator."""
    bg, _, after = _open.pop(out or 0, (None, None, None))
    try:
        if after is not None:
            bg.state = after
    except Exception:                   # pragma: no cover - NumPy refused its own state
        return 1
    return 0


_OPEN = ctypes.CFUNCTYPE(ctypes.c_int64, ctypes.c_void_p, ctypes.c_void_p,
                         ctypes.c_int64, ctypes.c_void_p)(open_streams)
_CLOSE = ctypes.CFUNCTYPE(ctypes.c_int64, ctypes.c_void_p)(close_streams)
HOST = {"hanajit_streams_open": _OPEN, "hanajit_streams_close": _CLOSE}


def host_address(name: str):
    """The address of host function ``name`` of this module, else None."""
    f = HOST.get(name)
    return None if f is None else _fn(f)

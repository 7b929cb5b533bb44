"""``f.narrow(*args, confirmed=True)``: integer reductions added in narrow lanes.

The specialisation for the arguments' types goes through the ordinary pipeline;
then :func:`hanajit.passes.narrow_reductions.narrow_reductions` regroups every
reduction loop whose terms it can bound (``acc += x[i]`` over an int8 array, an
``np.sum``, ``acc += x[i] * x[i]``, ``acc += x[i] > 3`` ...) into blocks that add in
16- or 32-bit lanes, and the target compiles the result.  Integer addition is exact
in any grouping, so the result is the ordinary compiled function's, bit for bit.
When no loop qualifies, the ordinary compiled code runs, with one
:class:`~hanajit.errors.HanaJitNarrowWarning` naming the function and the reason.
The narrow code is kept per argument types on the jitted function (never in the
disk cache).  See docs/narrow.md.
"""
from __future__ import annotations

import functools
import sys
import warnings
import weakref

from .dispatch.specialization import Specialization
from .errors import HanaJitNarrowWarning, TargetError, UnsupportedError
from .jitted import new_jitted


def narrow_function(jf, confirmed):
    """The jitted function that runs ``jf``'s narrow specialisations (made on first
    use): one of the same Python function whose specialisations are the narrow
    ones, so a call takes its native dispatcher (tens of ns) like any jitted call,
    and a miss comes to :func:`_specialize`."""
    if confirmed is not True:
        raise ValueError(
            f"{jf.__qualname__}.narrow() compiles a separate specialisation whose "
            "integer reductions add narrow (int8/int16/int32) elements in 16- or "
            "32-bit blocks before widening to the accumulator; the result is exact, "
            "but the code path is experimental: pass confirmed=True to use it")
    with jf._lock:
        shadow = jf.__dict__.get("_narrow_fn")
        if shadow is None:
            jf._target()          # decides target="auto" first: the copy needs a name
            shadow = new_jitted(jf.py_func, **{**jf.options, "signature": None,
                                              "cache": False})
            # (an instance attribute wins over the method of the class)
            shadow.__dict__["_specialize"] = functools.partial(
                _specialize, weakref.ref(jf), shadow)
            jf.__dict__["_narrow_fn"] = shadow
    return shadow


def _specialize(jf_ref, shadow, key: tuple, args: tuple):
    """The runner of ``shadow`` for argument types ``key``: the narrow code (added
    to the native dispatcher), the ordinary jitted function, or -- for misaligned
    arrays, which compiled code does not take -- a call on aligned copies."""
    jf = jf_ref()
    if any(t is None for t in key) and any(_misaligned(a) for a in args):
        return functools.partial(_on_aligned_copies, shadow)
    with shadow._lock:
        runner = shadow._specs.get(key)
        if runner is None:
            spec = narrow_spec(jf, key)
            runner = shadow._specs[key] = spec.runner
            if spec.artifact is not None:
                shadow._compiled[key] = Specialization(key, spec.module, spec.artifact,
                                                       spec.runner)
                shadow._native_stale = shadow._shape is not None
        return runner


def _misaligned(a) -> bool:
    return type(a).__name__ == "ndarray" and not a.flags.aligned


def _on_aligned_copies(fn, *args):
    """``fn(*args)`` with misaligned arrays (a view at an odd byte offset) passed as
    aligned copies and copied back afterwards, as ``pmap`` does."""
    fixed = tuple(a.copy() if _misaligned(a) else a for a in args)
    try:
        return fn(*fixed)
    finally:
        for a, f in zip(args, fixed):
            if f is not a and a.flags.writeable:
                a[...] = f


class NarrowSpec:
    """A narrow specialisation: what runs (the narrow code, or the jitted function
    itself), the per-loop :class:`~hanajit.passes.narrow_reductions.LoopReport`s,
    and the IR module and target artifact (None when the ordinary code runs)."""

    def __init__(self, runner, report=(), module=None, artifact=None):
        self.runner, self.report = runner, list(report)
        self.module, self.artifact = module, artifact


def narrow_spec(jf, key: tuple) -> NarrowSpec:
    """The narrow specialisation of ``jf`` for argument types ``key`` (made and
    kept on ``jf`` on first use)."""
    table = jf.__dict__.setdefault("_narrow_specs", {})
    spec = table.get(key)
    if spec is None:
        with jf._lock:
            spec = table.get(key)
            if spec is None:
                spec = table[key] = build(jf, key)
    return spec


def build(jf, key: tuple, widths=None) -> NarrowSpec:
    """Compile the narrow specialisation for ``key`` (not kept); the ordinary path,
    with a warning, when nothing can be narrowed.  ``widths`` restricts the block
    widths (``(32,)``; ``benchmarks/bench_narrow.py`` compares them)."""
    if any(t is None for t in key):
        return _ordinary(jf, "an argument type is not supported by compiled code")
    target = jf._target()
    if target.kind != "host":
        return _ordinary(jf, f"target {target.name!r} runs through launch()")
    from .passes.narrow_reductions import AS_COMPILED, BLOCK_BITS, NO_UPDATE
    from .pipeline import build
    try:
        built = build(jf.py_func, key, dict(jf.options, narrow=tuple(widths or BLOCK_BITS)))
        module, report = built.module, built.context.narrow_report
        blocked = any(r.blocks not in (None, AS_COMPILED) for r in report)
        artifact = target.compile(module, jf.options) if blocked else None
    except (UnsupportedError, TargetError, RecursionError) as exc:
        return _ordinary(jf, f"it does not compile ({exc})")
    except Exception as exc:              # an internal error: never crash the user
        return _ordinary(jf, f"internal compiler error ({type(exc).__name__}: {exc}); "
                         "please report it")
    if artifact is not None:
        return NarrowSpec(target.load(artifact, jf.py_func), report,
                          module, artifact)
    if any(r.blocks for r in report):
        return NarrowSpec(jf, report)     # 32-bit terms: compiled so already
    report.sort(key=lambda r: r.why == NO_UPDATE)     # the telling reason first
    return _ordinary(jf, next((f"line {r.line}: {r.why}" for r in report),
                              "it has no counted loop"), report)


def _ordinary(jf, why: str, report=()) -> NarrowSpec:
    warnings.warn(HanaJitNarrowWarning(
        f"hanajit: {jf.__qualname__}.narrow() runs as an ordinary call: {why}"),
        stacklevel=_caller_level())
    return NarrowSpec(jf, report)


def _caller_level() -> int:
    """The ``stacklevel`` of the first frame outside hanajit, seen from the caller."""
    frame, level = sys._getframe(1), 1
    while frame is not None and frame.f_globals.get("__name__", "").startswith(
            "hanajit."):
        frame, level = frame.f_back, level + 1
    return level

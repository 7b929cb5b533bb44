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

import warnings

from .errors import HanaJitNarrowWarning, TargetError, UnsupportedError
from .infer.rules import typeof


def narrow_call(jf, args: tuple, kwargs: dict, confirmed):
    """Run ``jf`` on ``args`` through its narrow specialisation (made on first use)."""
    if confirmed is not True:
        raise ValueError(
            f"{jf.__qualname__}.narrow() compiles a separate specialisation whose "
            "integer reductions add narrow (int8/int16/int32) elements in 16- or "
            "32-bit blocks before widening to the accumulator; the result is exact, "
            "but the code path is experimental: pass confirmed=True to use it")
    if kwargs or len(args) != jf._nparams:
        args = jf._bind(args, kwargs)
    # compiled code takes aligned arrays only: misaligned ones (a view at an odd
    # byte offset) run as aligned copies, copied back afterwards, as in pmap
    fixed = tuple(a.copy() if type(a).__name__ == "ndarray" and not a.flags.aligned
                  else a for a in args)
    try:
        return narrow_spec(jf, tuple(map(typeof, fixed))).runner(*fixed)
    finally:
        for a, f in zip(args, fixed):
            if f is not a and a.flags.writeable:
                a[...] = f


class NarrowSpec:
    """A narrow specialisation: what runs (the narrow code, or the jitted function
    itself), the per-loop :class:`~hanajit.passes.narrow_reductions.LoopReport`s
    and the target artifact (None when the ordinary code runs)."""

    def __init__(self, runner, report=(), artifact=None):
        self.runner, self.report, self.artifact = runner, list(report), artifact


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
    from .passes.narrow_reductions import BLOCK_BITS, NO_UPDATE, narrow_reductions
    from .pipeline import _dump, _verify, compile_ir
    try:
        module, _ = compile_ir(jf.py_func, key, jf.options)
        report = []
        for fn in module.functions.values():
            report += narrow_reductions(fn, widths=widths or BLOCK_BITS)
            _verify(fn)
            _dump("narrow_reductions", fn)
        blocked = any(r.blocks not in (None, "64-bit lanes") for r in report)
        artifact = target.compile(module, jf.options) if blocked else None
    except (UnsupportedError, TargetError, RecursionError) as exc:
        return _ordinary(jf, f"it does not compile ({exc})")
    except Exception as exc:              # an internal error: never crash the user
        return _ordinary(jf, f"internal compiler error ({type(exc).__name__}: {exc}); "
                         "please report it")
    if artifact is not None:
        return NarrowSpec(target.load(artifact, jf._make_deopt(module)), report,
                          artifact)
    if any(r.blocks for r in report):
        return NarrowSpec(jf, report)     # 32-bit terms: compiled so already
    report.sort(key=lambda r: r.why == NO_UPDATE)     # the telling reason first
    return _ordinary(jf, next((f"line {r.line}: {r.why}" for r in report),
                              "it has no counted loop"), report)


def _ordinary(jf, why: str, report=()) -> NarrowSpec:
    warnings.warn(HanaJitNarrowWarning(
        f"hanajit: {jf.__qualname__}.narrow() runs as an ordinary call: {why}"),
        stacklevel=6)
    return NarrowSpec(jf, report)

"""Typing and lowering of parallel regions (``prange``; see
``hanajit.frontend.parallel`` for the analysis and the outlining).

The parent function calls the outlined region through a :class:`ParallelRegion`;
lowering turns that call into a ``ParallelFor`` statement (chunk ``k`` of ``T``
may run concurrently).  Everything else here is ordinary primitive IR: the range
length, the overlap check that makes a loop serial when a written array shares
memory with another array it uses, the chunk count, the partial-result arrays and
the reductions' identities.
"""
from __future__ import annotations

from ...errors import UnsupportedError
from ...typing_rules import Incompatible
from ...ir import nodes as N
from ...ir import types as T
from ..python import operators as ops
from ..python.operators import C
from ..registry import CallTemplate, register

P = "hanajit.lib.parallel.runtime_calls."


class SerialLoop(Exception):
    """A parallel loop cannot run in parallel after all (found once types are
    known); the owner function is rebuilt with this loop serial."""

    def __init__(self, owner, line, message):
        super().__init__(message)
        self.owner = owner
        self.line = line
        self.message = message


class ParallelRegion:
    """The callee of the generated region call in the parent function."""

    def __init__(self, region, plan, owner, line, explicit):
        self.region = region          # frontend.parallel.RegionFunction
        self.plan = plan
        self.owner = owner            # the parent's pyfunc
        self.line = line
        self.explicit = explicit      # prange (vs. parallel=True promotion)
        self.__name__ = region.__qualname__

    def __call__(self, *args):      # pragma: no cover - never run by Python
        raise RuntimeError("a parallel region is only called by compiled code")

    # the region's parameters: k, T, n, start, step, captured..., partials...
    def infer(self, inf, call, argtypes, line):
        plan = self.plan
        ncap = len(plan.captured)
        captured = dict(zip(plan.captured, argtypes[4:4 + ncap]))
        for name in plan.called_with:
            if _holds_array(captured.get(name)):
                raise SerialLoop(self.owner, self.line,
                                 f"array '{name}' is passed to a function inside the loop, "
                                 "which may write to it")
        for name, t in captured.items():
            # a chunk's stream is made under the GIL: passed to a function, whose
            # own parallel loop would run in a worker thread, it stays serial
            if _holds_generator(t) and not (
                    type(t) is T.GeneratorType and name in plan.streams
                    and name not in plan.called_with and _streams_supported()):
                raise SerialLoop(self.owner, self.line,
                                 f"random generator '{name}' is shared by the iterations "
                                 "(its draws must stay in order)")
        # the reductions' values before the loop (the last arguments): a NumPy
        # scalar stays one in the region, where it starts from the identity
        nred = len(plan.reductions)
        if nred:
            values = list(argtypes[len(argtypes) - nred:])
            for k, (name, a) in enumerate(zip(plan.reductions, call.args[-nred:])):
                if values[k] in T.PYTHON_KINDS and inf.is_strong(a):
                    values[k] = T.NumpyScalarArg(values[k])
            argtypes = list(argtypes[:len(argtypes) - nred]) + values
        # a str constant captured (a str argument): the region specialises on it too
        argtypes = [_str_arg(a, t) for a, t in zip(call.args, argtypes)]
        try:
            spec = inf.ctx.specialize(self.region, (T.INT64,) + tuple(argtypes))
        except UnsupportedError as exc:
            # a reduction that starts from a Python number and adds NumPy scalars
            # of a narrower type (infer/weak_locals.py): serially, as written
            if exc.construct == "variable type change" and any(
                    f"'{name}' changes type" in str(exc) for name in plan.reductions):
                raise SerialLoop(self.owner, self.line, str(exc).split(": ", 2)[-1]
                                 ) from None
            raise
        call.spec = spec
        for name, pt in zip(plan.reductions, argtypes[4 + ncap:]):
            got = spec.fn.locals.get(name) if spec.fn is not None else None
            if got is not None and got != pt.dtype:
                raise SerialLoop(self.owner, self.line,
                                 f"reduction variable '{name}' changes type in the loop "
                                 f"({pt.dtype} -> {got}); give it its final type before "
                                 "the loop (for example s = 0.0)")
        if plan.array_reductions and spec.fn is not None:
            _check_array_updates(self, spec.fn, plan.array_reductions)
        return T.NONE

    def lower(self, L, call, args):
        spec = call.spec
        counter = L.temp(T.INT64, "chunk")
        body = [N.ExprStmt(value=N.Call(spec.symbol, [N.Var(counter, T.INT64)] + list(args),
                                        T.NONE), line=L.line)]
        L.emit(N.ParallelFor(counter=counter, count=args[0], body=body, line=L.line))
        return N.Const(None, T.NONE)


_KIND = {"b": 0, "u": 1, "i": 1, "f": 2, "c": 3}


def _check_array_updates(region, fn, names):
    """Per-chunk copies give the serial answer (up to float reassociation) only if
    no update rounds to the array's type at each step: a float added into an int
    array (truncated at every step), or a complex into a float one, is refused."""
    for st in N.walk_stmts(fn.body):
        if isinstance(st, N.PySetItem) and isinstance(st.target, N.Var) \
                and st.target.name in names:
            vt = getattr(st.value, "type", None)
            at = getattr(st.target, "type", None) or fn.locals.get(st.target.name)
            if isinstance(vt, T.Scalar) and isinstance(at, T.ArrayType) and \
                    _KIND[vt.kind] > _KIND[at.dtype.kind] and _KIND[vt.kind] >= 2:
                raise SerialLoop(region.owner, region.line,
                                 f"'{st.target.name}' is a {at.dtype} array updated with "
                                 f"{vt} values (rounded at every step)")


def _holds_generator(t) -> bool:
    if isinstance(t, T.GeneratorType):
        return True
    return isinstance(t, T.TupleType) and any(_holds_generator(i) for i in t.items)


def _streams_supported() -> bool:
    from ...parallel_streams import supported
    return supported()


class Streams(CallTemplate):
    """``prims.rng_streams_open(state, next_uint64, count, words)`` and
    ``prims.rng_streams_close(words)``: the host functions of
    :mod:`hanajit.parallel_streams` (``hj.host.hanajit_streams_*``), on the
    address of ``words``."""

    def __init__(self, name, nargs):
        self.name, self.nargs = name, nargs
        self.paths = (f"hanajit.lib.prims.rng_streams_{name}",)

    def typer(self, inf, call, args, kwargs):
        if kwargs or len(args) != self.nargs or args[-1] != WORDS:
            raise Incompatible(f"prims.rng_streams_{self.name}: wrong arguments")
        return T.INT64

    def lower(self, L, call, args, kwargs):
        values = [L.let(ops.convert(L, a, T.INT64)) for a in args[:-1]]
        values.append(L.let(N.ArrayAttr(args[-1], "data", 0, T.INT64)))
        target = L.temp(T.INT64, "streams")
        L.emit(N.Assign(target=target, value=C(0, T.INT64)))
        L.emit(N.ForeignCall(symbol=f"hanajit_streams_{self.name}", args=values,
                             returns=T.INT64, target=target))
        return N.Var(target, T.INT64)


register(Streams("open", 4))
register(Streams("close", 1))
WORDS = T.ArrayType(T.INT64, 1, "C")


def _is_generator(t) -> bool:
    return type(t) is T.GeneratorType


@register
class StreamWords(CallTemplate):
    """``stream_words(x, T)``: for a ``Generator`` ``x``, the words of its ``T``
    per-chunk streams (``random/stream_algorithms.py``: ``open_streams``); else a dummy 0."""
    paths = (P + "stream_words",)

    def typer(self, inf, call, args, kwargs):
        return WORDS if _is_generator(args[0]) else T.INT64

    def lower(self, L, call, args, kwargs):
        from ..random import stream_algorithms as hs
        if call.type != WORDS:
            return C(0, T.INT64)
        g = L.let(args[0])
        return L.call_helper(hs.open_streams, [
            L.let(N.TupleGet(g, 0, T.INT64)), L.let(N.TupleGet(g, 1, T.INT64)),
            L.let(ops.convert(L, args[1], T.INT64))])


@register
class ChunkStream(CallTemplate):
    """``chunk_stream(words, x, k)``: chunk ``k``'s stream of ``x`` (``x`` itself
    when it is not a ``Generator``)."""
    paths = (P + "chunk_stream",)

    def typer(self, inf, call, args, kwargs):
        return args[1]

    def lower(self, L, call, args, kwargs):
        if args[0].type != WORDS or not _is_generator(args[1].type):
            return args[1]
        start = N.BinOp("mul", ops.convert(L, args[2], T.INT64), C(4, T.INT64), T.INT64)
        return N.MakeGenerator(args[0], T.GENERATOR, start=L.let(start))


@register
class StreamClose(CallTemplate):
    """``stream_close(words)``: end the streams after the loop (advances the
    generator, :mod:`hanajit.parallel_streams`)."""
    paths = (P + "stream_close",)

    def typer(self, inf, call, args, kwargs):
        return T.NONE

    def lower(self, L, call, args, kwargs):
        from ..random import stream_algorithms as hs
        from ..random.generator import call_void
        if args[0].type == WORDS:
            call_void(L, hs.close_streams, [args[0]])
        return C(None, T.NONE)


def _holds_array(t) -> bool:
    if isinstance(t, T.ArrayType):
        return True
    if isinstance(t, T.TupleType):
        return any(_holds_array(i) for i in t.items)
    return False


def _int(t):
    return isinstance(t, T.Scalar) and (t.is_int or t.is_bool)


@register
class PrangeLen(CallTemplate):
    paths = (P + "prange_len",)

    def typer(self, inf, call, args, kwargs):
        if len(args) != 3 or not all(_int(a) for a in args):
            raise Incompatible("prange() takes 1 to 3 integer arguments")
        return T.INT64

    def lower(self, L, call, args, kwargs):
        a, b, c = (L.let(ops.convert(L, x, T.INT64)) for x in args)
        return ops.range_count(L, a, b, c)


@register
class Overlap(CallTemplate):
    """``overlap(nw, a0, ..., ak)``: may any of the first ``nw`` arrays share memory
    with any other array in the list (not the same variable)?"""
    paths = (P + "overlap",)

    def typer(self, inf, call, args, kwargs):
        return T.BOOL

    def lower(self, L, call, args, kwargs):
        nw = call.args[0].value
        arrays = [a for a in args[1:]]
        result = C(False, T.BOOL)
        for i in range(min(nw, len(arrays))):
            for j in range(len(arrays)):
                if j == i or not (isinstance(arrays[i].type, T.ArrayType)
                                  and isinstance(arrays[j].type, T.ArrayType)):
                    continue
                result = ops.bor(result, ranges_meet(L, arrays[i], arrays[j]))
        return result


def _extent(L, a):
    """(first byte, one past the last byte, non-empty) of the memory ``a`` spans."""
    t = a.type
    I = T.INT64
    lo = hi = N.ArrayAttr(a, "data", 0, I)
    nonempty = C(True, T.BOOL)
    for k in range(t.ndim):
        d = N.ArrayAttr(a, "shape", k, I)
        span = N.BinOp("mul", N.BinOp("sub", d, C(1, I), I), N.ArrayAttr(a, "stride", k, I), I)
        neg = N.Cmp("lt", span, C(0, I), T.BOOL)
        lo = N.BinOp("add", lo, N.Select(neg, span, C(0, I), I), I)
        hi = N.BinOp("add", hi, N.Select(neg, C(0, I), span, I), I)
        nonempty = ops.band(nonempty, N.Cmp("gt", d, C(0, I), T.BOOL))
    hi = N.BinOp("add", hi, C(max(1, t.dtype.bits // 8), I), I)
    return L.let(lo), L.let(hi), L.let(nonempty)


def ranges_meet(L, a, b):
    """A boolean expression: do the memory ranges of arrays ``a`` and ``b``
    overlap?"""
    alo, ahi, ane = _extent(L, a)
    blo, bhi, bne = _extent(L, b)
    meet = ops.band(N.Cmp("lt", alo, bhi, T.BOOL), N.Cmp("lt", blo, ahi, T.BOOL))
    return ops.band(ops.band(ane, bne), meet)


@register
class NumChunks(CallTemplate):
    """``num_chunks(n, workers, serial)``: how many chunks to cut ``n`` iterations
    into -- one per worker thread, never more than ``n``; one when ``serial``."""
    paths = (P + "num_chunks",)

    def typer(self, inf, call, args, kwargs):
        return T.INT64

    def lower(self, L, call, args, kwargs):
        n, workers, serial = args
        I = T.INT64
        w = workers if not (isinstance(workers, N.Const) and workers.value == 0) else \
            N.NumThreads(type=I)
        w = L.let(N.Select(serial, C(1, I), w, I))
        return N.Select(N.Cmp("lt", n, w, T.BOOL), n, w, I)


@register
class Partials(CallTemplate):
    """``partials(T, like)``: an uninitialised array of ``T`` values of ``like``'s type."""
    paths = (P + "partials",)

    def typer(self, inf, call, args, kwargs):
        t = args[1]
        if not isinstance(t, T.Scalar):
            raise Incompatible(f"a reduction over {t} values")
        return T.ArrayType(t, 1, "C")

    def lower(self, L, call, args, kwargs):
        from ..arrays.creation import allocate
        return allocate(L, call.type, [args[0]])


def identity(op: str, t: T.Scalar) -> N.Const:
    """The identity of reduction operator ``op`` at type ``t`` (``-0.0`` for float
    sums, so a chunk that adds only ``-0.0`` stays ``-0.0``)."""
    if t.is_complex:
        v = {"add": complex(-0.0, -0.0), "mul": 1 + 0j}[op]
    elif t.is_float:
        v = {"add": -0.0, "mul": 1.0, "min": float("inf"), "max": float("-inf")}[op]
    elif t.is_bool:
        v = {"add": False, "mul": True, "min": True, "max": False}[op]
    else:
        lo, hi = (0, (1 << t.bits) - 1) if t.kind == "u" else (
            -(1 << (t.bits - 1)), (1 << (t.bits - 1)) - 1)
        v = {"add": 0, "mul": 1, "min": hi, "max": lo}[op]
    return C(v, t)


class ArrayPartials(CallTemplate):
    """``array_partials_<op>(T, a)``: ``T`` private copies of array ``a``'s shape,
    filled with the operator's identity (an array reduction's per-chunk copies)."""

    def __init__(self, op):
        self.op = op
        self.paths = (P + "array_partials_" + op,)

    def typer(self, inf, call, args, kwargs):
        a = args[1]
        if not isinstance(a, T.ArrayType):
            raise Incompatible(f"an array reduction into {a}")
        return T.ArrayType(a.dtype, a.ndim + 1, "C")

    def lower(self, L, call, args, kwargs):
        from ..arrays.creation import allocate, fill
        t = call.type
        a = L.let(args[1])
        dims = [L.let(ops.convert_wrap(args[0], T.INT64))] + [
            L.let(N.ArrayAttr(a, "shape", k, T.INT64)) for k in range(t.ndim - 1)]
        arr = allocate(L, t, dims)
        v = identity(self.op, t.dtype)
        fill(L, arr, dims, lambda idx: v)
        return arr


class Identity(CallTemplate):
    """``ident_<op>(partials, start)``: the identity at the partial array's element
    type (``start``, the variable's value before the loop, only says whether it is
    a NumPy scalar: ``infer`` reads it)."""

    def __init__(self, op):
        self.op = op
        self.paths = (P + "ident_" + op,)

    def typer(self, inf, call, args, kwargs):
        return args[0].dtype

    def lower(self, L, call, args, kwargs):
        return identity(self.op, call.type)


for _op in ("add", "mul", "min", "max"):
    register(Identity(_op))
for _op in ("add", "mul"):
    register(ArrayPartials(_op))


def _str_arg(node, t):
    """``t``, or the StrArg of a str constant (infer/str_params.py)."""
    if isinstance(t, T.ConstType) and type(t.value) is str:
        node.type = t = T.StrArg(t.value)
    return t

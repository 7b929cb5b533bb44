"""``np.random.default_rng(seed)`` and ``np.random.Generator(np.random.PCG64(seed))``
made inside a compiled function.

The generator is seeded in compiled code exactly as NumPy seeds it
(``seed_algorithms.py``: SeedSequence's hashing, then PCG64's seeding) into a
state block the function owns: an int64 array held by a temporary of the
creating statement, whose first four words are the generator value's words
(``MakeGenerator``), the state pointer pointing into the same array.  Draws go
through NumPy's own PCG64 C functions (``RandomBits``), so every method a
``Generator`` argument supports gives the interpreter's values for the same seed.

Why not ask NumPy for the object: the state block is ordinary memory of the
call, released with the function's other arrays on every exit (errors too),
and a generator re-seeded in a loop costs a few hundred integer operations,
not a call into Python.

Ownership: the block lives while its temporary is not reassigned, that is,
until the same statement runs again.  So the value stays in the variable it is
assigned to (``infer.py`` refuses copying it to another name, a tuple, or
returning it); calls receive it borrowed, as Python's would.

Seeds compiled: an int (any integer type; a negative one raises NumPy's
ValueError) and ``None``/no argument (128 bits of OS entropy through a host
callback, a fresh stream per call).  Targets whose code does not run in this
process refuse it (``Capabilities.host_calls``): NumPy's PCG64 functions live
here.  Array, list and ``SeedSequence`` seeds fall back.
"""
from __future__ import annotations

from ...typing_rules import Incompatible
from ...ir import nodes as N
from ...ir import types as T
from ..python import operators as ops
from . import seed_algorithms as hs
from .generator import is_absent, is_absent_expr
from .legacy import HostView
from ..registry import CallTemplate, bind_arguments, register

I = T.INT64


def _host_ok(inf, what):
    from .local_state import layout_ok
    if inf.ctx is None or not inf.ctx.capabilities.host_calls:
        raise Incompatible(f"{what} draws through NumPy's PCG64 functions in this "
                           "process, which code running outside it (this target) "
                           "cannot call")
    if not layout_ok():
        raise Incompatible(f"{what}: NumPy's PCG64 has a state layout hanajit does "
                           "not know")


def _seed_type(inf, what, seed):
    if is_absent(seed):
        if inf.ctx.options.get("c_exports"):
            raise Incompatible(f"{what} without a seed asks Python for OS entropy, "
                               "which a plain C function cannot")
        return
    if not (isinstance(seed, T.Scalar) and (seed.is_int or seed.is_bool)):
        raise Incompatible(f"{what} with a seed of type {seed} (an int or None is "
                           "compiled; arrays, lists and SeedSequence run in the "
                           "interpreter)")


def seed_words(L, seed):
    """The temporary holding a new seeded PCG64 block (``seed_algorithms``)."""
    if is_absent_expr(seed):
        return L.call_helper(hs.entropy_words, [])
    if seed.type == T.UINT64:
        return L.call_helper(hs.seeded_words_unsigned, [seed])
    return L.call_helper(hs.seeded_words, [ops.convert(L, seed, I)])


class Seeded(CallTemplate):
    """``np.random.default_rng(seed=None)`` (a generator) and
    ``np.random.PCG64(seed=None)`` (only as ``np.random.Generator``'s argument):
    a new seeded PCG64 block, typed ``result``."""

    def __init__(self, name: str, result):
        self.name, self.result = name, result
        self.paths = (f"numpy.random.{name}",)

    def typer(self, inf, call, args, kwargs):
        bound = bind_arguments(self.name, ("seed",), args, kwargs)
        _host_ok(inf, f"np.random.{self.name}()")
        _seed_type(inf, f"np.random.{self.name}()", bound.get("seed"))
        return self.result

    def lower(self, L, call, args, kwargs):
        bound = bind_arguments(self.name, ("seed",), args, kwargs)
        words = seed_words(L, bound.get("seed"))
        return N.MakeGenerator(words, self.result, start=ops.C(0, I))


class GeneratorOf(CallTemplate):
    """``np.random.Generator(np.random.PCG64(seed))``: the bit generator's words."""

    paths = ("numpy.random.Generator",)

    def typer(self, inf, call, args, kwargs):
        bound = bind_arguments("Generator", ("bit_generator",), args, kwargs)
        if bound.get("bit_generator") != T.LOCAL_BITGEN:
            raise Incompatible("np.random.Generator() of something other than "
                               "np.random.PCG64(seed) written in the call")
        return T.LOCAL_GENERATOR

    def lower(self, L, call, args, kwargs):
        bg = bind_arguments("Generator", ("bit_generator",), args, kwargs)["bit_generator"]
        if isinstance(bg, N.MakeGenerator):
            return N.MakeGenerator(bg.words, T.LOCAL_GENERATOR, start=bg.start)
        raise Incompatible("np.random.Generator() of a bit generator held elsewhere")


class OsEntropy(CallTemplate):
    """``prims.os_entropy(e)``: the host callback ``hanajit_os_entropy`` writes 128
    bits into the two int64 of ``e``; 0 on success (``entropy_words`` raises
    OSError otherwise)."""

    paths = ("hanajit.lib.prims.os_entropy",)

    def typer(self, inf, call, args, kwargs):
        if kwargs or len(args) != 1 or args[0] != T.ArrayType(I, 1, "C"):
            raise Incompatible("prims.os_entropy(int64 words)")
        return I

    def lower(self, L, call, args, kwargs):
        address = L.let(N.ArrayAttr(args[0], "data", 0, I))
        target = L.temp(I, "entropy")
        L.emit(N.Assign(target=target, value=ops.C(0, I)))
        L.emit(N.ForeignCall(symbol="hanajit_os_entropy", args=[address],
                             returns=I, target=target))
        return N.Var(target, I)


for _t in (Seeded("default_rng", T.LOCAL_GENERATOR), Seeded("PCG64", T.LOCAL_BITGEN),
           GeneratorOf(), OsEntropy(),
           HostView("pcg64_functions", "hj.pcg64.functions", I, 3)):
    register(_t)


def local_generator_problem(t, value) -> str:
    """Why the assignment of ``value`` (an IR expression) of type ``t`` cannot
    hold a generator made in the function, or ''."""
    if isinstance(t, T.LocalBitGenType):
        return ("np.random.PCG64(seed) kept in a variable (write "
                "np.random.Generator(np.random.PCG64(seed)))")
    if isinstance(t, T.LocalRandomStateType):
        return "" if isinstance(value, N.PyCall) else \
            "a RandomState made in the function copied to another name"
    if isinstance(t, T.SavedRandomStateType):
        return "" if isinstance(value, N.PyCall) else \
            "a RandomState's get_state() copied to another name"
    if isinstance(t, T.LocalGeneratorType):
        return "" if isinstance(value, N.PyCall) else \
            "a generator made in the function copied to another name"
    if isinstance(t, T.TupleType) and any(
            isinstance(i, (T.LocalGeneratorType, T.LocalBitGenType,
                           T.LocalRandomStateType, T.SavedRandomStateType)) or
            (isinstance(i, T.TupleType) and local_generator_problem(i, None))
            for i in t.items):
        return "a generator made in the function put in a tuple"
    return ""

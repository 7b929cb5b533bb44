"""The legacy ``np.random`` functions on NumPy's global ``RandomState``.

``np.random.random``/``random_sample``/``sample``, ``rand``, ``randn``,
``standard_normal``, ``normal``, ``uniform`` and ``randint`` (int64), scalar and
``size=`` forms, and ``seed`` of an int, draw from ``np.random.mtrand._rand``
exactly as it does: its
MT19937 (or whatever ``set_bit_generator`` gave it) through the ``bitgen_t``
it keeps, and its cached second Gaussian (``has_gauss``/``gauss``) read and
written in place (``legacy_algorithms.py``; the memory is found by
``legacy_state.py`` and linked by the CPU engine).  ``np.random.seed(None)``
runs the function in the interpreter, array seeds are ``legacy_seeding.py``'s;
the other distributions are in ``legacy_more.py``.  The same templates with
``method`` are the methods of a ``RandomState`` passed in or made in the function (``random_state.py``):
every helper takes the address of the state it draws from.
"""
from __future__ import annotations

from ...typing_rules import Incompatible
from ...ir import nodes as N
from ...ir import types as T
from ..python import operators as ops
from . import legacy_algorithms as hl
from . import narrow_draws as nd
from .generator import (call_void, draws_dtype, int_bounds, integer_draws, integers_dtype,
                        is_absent, is_absent_expr, is_integer_type, is_real_type,
                        narrow_args, new_array, sized)
from .legacy_state import AUG
from ..registry import CallTemplate, bind_arguments, register

F, I = T.FLOAT64, T.INT64


class HostView(CallTemplate):
    """A ``prims`` function of no arguments giving ``size`` values of process memory
    linked as ``symbol`` (``prims.legacy_bitgen()``, ``pcg64_functions()``,
    ``pyrandom_global()`` ...)."""

    def __init__(self, name, symbol, dtype, size):
        self.paths = (f"hanajit.lib.prims.{name}",)
        self.symbol, self.size = symbol, size
        self.type = T.ArrayType(dtype, 1, "C")

    def typer(self, inf, call, args, kwargs):
        if args or kwargs:
            raise Incompatible("takes no arguments")
        return self.type

    def lower(self, L, call, args, kwargs):
        return N.HostArray(self.symbol, self.size, self.type)


class MakeGenerator(CallTemplate):
    """``prims.make_generator(words)``: a ``GeneratorType`` from four int64s."""

    paths = ("hanajit.lib.prims.make_generator",)

    def typer(self, inf, call, args, kwargs):
        if kwargs or len(args) != 1 or args[0] != T.ArrayType(I, 1, "C"):
            raise Incompatible("prims.make_generator(int64 words)")
        return T.GENERATOR

    def lower(self, L, call, args, kwargs):
        return N.MakeGenerator(args[0], T.GENERATOR, start=N.Const(0, I))


class AtAddress(CallTemplate):
    """``prims.<name>(address)``: ``size`` elements of ``dtype`` at a run-time
    address plus ``offset`` bytes (``mt19937_key``: an MT19937 state's 624 key
    words and position; ``legacy_words``/``legacy_flags``/``legacy_cache``: a
    RandomState's ``bitgen_t`` and cached Gaussian)."""

    def __init__(self, name, dtype, size, offset=0):
        self.paths = (f"hanajit.lib.prims.{name}",)
        self.name, self.size, self.offset = name, size, offset
        self.type = T.ArrayType(dtype, 1, "C")

    def typer(self, inf, call, args, kwargs):
        if kwargs or len(args) != 1 or args[0] != I:
            raise Incompatible(f"prims.{self.name}(int64 address)")
        return self.type

    def lower(self, L, call, args, kwargs):
        at = args[0] if not self.offset else \
            L.let(N.BinOp("add", args[0], ops.C(self.offset, I), I))
        return N.HostArray("", self.size, self.type, address=at)


WORDS = T.ArrayType(I, 1, "C")


class OnState:
    """A call on a ``RandomState``'s state: ``np.random.<name>`` on the global
    one or, with ``method``, ``RandomState.<name>`` on the receiver (the first
    argument: a ``RandomStateType`` value, its word 0 the address)."""

    method = False

    def rest(self, args):
        """The arguments after the receiver."""
        return args[1:] if self.method else args

    def receiver_ok(self, inf, args):
        """A method's receiver: refused where its memory is out of reach."""
        if self.method:
            from .random_state import check_receiver
            check_receiver(inf, args[0])

    def state(self, L, args):
        """``st``: the address of the ``bitgen_t`` copy the call draws through."""
        return state_address(L, args[0] if self.method else None)


def state_address(L, receiver=None):
    """The address of the ``bitgen_t`` copy of the ``RandomState`` value
    ``receiver`` (its word 0), or of the global one (``None``)."""
    if receiver is not None:
        return L.let(N.TupleGet(receiver, 0, I))
    return L.let(N.ArrayAttr(N.HostArray("legacy_bitgen", 4, WORDS), "data", 0, I))


class Seed(OnState, CallTemplate):
    """``np.random.seed(s)`` / ``RandomState.seed(s)`` with an int ``s`` (None
    and arrays: the interpreter)."""

    def __init__(self, method=False):
        self.method = method
        self.paths = () if method else ("numpy.random.seed",)
        self.name = "RandomState.seed" if method else "np.random.seed"

    def typer(self, inf, call, args, kwargs):
        from ...errors import UnsupportedError
        from .legacy_state import legacy_addresses
        self.receiver_ok(inf, args)
        rest = self.rest(args)
        if kwargs or len(rest) != 1 or not (is_integer_type(rest[0])
                                            or array_seed(rest[0]) is not None):
            raise Incompatible(f"{self.name}() of something other than an int, a 1-D "
                               "integer array or a tuple of ints")
        try:
            known = "hj.numpy.mt19937_tag" in legacy_addresses()
        except UnsupportedError:
            known = False
        if not known:
            raise Incompatible(f"{self.name}(): MT19937's state layout is unknown")
        return T.NONE

    def lower(self, L, call, args, kwargs):
        s = self.rest(args)[0]
        kind = array_seed(s.type)
        if kind is None:
            call_void(L, hl.seed, [self.state(L, args), ops.convert(L, s, I)])
        else:
            from . import legacy_seeding as ls
            helper = ls.seed_array if kind == "array" else ls.seed_tuple
            call_void(L, helper, [self.state(L, args), s])
        return ops.C(None, T.NONE)


def array_seed(t):
    """"array" for a 1-D integer array, "tuple" for a tuple of ints (NumPy's
    ``_legacy_seeding`` array path: ``legacy_seeding.py``), else None.  Bool and
    uint64 items fall back (NumPy's safe cast to int64 refuses uint64)."""
    def ok(x):
        return isinstance(x, T.Scalar) and x.is_int and not x.is_bool and x != T.UINT64
    if isinstance(t, T.ArrayType) and t.ndim == 1 and ok(t.dtype):
        return "array"
    if isinstance(t, T.TupleType) and t.items and all(ok(x) for x in t.items):
        return "tuple"
    return None


register(AtAddress("mt19937_key", T.UINT32, 625))
register(AtAddress("legacy_words", I, 4))
register(AtAddress("legacy_flags", T.INT32, 6, AUG))
register(AtAddress("legacy_cache", F, 3, AUG))
register(Seed())
register(HostView("legacy_mt19937_tag", "mt19937_tag", I, 1))
register(HostView("legacy_mt19937_functions", "mt19937_functions", I, 4))
register(HostView("legacy_bitgen_tags", "bitgen_tags", I, 4))
register(HostView("legacy_bitgen", "legacy_bitgen", I, 4))
register(MakeGenerator())


class Legacy(OnState, CallTemplate):
    """One legacy function (or, ``method``, ``RandomState`` method): parameters
    with NumPy's defaults, the float ones, the scalar helper and the helper
    filling a ``size=`` array, each taking the state address first."""

    def __init__(self, paths, params, helper, fill, floats=(), defaults=None,
                 star=False, method=False):
        self.params, self.helper, self.fill = params, helper, fill
        self.floats, self.defaults, self.star = floats, defaults or {}, star
        self.method, self.name = method, paths[0]
        self.paths = () if method else paths

    def bind(self, args, kwargs):
        args = self.rest(args)
        if self.star:          # rand(d0, d1, ...): the dimensions are the size
            if kwargs:
                raise Incompatible("takes no keyword arguments")
            return {"size": args} if args else {}
        return bind_arguments(self.name, self.params, args, kwargs)

    def typer(self, inf, call, args, kwargs):
        self.receiver_ok(inf, args)
        bound = self.bind(args, kwargs)
        args = self.rest(args)
        for p in self.floats:
            if p in bound and not is_real_type(bound[p]):
                raise Incompatible(f"{p} of type {bound[p]}")
        if self.star:
            if not all(is_integer_type(t) and not t.is_bool for t in args):
                raise Incompatible("dimensions that are not integers")
            return T.ArrayType(F, len(args), "C") if args else F
        return sized(bound, F)

    def lower(self, L, call, args, kwargs):
        st = self.state(L, args)
        if self.star:
            dims = self.rest(args)
            size = N.MakeTuple(list(dims), T.TupleType(tuple(a.type for a in dims))) \
                if dims else None
            bound = {"size": size} if dims else {}
        else:
            bound = self.bind(args, kwargs)
        values = [L.let(ops.convert(L, bound[p], F)) if p in bound
                  else ops.C(self.defaults[p], F) for p in self.floats]
        if is_absent_expr(bound.get("size")):
            return L.call_helper(self.helper, [st] + values)
        out, flat = new_array(L, call.type, bound["size"])
        call_void(L, self.fill, [st, flat] + values)
        return out


class RandInt(Legacy):
    """``np.random.randint(low, high=None, size=None, dtype=int)``: int64 by
    ``interval``; the other integer dtypes and bool by NumPy's masked buffered
    draws (``narrow_draws``), after the dtype's bound checks."""

    def __init__(self, method=False):
        super().__init__(("numpy.random.randint",), ("low", "high", "size", "dtype"),
                         hl.randint, hl.fill_randint, method=method)

    def typer(self, inf, call, args, kwargs):
        self.receiver_ok(inf, args)
        bound = self.bind(args, kwargs)
        dt = integers_dtype(bound.get("dtype"), "randint()")
        if not is_integer_type(bound.get("low")) or not (
                is_integer_type(bound.get("high")) or is_absent(bound.get("high"))):
            raise Incompatible("randint() of non-integer bounds")
        return sized(bound, dt)

    def lower(self, L, call, args, kwargs):
        bound = self.bind(args, kwargs)
        low, high = int_bounds(L, bound)
        low, high = L.let(low), L.let(high)
        dt = draws_dtype(call, bound.get("size"))
        table = {"int64": (hl.randint, hl.fill_randint, []),
                 "uint64": (nd.legacy_uint64, nd.fill_legacy_uint64, []),
                 "narrow": (nd.legacy_narrow, nd.fill_legacy_narrow, narrow_args(dt),
                            narrow_args(dt)[:1])}
        return integer_draws(L, call, bound.get("size"), [self.state(L, args)], low, high,
                             ops.C(False, T.BOOL), table)


def legacy_calls(method=False):
    """The templates of this module's functions (or ``RandomState`` methods),
    by name."""
    floats = {"normal": (("loc", "scale"), {"loc": 0.0, "scale": 1.0}),
              "uniform": (("low", "high"), {"low": 0.0, "high": 1.0})}
    calls = {"randint": RandInt(method), "seed": Seed(method)}
    for names, params, helper, fill in (
            (("random", "random_sample", "sample"), ("size",), hl.random, hl.fill_random),
            (("rand",), None, hl.random, hl.fill_random),
            (("randn",), None, hl.gauss, hl.fill_gauss),
            (("standard_normal",), ("size",), hl.gauss, hl.fill_gauss),
            (("normal",), ("loc", "scale", "size"), hl.normal, hl.fill_normal),
            (("uniform",), ("low", "high", "size"), hl.uniform, hl.fill_uniform)):
        fl, defaults = floats.get(names[0], ((), None))
        t = Legacy(tuple(f"numpy.random.{n}" for n in names), params or (), helper, fill,
                   fl, defaults, star=params is None, method=method)
        calls.update({n: t for n in names})
    return calls


for _call in set(legacy_calls().values()):
    register(_call)

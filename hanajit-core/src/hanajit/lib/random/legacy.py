"""The legacy ``np.random`` functions on NumPy's global ``RandomState``.

``np.random.random``/``random_sample``/``sample``, ``rand``, ``randn``,
``standard_normal``, ``normal``, ``uniform`` and ``randint`` (int64), scalar and
``size=`` forms, and ``seed`` of an int, draw from ``np.random.mtrand._rand``
exactly as it does: its
MT19937 (or whatever ``set_bit_generator`` gave it) through the ``bitgen_t``
it keeps, and its cached second Gaussian (``has_gauss``/``gauss``) read and
written in place (``legacy_algorithms.py``; the memory is found by
``legacy_state.py`` and linked by the CPU engine).  ``np.random.seed(None)``
and array seeds run the function in the interpreter; the other distributions
are in ``legacy_more.py``.
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
    """``prims.mt19937_key(address)``: 625 uint32 at a run-time address."""

    paths = ("hanajit.lib.prims.mt19937_key",)
    type = T.ArrayType(T.UINT32, 1, "C")

    def typer(self, inf, call, args, kwargs):
        if kwargs or len(args) != 1 or args[0] != I:
            raise Incompatible("prims.mt19937_key(int64 address)")
        return self.type

    def lower(self, L, call, args, kwargs):
        return N.HostArray("", 625, self.type, address=args[0])


class Seed(CallTemplate):
    """``np.random.seed(s)`` with an int ``s`` (None and arrays: the interpreter)."""

    paths = ("numpy.random.seed",)

    def typer(self, inf, call, args, kwargs):
        from ...errors import UnsupportedError
        from .legacy_state import legacy_addresses
        if kwargs or len(args) != 1 or not is_integer_type(args[0]):
            raise Incompatible("np.random.seed() of something other than an int")
        try:
            known = "hj.numpy.mt19937_tag" in legacy_addresses()
        except UnsupportedError:
            known = False
        if not known:
            raise Incompatible("np.random.seed(): MT19937's state layout is unknown")
        return T.NONE

    def lower(self, L, call, args, kwargs):
        call_void(L, hl.seed, [ops.convert(L, args[0], I)])
        return ops.C(None, T.NONE)


register(AtAddress())
register(Seed())
register(HostView("legacy_mt19937_tag", "mt19937_tag", I, 1))
register(HostView("legacy_bitgen", "legacy_bitgen", I, 4))
register(HostView("legacy_aug_ints", "legacy_aug", T.INT32, 6))
register(HostView("legacy_aug_floats", "legacy_aug", F, 3))
register(MakeGenerator())


class Legacy(CallTemplate):
    """One legacy function: parameters with NumPy's defaults, the float ones,
    the scalar helper and the helper filling a ``size=`` array."""

    def __init__(self, paths, params, helper, fill, floats=(), defaults=None,
                 star=False):
        self.paths, self.params, self.helper, self.fill = paths, params, helper, fill
        self.floats, self.defaults, self.star = floats, defaults or {}, star

    def bind(self, args, kwargs):
        if self.star:          # rand(d0, d1, ...): the dimensions are the size
            if kwargs:
                raise Incompatible("takes no keyword arguments")
            return {"size": args} if args else {}
        return bind_arguments(self.paths[0], self.params, args, kwargs)

    def typer(self, inf, call, args, kwargs):
        bound = self.bind(args, kwargs)
        for p in self.floats:
            if p in bound and not is_real_type(bound[p]):
                raise Incompatible(f"{p} of type {bound[p]}")
        if self.star:
            if not all(is_integer_type(t) and not t.is_bool for t in args):
                raise Incompatible("dimensions that are not integers")
            return T.ArrayType(F, len(args), "C") if args else F
        return sized(bound, F)

    def lower(self, L, call, args, kwargs):
        if self.star:
            size = N.MakeTuple(list(args), T.TupleType(tuple(a.type for a in args))) \
                if args else None
            bound = {"size": size} if args else {}
        else:
            bound = self.bind(args, kwargs)
        values = [L.let(ops.convert(L, bound[p], F)) if p in bound
                  else ops.C(self.defaults[p], F) for p in self.floats]
        if is_absent_expr(bound.get("size")):
            return L.call_helper(self.helper, values)
        out, flat = new_array(L, call.type, bound["size"])
        call_void(L, self.fill, [flat] + values)
        return out


class RandInt(Legacy):
    """``np.random.randint(low, high=None, size=None, dtype=int)``: int64 by
    ``interval``; the other integer dtypes and bool by NumPy's masked buffered
    draws (``narrow_draws``), after the dtype's bound checks."""

    def __init__(self):
        super().__init__(("numpy.random.randint",), ("low", "high", "size", "dtype"),
                         hl.randint, hl.fill_randint)

    def typer(self, inf, call, args, kwargs):
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
                 "narrow": (nd.legacy_narrow, nd.fill_legacy_narrow, narrow_args(dt))}
        return integer_draws(L, call, bound.get("size"), [], low, high,
                             ops.C(False, T.BOOL), table)


register(Legacy(("numpy.random.random", "numpy.random.random_sample",
                 "numpy.random.sample"), ("size",), hl.random, hl.fill_random))
register(Legacy(("numpy.random.rand",), (), hl.random, hl.fill_random, star=True))
register(Legacy(("numpy.random.randn",), (), hl.gauss, hl.fill_gauss, star=True))
register(Legacy(("numpy.random.standard_normal",), ("size",), hl.gauss, hl.fill_gauss))
register(Legacy(("numpy.random.normal",), ("loc", "scale", "size"), hl.normal,
                hl.fill_normal, ("loc", "scale"), {"loc": 0.0, "scale": 1.0}))
register(Legacy(("numpy.random.uniform",), ("low", "high", "size"), hl.uniform,
                hl.fill_uniform, ("low", "high"), {"low": 0.0, "high": 1.0}))
register(RandInt())

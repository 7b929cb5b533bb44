"""Python's ``random`` module: the global functions and ``random.Random`` arguments.

``random.random()``, ``uniform``, ``randint``, ``randrange`` (int arguments),
``getrandbits`` (up to 64 bits), ``gauss``, ``normalvariate``, ``expovariate``,
``choice`` (of a 1-D array or a tuple of numbers of one type), ``shuffle`` (of a
1-D array) and ``seed`` of an int, called on the module (its global generator,
the instance the functions are bound to) or as methods of a ``random.Random`` passed as an argument
(``T.PYRANDOM``; exactly that class -- a subclass may override ``random()`` and
is never compiled).  They work on the generator's own Mersenne Twister and
``gauss_next`` (``python_random_algorithms.py``, ``python_random_state.py``), so values
and ``getstate()`` afterwards are the interpreter's.  Float arguments to
``randrange``/``randint``, ``seed`` of anything but an int, ``sample`` (it
returns a list, which compiled code cannot build), other methods,
another layout of ``_random.Random`` and a module whose functions are not bound
to a ``random.Random`` fall back to the interpreter naming the call.
"""
from __future__ import annotations

import sys

from ...typing_rules import Incompatible
from ...ir import nodes as N
from ...ir import types as T
from ..python import operators as ops
from . import python_random_algorithms as hp
from .generator import call_void, is_absent, is_absent_expr, is_integer_type
from .legacy import HostView
from ..registry import CallTemplate, bind_arguments, register

F, I = T.FLOAT64, T.INT64
_DEFAULTS = sys.version_info >= (3, 11)      # gauss()/normalvariate() defaults

PARAMS = {
    "random": (), "uniform": ("a", "b"), "randint": ("a", "b"),
    "randrange": ("start", "stop", "step"), "getrandbits": ("k",),
    "gauss": ("mu", "sigma"), "normalvariate": ("mu", "sigma"), "seed": ("a", "version"),
    "expovariate": ("lambd",), "choice": ("seq",), "shuffle": ("x",),
    "sample": ("population", "k", "counts"),
}
REQUIRED = {"uniform": 2, "randint": 2, "randrange": 1, "getrandbits": 1, "seed": 0,
            "gauss": 0 if _DEFAULTS else 2, "normalvariate": 0 if _DEFAULTS else 2,
            # expovariate()'s lambd=1.0 is new in 3.12
            "expovariate": 0 if sys.version_info >= (3, 12) else 1,
            "choice": 1, "shuffle": 1, "sample": 2}


class PyRandomCall(CallTemplate):
    """``random.<name>(...)`` (``method`` false) or ``r.<name>(...)`` on a
    ``random.Random`` argument (the receiver is the first argument)."""

    def __init__(self, name, method=False):
        self.name, self.method = name, method
        self.paths = () if method else (f"random.{name}",)

    def bind(self, call, args, kwargs):
        if self.method:
            args = args[1:]
        if self.name == "getrandbits" and kwargs:
            raise Incompatible("getrandbits() takes no keyword arguments")
        bound = bind_arguments(f"random.{self.name}", PARAMS[self.name], args, kwargs)
        if len(bound) < REQUIRED.get(self.name, 0) or any(
                p not in bound for p in PARAMS[self.name][:REQUIRED.get(self.name, 0)]):
            raise Incompatible(f"random.{self.name}() with missing arguments")
        return bound

    def typer(self, inf, call, args, kwargs):
        from .python_random_state import global_instance, layout_ok
        if not layout_ok():
            raise Incompatible("this Python's random.Random has a layout hanajit "
                               "does not know")
        if not self.method and (global_instance() is None or getattr(
                getattr(call, "callee", None), "__self__", None) is not global_instance()):
            raise Incompatible(f"random.{self.name} is not bound to the generator "
                               "behind random.random")
        if not self.method and not set(vars(global_instance())) <= {"gauss_next"}:
            raise Incompatible("the global generator has instance attributes that may "
                               "shadow its methods")
        if self.name == "sample":
            raise Incompatible("random.sample() returns a list, which compiled code "
                               "cannot build")
        b = self.bind(call, args, kwargs)
        name = self.name
        if name == "random":
            return F
        if name in ("choice", "shuffle"):
            return _sequence_type(name, b[PARAMS[name][0]])
        if name == "expovariate":
            nodes = self.bind(call, list(call.args), dict(call.kwargs))
            lambd = b.get("lambd")
            if lambd is not None and not _python_number(inf, nodes["lambd"], lambd, False):
                raise Incompatible(f"random.expovariate() of {_types(b)} (Python "
                                   "floats and ints, or float64)")
            return F
        if name in ("uniform", "gauss", "normalvariate"):
            nodes = self.bind(call, list(call.args), dict(call.kwargs))
            for p, t in b.items():
                if not _python_number(inf, nodes[p], t, name == "uniform"):
                    raise Incompatible(f"random.{name}() of {_types(b)} (Python floats "
                                       "and ints, or float64: NumPy scalars of other "
                                       "types compute with NumPy's rules)")
            return F
        if name in ("randint", "randrange"):
            if "step" in b and is_absent(b.get("stop")):
                raise Incompatible("randrange() with a step and no stop")
            if not all(is_integer_type(t) for p, t in b.items()
                       if not (p == "stop" and is_absent(t))):
                raise Incompatible(f"random.{name}() of {_types(b)} (ints only)")
            return I
        if name == "getrandbits":
            if not is_integer_type(b["k"]):
                raise Incompatible(f"getrandbits() of {b['k']}")
            k = _literal(call, 1 if self.method else 0)
            if k is not None and k > 64:
                raise Incompatible("getrandbits() of more than 64 bits")
            return T.UINT64 if k == 64 else I
        # seed: an int, and version 2 (the default)
        if "version" in b or not is_integer_type(b.get("a")):
            raise Incompatible(f"random.seed() of {_types(b)} (an int only)")
        return T.NONE

    def lower(self, L, call, args, kwargs):
        b = self.bind(call, args, kwargs)
        if self.method:
            obj = L.let(N.TupleGet(args[0], 0, I))
        else:
            obj = L.call_helper(hp.global_address, [])
        name = self.name
        if name == "random":
            return L.call_helper(hp.random, [obj])
        if name == "uniform":
            if all(is_integer_type(v.type) for v in b.values()):
                return L.call_helper(hp.uniform_int, [obj] + _as(L, b, ("a", "b"), I))
            return L.call_helper(hp.uniform_float, [obj] + _as(L, b, ("a", "b"), F))
        if name in ("gauss", "normalvariate"):
            mu = ops.convert(L, b["mu"], F) if "mu" in b else ops.C(0.0, F)
            sigma = ops.convert(L, b["sigma"], F) if "sigma" in b else ops.C(1.0, F)
            return L.call_helper(getattr(hp, name), [obj, L.let(mu), L.let(sigma)])
        if name == "randint":
            return L.call_helper(hp.randint, [obj] + _as(L, b, ("a", "b"), I))
        if name == "expovariate":
            lambd = ops.convert(L, b["lambd"], F) if "lambd" in b else ops.C(1.0, F)
            return L.call_helper(hp.expovariate, [obj, L.let(lambd)])
        if name == "choice":
            return L.call_helper(hp.choice, [obj, L.let(b["seq"])])
        if name == "shuffle":
            call_void(L, hp.shuffle, [obj, L.let(b["x"])])
            return ops.C(None, T.NONE)
        if name == "randrange":
            if is_absent_expr(b.get("stop")):
                return L.call_helper(hp.randrange1, [obj] + _as(L, b, ("start",), I))
            if "step" not in b:
                return L.call_helper(hp.randrange2, [obj] + _as(L, b, ("start", "stop"), I))
            return L.call_helper(hp.randrange3,
                                 [obj] + _as(L, b, ("start", "stop", "step"), I))
        if name == "getrandbits":
            if call.type == T.UINT64:
                return L.call_helper(hp.getrandbits64, [obj])
            return L.call_helper(hp.getrandbits, [obj] + _as(L, b, ("k",), I))
        call_void(L, hp.seed, [obj] + _as(L, b, ("a",), I))
        return ops.C(None, T.NONE)


def _sequence_type(name, t):
    """What ``choice`` returns from ``t`` (``shuffle``: None): a 1-D array (a
    writeable one for ``shuffle``, whose swaps of n-D rows would be views) or,
    for ``choice``, a non-empty tuple of one item type."""
    if isinstance(t, T.ArrayType) and t.ndim == 1 and not (name == "shuffle"
                                                           and t.readonly):
        return t.dtype if name == "choice" else T.NONE
    if name == "choice" and isinstance(t, T.TupleType) and t.items and \
            all(i == t.items[0] for i in t.items) and isinstance(t.items[0], T.Scalar):
        return t.items[0]
    raise Incompatible(f"random.{name}() of {t} (a 1-D array"
                       + (", or a tuple of numbers of one type)" if name == "choice"
                          else ")"))


def _python_number(inf, node, t, exact_ints) -> bool:
    """Does ``random.py``'s arithmetic on this argument give what converting it
    to a float gives?  Python floats and ints and NumPy float64 do; a NumPy int
    does in ``gauss`` but wraps in ``uniform``'s ``b - a``; other NumPy types
    keep their own precision (float32) or refuse (``np.bool_`` subtraction)."""
    if t == F:
        return True
    if t not in (I, T.BOOL):
        return False
    return not inf.is_strong(node) or (t == I and not exact_ints)


def _as(L, bound, names, t):
    return [L.let(ops.convert(L, bound[p], t)) for p in names]


def _types(bound) -> str:
    return ", ".join(str(t) for t in bound.values())


def _literal(call, k):
    """The int literal passed as argument ``k``, or None."""
    args = getattr(call, "args", None) or []
    node = args[k] if k < len(args) else None
    if node is None and getattr(call, "kwargs", None):
        node = call.kwargs.get("k")
    if isinstance(node, N.Const) and type(node.value) is int:
        return node.value
    return None


# ------------------------------------------------------------------ primitives
class MT(CallTemplate):
    """``prims.pyrandom_mt(address)``: ``index`` and ``state[624]`` of the
    ``_random.Random`` at ``address`` (from byte 16), as 625 uint32."""

    paths = ("hanajit.lib.prims.pyrandom_mt",)
    type = T.ArrayType(T.UINT32, 1, "C")

    def typer(self, inf, call, args, kwargs):
        if kwargs or len(args) != 1 or args[0] != I:
            raise Incompatible("prims.pyrandom_mt(int64 address)")
        return self.type

    def lower(self, L, call, args, kwargs):
        at = L.let(N.BinOp("add", args[0], ops.C(16, I), I))
        return N.HostArray("", 625, self.type, address=at)


class Gauss(CallTemplate):
    """``prims.pyrandom_gauss_has/value/set``: ``gauss_next`` of the instance at
    an address, through the C API (``python_capi.py``)."""

    def __init__(self, name, params):
        self.name, self.params = name, params
        self.paths = (f"hanajit.lib.prims.pyrandom_{name}",)

    def typer(self, inf, call, args, kwargs):
        if kwargs or len(args) != len(self.params):
            raise Incompatible(f"prims.pyrandom_{self.name}: {len(self.params)} arguments")
        return {"gauss_has": I, "gauss_value": F}.get(self.name, T.NONE)

    def lower(self, L, call, args, kwargs):
        from . import python_capi as api
        values = [L.let(ops.convert(L, a, t)) for a, t in zip(args, self.params)]
        if self.name == "gauss_set":
            call_void(L, api.gauss_set, values)
            return ops.C(None, T.NONE)
        return L.call_helper(getattr(api, self.name), values)


class CApi(CallTemplate):
    """``prims.pyapi_<name>(...)``: CPython's C function (``hj.host.<symbol>``,
    linked by the CPU engine); int64 arguments are pointers or ints."""

    def __init__(self, name, symbol, params, returns):
        self.symbol, self.params, self.returns = symbol, params, returns
        self.paths = (f"hanajit.lib.prims.pyapi_{name}",)

    def typer(self, inf, call, args, kwargs):
        if kwargs or len(args) != len(self.params):
            raise Incompatible(f"{self.symbol}: {len(self.params)} arguments")
        return self.returns or T.NONE

    def lower(self, L, call, args, kwargs):
        values = [L.let(ops.convert(L, a, t)) for a, t in zip(args, self.params)]
        if self.returns is None:
            L.emit(N.ForeignCall(symbol=self.symbol, args=values))
            return ops.C(None, T.NONE)
        target = L.temp(self.returns, "capi")
        L.emit(N.Assign(target=target, value=ops.zero(self.returns)))
        L.emit(N.ForeignCall(symbol=self.symbol, args=values, returns=self.returns,
                             target=target))
        return N.Var(target, self.returns)


class Words(CallTemplate):
    """``prims.pyapi_words(address)``: the first two words of an object
    (``ob_refcnt``, ``ob_type``); ``prims.pyapi_consts()``: ``None``, ``float``
    and ``"gauss_next"`` (``hj.python.pyapi_consts``)."""

    def __init__(self, name):
        self.name = name
        self.paths = (f"hanajit.lib.prims.pyapi_{name}",)

    def typer(self, inf, call, args, kwargs):
        if kwargs or len(args) != (1 if self.name == "words" else 0):
            raise Incompatible(f"prims.pyapi_{self.name}: wrong arguments")
        return T.ArrayType(I, 1, "C")

    def lower(self, L, call, args, kwargs):
        t = T.ArrayType(I, 1, "C")
        if self.name == "words":
            return N.HostArray("", 2, t, address=args[0])
        return N.HostArray("hj.python.pyapi_consts", 3, t)


class Chars(CallTemplate):
    """``prims.pyapi_chars(address)``: the bytes of a C string at an address (a
    view as long as any: the caller reads up to its NUL)."""

    paths = ("hanajit.lib.prims.pyapi_chars",)
    type = T.ArrayType(T.UINT8, 1, "C")

    def typer(self, inf, call, args, kwargs):
        if kwargs or len(args) != 1 or args[0] != I:
            raise Incompatible("prims.pyapi_chars(int64 address)")
        return self.type

    def lower(self, L, call, args, kwargs):
        return N.HostArray("", 1 << 40, self.type, address=L.let(args[0]))


register(HostView("pyrandom_global", "hj.python.random_global", T.INT64, 1))
register(MT())
register(Gauss("gauss_has", (I,)))
register(Gauss("gauss_value", (I,)))
register(Gauss("gauss_set", (I, I, F)))
register(Words("words"))
register(Words("consts"))
for _args in (("gil_ensure", "PyGILState_Ensure", (), I),
              ("gil_release", "PyGILState_Release", (I,), None),
              ("getattr", "PyObject_GetAttr", (I, I), I),
              ("setattr", "PyObject_SetAttr", (I, I, I), I),
              ("float_from", "PyFloat_FromDouble", (F,), I),
              ("float_as", "PyFloat_AsDouble", (I,), F),
              ("decref", "Py_DecRef", (I,), None),
              ("err_clear", "PyErr_Clear", (), None),
              # (the text of a float: lib/python/float_text.py; the fifth argument,
              # the int* of the kind of number, NULL)
              ("double_to_string", "PyOS_double_to_string", (F, I, I, I, I), I),
              ("mem_free", "PyMem_Free", (I,), None)):
    register(CApi(*_args))
register(Chars())

for _name in PARAMS:
    register(PyRandomCall(_name))

METHODS = {name: PyRandomCall(name, method=True) for name in PARAMS}


def method_template(name):
    """The template of ``random.Random.<name>``, or None (the call falls back)."""
    return METHODS.get(name)

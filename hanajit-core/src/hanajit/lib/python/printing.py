"""``print(...)`` in compiled code: a call back into Python (``hanajit.host_print``).

The frontend (``frontend/print_calls.py``) gives the call its layout in
``call.plan``: constant strings, values and f-strings, ``sep``, ``end`` and
``flush``.  The typer decides each value's *kind* -- the object the interpreter
holds there: a Python ``int``/``float``/``bool``/``complex`` or a NumPy scalar of
the value's dtype (``np.float32`` prints its own shortest digits; a variable
inference marks as a NumPy scalar, ``Inferrer.is_strong``, prints as one) -- and
an array is passed as its data address, shape and byte strides, printed as a
NumPy array over that memory (no copy), a str built at run time (``T.StrCodes``)
as the address and number of its code points, a set local (``sets.result`` of its
arrays) as its three arrays' addresses, printed as the Python set with its table
(``hanajit.host_sets``); the lowering emits one ``ForeignCall``
of ``hanajit_print`` with the layout and kinds as its constant text and the
values in 8-byte slots (a complex in two).
The callback rebuilds the objects and calls the builtin ``print``, so the text is
CPython's, into whatever ``sys.stdout`` is at that moment; where ``print`` raises,
the compiled code raises ``errors.HostException``, for which the runtime raises
that exception (``host_print.take_exception``).

Only targets whose code runs in this process call back into Python
(``Capabilities.host_calls``, and not a C export): elsewhere print is refused
with a reason and the function runs in the interpreter."""
from __future__ import annotations

from ...errors import HostException
from ...host_print import SYMBOL, render, slots_of
from ...ir import nodes as N
from ...ir import types as T
from ...typing_rules import Incompatible
from ..registry import CallTemplate, register


def _kind(t, strong: bool) -> str:
    if t == T.NONE:
        return "none"
    if isinstance(t, T.StrCodes):       # a str built at run time: its code points
        return "str"
    if isinstance(t, T.NamedTupleType) and T.holds_set(t):   # (sets.result of a set)
        return f"set:{t.items[0].dtype}"
    if isinstance(t, T.ArrayType) and isinstance(t.dtype, T.Scalar):
        return f"arr:{t.dtype}:{t.ndim}"
    if not isinstance(t, T.Scalar):
        raise Incompatible(f"printing a value of type {t} is not compiled")
    if t in T.PYTHON_KINDS and not strong:
        return {"b": "bool", "i": "int", "f": "float", "c": "complex"}[t.kind]
    if t.kind == "f" and t.bits not in (16, 32, 64) or t.kind == "c" and t.bits not in (64, 128):
        raise Incompatible(f"printing a {t} value is not compiled")
    return f"np:{t}"


def _uses(layout):
    """The (conversion, spec) each value of ``layout`` is printed with."""
    for item in layout[1]:
        if item[0] == "value":
            yield "", ""
        elif item[0] == "fstring":
            yield from (p for p in item[1] if not isinstance(p, str))


def _either(inf, node) -> bool:
    """Is ``node`` a local assigned both Python numbers and NumPy scalars?  Its
    ``str`` and ``format`` are the same either way, its ``repr`` is not."""
    kinds = inf.assigned.get(node.name, ()) if isinstance(node, N.Var) else ()
    return any(strong for _, strong in kinds) and not all(strong for _, strong in kinds)


def _text(layout, kinds) -> str:
    return repr((layout[1], layout[2], layout[3], layout[4], tuple(kinds)))


@register
class Print(CallTemplate):
    paths = ("builtins.print",)

    def typer(self, inf, call, args, kwargs):
        layout = call.plan
        if isinstance(layout, dict):
            layout = layout["layout"]
        if not isinstance(layout, tuple) or kwargs:        # (not built by print_calls)
            raise Incompatible("print() with these arguments is not compiled")
        if not inf.ctx.capabilities.host_calls:
            raise Incompatible("print() calls back into Python, which code running "
                               "outside this process (this target or an export) cannot")
        if inf.ctx.options.get("c_exports"):
            raise Incompatible("print() is not compiled into a plain C function "
                               "(f.specialize(...)), which C code may call without Python")
        kinds = []
        for node, t, (conversion, spec) in zip(call.args, args, _uses(layout)):
            if conversion in ("r", "a") and t in T.PYTHON_KINDS and _either(inf, node):
                raise Incompatible(f"{node.name!r} is a NumPy scalar on some paths and a "
                                   "Python number on others, whose repr differ")
            kind = _kind(t, inf.is_strong(node))
            try:        # a specification the value's type refuses: the interpreter raises
                render(((("fstring", ((conversion, spec),)),), " ", "", False, (kind,)),
                       [0] * max(2, slots_of(kind)))
            except (TypeError, ValueError) as exc:
                raise Incompatible(f"format specification {spec!r}: {exc}") from None
            kinds.append(kind)
        call.plan = {"layout": layout, "kinds": tuple(kinds)}
        return T.NONE

    def lower(self, L, call, args, kwargs):
        kinds = call.plan["kinds"]
        slots = []
        for a, kind in zip(args, kinds):
            t = a.type
            if slots_of(kind) == 0:
                continue
            if kind == "str":                   # data address, length
                slots += [N.ArrayAttr(a, "data", 0, T.INT64),
                          N.ArrayAttr(a, "shape", 0, T.INT64)]
            elif isinstance(t, T.NamedTupleType):     # a set: its arrays, numpy or not
                v = L.let(a)
                slots += [N.ArrayAttr(N.TupleGet(v, k, t.items[k]), "data", 0, T.INT64)
                          for k in range(3)] + [N.TupleGet(v, 3, T.INT64)]
            elif isinstance(t, T.ArrayType):    # data address, shape, byte strides
                slots.append(N.ArrayAttr(a, "data", 0, T.INT64))
                slots += [N.ArrayAttr(a, "shape", k, T.INT64) for k in range(t.ndim)]
                slots += [N.ArrayAttr(a, "stride", k, T.INT64) for k in range(t.ndim)]
            elif t.is_complex:
                part = T.FLOAT64 if t.bits == 128 else T.FLOAT32
                for name in ("real", "imag"):
                    v = L.let(N.ComplexPart(a, name, part))
                    slots.append(v if part == T.FLOAT64 else N.Cast(v, T.FLOAT64))
            elif t.is_float:
                slots.append(a if t == T.FLOAT64 else N.Cast(a, T.FLOAT64))
            else:
                slots.append(a if t == T.INT64 else N.Cast(a, T.INT64))
        status = L.temp(T.INT64, "printed")        # (defined first: N.ForeignCall)
        L.emit(N.Assign(target=status, value=N.Const(0, T.INT64)))
        L.emit(N.ForeignCall(symbol=SYMBOL, args=[L.let(s) for s in slots],
                             text=_text(call.plan["layout"], kinds), returns=T.INT64,
                             target=status))
        L.raise_if(N.Cmp("ne", N.Var(status, T.INT64), N.Const(0, T.INT64), T.BOOL),
                   HostException, "print")
        return N.Const(None, T.NONE)

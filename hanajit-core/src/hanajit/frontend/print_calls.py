"""``print(...)`` in a compiled function, built as one call whose layout is known
at compile time::

    print("x =", x, f"y={y:.3f} z={z!r}", sep=", ", end="\\n", flush=False)

becomes ``PyCall(builtins.print, [x, y, z], plan=layout)`` with the layout
(:data:`PRINT_LAYOUT` first, then the items, ``sep``, ``end``, ``flush``), each
item one of

* ``("const", text)`` -- a string literal (or ``None``), printed as is;
* ``("value",)`` -- the next value among the call's arguments;
* ``("fstring", parts)`` -- an f-string: each part a literal string or a
  ``(conversion, spec)`` pair (conversion ``""``, ``"s"``, ``"r"`` or ``"a"``,
  a constant format specification) taking the next value.

Inference types each value (``lib/python/printing.py`` says which types print
exactly as the interpreter prints them, and falls back for the others);
``sep``/``end`` must be constant strings or None, ``flush`` a constant, and
``file=`` is not compiled (the function runs in the interpreter)."""
from __future__ import annotations

import ast
import builtins

from ..ir import nodes as N
from ..ir.frontend_nodes import ObjRef
from ..lib import registry

PRINT_LAYOUT = "print"
_CONVERSIONS = {-1: "", ord("s"): "s", ord("r"): "r", ord("a"): "a"}


def is_print(obj) -> bool:
    return obj is builtins.print


def build(b, e):
    """The PyCall of the ``print`` call ``e`` for the builder ``b``."""
    options = {"sep": " ", "end": "\n", "flush": False}
    for k in e.keywords:
        if k.arg == "file":
            b.fail(e, "print(file=...)", "printing to a file other than sys.stdout is "
                   "not compiled")
        if k.arg not in options:
            b.fail(e, "print()", f"unexpected keyword argument '{k.arg}'")
        options[k.arg] = _constant(b, k.value, k.arg)
    for name in ("sep", "end"):
        v = options[name]
        if v is None:
            options[name] = " " if name == "sep" else "\n"
        elif not isinstance(v, str):
            b.fail(e, "print()", f"{name} must be None or a string, not {type(v).__name__}")
    items, values = [], []
    for a in e.args:
        if isinstance(a, ast.JoinedStr):
            items.append(("fstring", tuple(_fstring(b, a, values))))
            continue
        v = b.expr(a)
        if isinstance(v, ObjRef) and isinstance(v.obj, str):
            items.append(("const", v.obj))
        elif isinstance(v, N.Const) and v.value is None:
            items.append(("const", None))
        elif isinstance(v, ObjRef) and not registry.is_global_array(v.obj):
            b.fail(a, "print()", f"printing {v.name} (a {type(v.obj).__name__}) is not "
                   "compiled")
        else:
            items.append(("value",))
            values.append(v)
    layout = (PRINT_LAYOUT, tuple(items), options["sep"], options["end"],
              bool(options["flush"]))
    return N.PyCall(callee=builtins.print, args=values, kwargs={}, name="print",
                    plan=layout)


def _constant(b, node, name):
    if isinstance(node, ast.Constant):
        return node.value
    v = b.expr(node)
    if isinstance(v, N.Const):
        return v.value
    if isinstance(v, ObjRef) and isinstance(v.obj, (str, type(None))):
        return v.obj
    b.fail(node, "print()", f"{name}= must be a constant")


def _fstring(b, node, values):
    for v in node.values:
        if isinstance(v, ast.Constant):
            yield v.value
            continue
        spec = ""
        if v.format_spec is not None:
            if not all(isinstance(p, ast.Constant) for p in v.format_spec.values):
                b.fail(v, "f-string in print()", "a format specification with "
                       "replacement fields")
            spec = "".join(p.value for p in v.format_spec.values)
        value = b.expr(v.value)
        if isinstance(value, ObjRef) and isinstance(value.obj, str) or \
                isinstance(value, N.Const) and value.value is None:
            # a constant string or None: formatted now, as the interpreter would
            obj = value.obj if isinstance(value, ObjRef) else None
            text = {"": str, "s": str, "r": repr, "a": ascii}[
                _CONVERSIONS[v.conversion]](obj)
            try:
                yield format(text if v.conversion != -1 else obj, spec)
            except (TypeError, ValueError) as exc:
                b.fail(v, "f-string in print()", str(exc))
            continue
        if isinstance(value, ObjRef) and not registry.is_global_array(value.obj):
            b.fail(v, "f-string in print()", f"formatting {value.name} is not compiled")
        values.append(value)
        yield (_CONVERSIONS[v.conversion], spec)

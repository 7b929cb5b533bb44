"""``np.r_[...]``, ``np.c_[...]``, ``np.mgrid[...]``, ``np.ogrid[...]``: a
subscript of one of NumPy's index-trick objects becomes a call of the marker
``registry.index_trick`` gives for it (``lib/indexing/index_grids.py`` types
it), its arguments the items' expressions (a slice's start, stop and step,
None where absent), its ``trick_kinds`` a string of the items' kinds (``"s"`` a
slice, ``"v"`` a value; ``"t:"`` first when the subscript is a tuple)."""
from __future__ import annotations

import ast

from ..ir import nodes as N
from ..lib import registry
from .source import resolved


def marker(b, e):
    """The marker to call for the subscript ``e`` (an ``ast.Subscript``), or None
    when ``e.value`` is not one of NumPy's index-trick objects."""
    if isinstance(e.value, ast.Name) and e.value.id in b.locals:
        return None
    return registry.index_trick(resolved(e.value, b._global_object))


def build(b, callee, e) -> N.Expr:
    key = e.slice
    items = key.elts if isinstance(key, ast.Tuple) else [key]
    kinds, args = [], []
    for item in items:
        if isinstance(item, ast.Slice):
            kinds.append("s")
            for part in (item.lower, item.upper, item.step):
                args.append(b.expr(part) if part is not None else N.Const(None))
        elif isinstance(item, ast.Constant) and isinstance(item.value, str):
            b.fail(e, "index trick", f"{callee.__name__}: string directives "
                   f"({item.value!r}) are not supported")
        else:
            kinds.append("v")
            args.append(b.expr(item))
    prefix = "t:" if isinstance(key, ast.Tuple) else ":"
    call = N.PyCall(callee=callee, args=args, name=callee.__name__)
    call.trick_kinds = prefix + "".join(kinds)
    return call

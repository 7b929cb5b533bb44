"""``sorted(...)`` of numbers, built as an array of its items in sorted order.

``sorted(x)`` makes a new list.  Where that list is only read -- assigned to a
name read as ``frontend/comprehension_lists.py`` allows, returned, or looped
over (``for v in sorted(x)``) -- it is the list comprehension ``[v for v in x]``
(``sorted(f(v) for v in x)`` is ``[f(v) for v in x]``) built as that module builds
one, then sorted by ``lib/sorting/sorted_list.py``: a stable sort, as
``sorted``'s, ``reverse=`` a constant.  Its items are the comprehension's: Python
numbers where the iterable gives them, NumPy scalars for an array's items.  A
``key=`` function, a ``reverse=`` that is not a constant, and every other use of
the list (``sorted(x)[0]``, ``np.array(sorted(x))``) fall back, as before.
"""
from __future__ import annotations

import ast
import builtins
from dataclasses import dataclass

from . import comprehension_arrays
from ..ir import nodes as N
from ..lib import registry


@dataclass
class SortedCall:
    comp: ast.ListComp          # the list of the items, unsorted
    reverse: bool


def parse(node, resolve_global) -> SortedCall | None:
    """``node`` as a ``sorted(iterable[, reverse=const])`` call, or None."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
            and len(node.args) == 1 and not isinstance(node.args[0], ast.Starred)
            and resolve_global(node.func.id) is builtins.sorted):
        return None
    reverse = False
    for kw in node.keywords:
        if kw.arg != "reverse" or not isinstance(kw.value, ast.Constant) \
                or not isinstance(kw.value.value, (bool, int)):
            return None
        reverse = bool(kw.value.value)
    it = node.args[0]
    if isinstance(it, (ast.ListComp, ast.GeneratorExp)):
        comp = ast.ListComp(elt=it.elt, generators=it.generators)
    else:
        comp = ast.ListComp(elt=ast.Name("__hj_sorted", ast.Load()), generators=[
            ast.comprehension(target=ast.Name("__hj_sorted", ast.Store()), iter=it,
                              ifs=[], is_async=0)])
    ast.copy_location(comp, node)
    ast.fix_missing_locations(comp)
    return SortedCall(comp, reverse)


def build(b, call: SortedCall, empty_deopts=False, names=None) -> N.Expr:
    """The sorted array of ``call``'s items for the builder ``b`` (the loop that
    builds them in ``b.pending``)."""
    items = comprehension_arrays.build_array(b, call.comp, None, as_list=True,
                                             empty_deopts=empty_deopts, names=names)
    return N.PyCall(callee=registry.sorted_items_callable(),
                    args=[items, N.Const(call.reverse)], kwargs={}, name="sorted")


def loop_parts(b, call: SortedCall, pre: list):
    """``for v in sorted(...)`` for the builder ``b``: (length, item(i)) of the
    sorted array, held in a new local assigned in ``pre``."""
    from .comprehension_lists import item
    name, built = b.tmp("sorted"), {}
    b.locals.add(name)
    pre.append(N.Assign(target=name, value=build(b, call, names=built)))
    b.comp_items[name] = built["item"]
    return (N.PyCall(callee=len, args=[N.Var(name)], name="len"),
            lambda i: item(b, name, i))

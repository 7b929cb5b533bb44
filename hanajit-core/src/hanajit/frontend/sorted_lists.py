"""``sorted(...)`` of numbers, built as an array of its items in sorted order.

``sorted(x)`` makes a new list.  Where that list is only read -- assigned to a
name read as ``frontend/comprehension_lists.py`` allows, returned, or looped
over (``for v in sorted(x)``) -- it is the list comprehension ``[v for v in x]``
(``sorted(f(v) for v in x)`` is ``[f(v) for v in x]``) built as that module builds
one, then sorted by ``lib/sorting/sorted_list.py``: a stable sort, as
``sorted``'s, ``reverse=`` a constant; with ``key=`` (a lambda or a function's name,
of an iterable that is not a comprehension) the keys are a second such list,
computed after the items as CPython computes them, and the items are ordered
stably by them (``lib/python/key_functions.py``).  Its items are the comprehension's: Python
numbers where the iterable gives them, NumPy scalars for an array's items.  A
``reverse=`` that is not a constant, and every other use of
the list (``sorted(x)[0]``, ``np.array(sorted(x))``) fall back, as before.
"""
from __future__ import annotations

import ast
import builtins
import copy
from dataclasses import dataclass

from . import comprehension_arrays
from ..ir import nodes as N
from ..lib import registry


@dataclass
class SortedCall:
    comp: ast.ListComp          # the list of the items, unsorted
    reverse: bool
    key: ast.expr | None = None     # key=: a lambda or a function's name


def parse(node, resolve_global) -> SortedCall | None:
    """``node`` as a ``sorted(iterable[, reverse=const])`` call, or None."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
            and len(node.args) == 1 and not isinstance(node.args[0], ast.Starred)
            and resolve_global(node.func.id) is builtins.sorted):
        return None
    reverse, key = False, None
    for kw in node.keywords:
        if kw.arg == "key" and isinstance(kw.value, (ast.Lambda, ast.Name, ast.Attribute)) \
                and _repeatable(node.args[0], resolve_global):
            key = kw.value          # (frontend/key_functions.py)
            continue
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
    return SortedCall(comp, reverse, key)


_PURE = (builtins.range, builtins.zip, builtins.enumerate, builtins.len, builtins.reversed)


def _repeatable(node, resolve_global) -> bool:
    """Can ``node`` be evaluated twice (the items, then the keys) with no effect:
    names, constants, displays, arithmetic, and ``range``/``zip``/``enumerate``/
    ``len``/``reversed`` of such?"""
    for n in ast.walk(node):
        if isinstance(n, ast.Call):
            if not (isinstance(n.func, ast.Name) and not n.keywords
                    and any(resolve_global(n.func.id) is f for f in _PURE)):
                return False
        elif isinstance(n, (ast.GeneratorExp, ast.ListComp, ast.SetComp, ast.DictComp,
                            ast.Lambda, ast.NamedExpr, ast.Starred, ast.Await)):
            return False
    return True


def build(b, call: SortedCall, empty_deopts=False, names=None) -> N.Expr:
    """The sorted array of ``call``'s items for the builder ``b`` (the loop that
    builds them in ``b.pending``)."""
    items = comprehension_arrays.build_array(b, call.comp, None, as_list=True,
                                             empty_deopts=empty_deopts, names=names)
    if call.key is not None:        # the keys of the items, in order, then sorted by
        from .key_functions import key_of                           # them
        keys = copy.deepcopy(call.comp)
        keys.elt = key_of(b, call.key, keys.elt, "sorted()")
        keys = comprehension_arrays.build_array(b, keys, None, as_list=True,
                                                empty_deopts=empty_deopts)
        return N.PyCall(callee=registry.key_callables()[1],
                        args=[items, keys, N.Const(call.reverse)], kwargs={},
                        name="sorted")
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

"""``a.tolist()`` read where compiled code has no list: the call becomes the list
comprehension ``[__hj_tolist_item(v) for v in a]`` -- a list of the Python
numbers of a 1-D array's items, as NumPy's ``tolist`` makes it -- which then
compiles wherever such a comprehension does (``frontend/comprehension_lists.py``:
``xs = a.tolist()`` only read, ``for x in a.tolist()``, ``sum(a.tolist())``,
``len``, ``xs[i]``...; ``for x in a.tolist()`` loops over a name assigned the
comprehension just before).  ``__hj_tolist_item`` (``registry.tolist_item``) types
an item: the Python number of a NumPy scalar, an array (``a`` of several
dimensions: lists of lists) falling back.  ``return a.tolist()`` (also in a
returned tuple) is left as it is: it compiles for any ``a``
(``comprehension_lists._list_value``)."""
from __future__ import annotations

import ast
import copy

from ..lib import registry
from .scopes import is_tolist

ITEM = "__hj_tolist_item"
_VAR = "__hj_tolist_v"


_is_tolist = is_tolist


def _returned(node, parents) -> bool:
    p = parents.get(id(node))
    if isinstance(p, ast.Tuple):
        p = parents.get(id(p))
    return isinstance(p, ast.Return)


class _Rewrite(ast.NodeTransformer):
    def __init__(self, parents):
        self.parents = parents
        self.n = 0

    def visit_For(self, node):
        """``for x in a.tolist():`` loops over a name holding the comprehension
        (``name = [...]`` before the loop: the list is built first, as Python's)."""
        self.generic_visit(node)
        if not getattr(node.iter, "tolist", False):
            return node
        self.n += 1
        name = f"__hj_tolist_{self.n}"
        assign = ast.copy_location(ast.Assign(targets=[ast.Name(name, ast.Store())],
                                              value=node.iter), node)
        node.iter = ast.Name(name, ast.Load())
        return [assign, node]

    def visit_Call(self, node):
        self.generic_visit(node)
        if not _is_tolist(node) or _returned(node, self.parents):
            return node
        comp = ast.ListComp(
            elt=ast.Call(func=ast.Name(ITEM, ast.Load()),
                         args=[ast.Name(_VAR, ast.Load())], keywords=[]),
            generators=[ast.comprehension(target=ast.Name(_VAR, ast.Store()),
                                          iter=node.func.value, ifs=[], is_async=0)])
        comp.tolist = True
        return ast.copy_location(comp, node)


def rewrite(fnode: ast.FunctionDef, injected: dict, found=None) -> ast.FunctionDef:
    """``fnode`` with its read ``a.tolist()`` calls as list comprehensions (a
    copy; ``fnode`` itself when there are none).  ``found``: whether ``fnode``
    calls ``.tolist()`` at all, when the caller knows (``scopes.survey``)."""
    if not (any(_is_tolist(node) for node in ast.walk(fnode)) if found is None else found):
        return fnode
    parents = {}
    found = False
    for node in ast.walk(fnode):
        for child in ast.iter_child_nodes(node):
            parents[id(child)] = node
    for node in ast.walk(fnode):
        if _is_tolist(node) and not _returned(node, parents):
            found = True
            break
    if not found:
        return fnode
    fnode = copy.deepcopy(fnode)
    parents = {}
    for node in ast.walk(fnode):
        for child in ast.iter_child_nodes(node):
            parents[id(child)] = node
    fnode = _Rewrite(parents).visit(fnode)
    ast.fix_missing_locations(fnode)
    injected[ITEM] = registry.tolist_item()
    return fnode

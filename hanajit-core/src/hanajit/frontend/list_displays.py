"""List displays passed where NumPy takes a sequence (``np.block([[a, b]])``,
``ufunc.at(a, [0, 2], v)``): built as tuples, marked with the list they were
(``from_list``), since NumPy reads the two differently."""
from __future__ import annotations

import ast

from ..ir import nodes as N


def mark_lists(node, built):
    """Mark the tuples built of list displays ``from_list`` (``np.block`` takes
    lists, and raises TypeError for tuples; ``ufunc.at`` reads a list as an
    index array, a tuple as one index per axis)."""
    if isinstance(node, (ast.List, ast.Tuple)) and isinstance(built, N.Const) and \
            isinstance(built.value, tuple):
        built.from_list = isinstance(node, ast.List)
    if isinstance(node, (ast.List, ast.Tuple)) and isinstance(built, N.MakeTuple) and \
            len(node.elts) == len(built.items):
        built.from_list = isinstance(node, ast.List)
        for x, b in zip(node.elts, built.items):
            mark_lists(x, b)


def as_tuple(node):
    """A list display (nested ones too) as the tuple display of its items."""
    if isinstance(node, ast.List):
        return ast.Tuple(elts=[as_tuple(x) for x in node.elts], ctx=ast.Load())
    return node

"""What a parsed ``def`` binds and which kinds of syntax it holds, in one walk."""
from __future__ import annotations

import ast
from typing import NamedTuple


class Survey(NamedTuple):
    """What :func:`survey` found in a ``def``: the ``ast`` node classes in it (the
    builder runs an analysis only where its construct is there), its
    :func:`assigned_names`, whether it names ``sorted`` at all (its ``sorted(...)``
    lists: ``frontend.sorted_lists``), and the first checks of four rewrites, made
    in the same walk rather than one walk each: ``tolist`` (a ``a.tolist()`` call:
    ``tolist_calls``), ``dict_assign`` (a dict display or ``dict()`` assigned:
    ``dict_locals``), ``held_range`` (``range`` called other than as a loop's
    iterable: ``range_objects``) and ``list_assign`` (an assigned value holding a
    list display, comprehension or ``list(...)`` call: ``growable_list_uses``)."""

    kinds: set
    names: set
    sorted_named: bool
    tolist: bool
    dict_assign: bool
    held_range: bool
    list_assign: bool


def is_tolist(node) -> bool:
    """Is ``node`` a call ``a.tolist()``?"""
    return (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
            and node.func.attr == "tolist" and not node.args and not node.keywords)


def is_dict_value(v) -> bool:
    """Is ``v`` a dict display (no ``**other``) or a call ``dict()``?"""
    if isinstance(v, ast.Dict):
        return all(k is not None for k in v.keys)          # (no ``**other``)
    return isinstance(v, ast.Call) and isinstance(v.func, ast.Name) and \
        v.func.id == "dict" and not v.args and not v.keywords


def makes_list(v) -> bool:
    """Is ``v`` a list display, a list comprehension or a call of ``list``?"""
    return isinstance(v, (ast.List, ast.ListComp)) or (
        isinstance(v, ast.Call) and isinstance(v.func, ast.Name) and v.func.id == "list")


def survey(fn: ast.FunctionDef) -> Survey:
    """The :class:`Survey` of ``fn``, in one walk."""
    kinds, names, sorted_named = set(), set(), False
    tolist = dict_assign = lists = False
    loops, ranges, assigns = set(), [], []
    for node in ast.walk(fn):
        kind = type(node)
        kinds.add(kind)
        if kind is ast.Name:
            if node.id == "sorted":
                sorted_named = True
            if isinstance(node.ctx, (ast.Store, ast.Del)):
                names.add(node.id)
            continue
        if kind is ast.Call:
            func = node.func
            if type(func) is ast.Name:
                if func.id == "range":
                    ranges.append(node)
                elif func.id == "list":
                    lists = True
            elif not tolist and is_tolist(node):
                tolist = True
        elif kind is ast.List or kind is ast.ListComp:
            lists = True
        elif kind is ast.For or kind is ast.comprehension:
            loops.add(id(node.iter))
        elif kind is ast.Assign or kind is ast.AnnAssign:
            if kind is ast.Assign:
                assigns.append(node.value)
            if not dict_assign and node.value is not None and is_dict_value(node.value):
                dict_assign = True
        else:
            _bound(node, fn, names)
    held_range = any(id(c) not in loops for c in ranges)
    # (the assigned values walked again only when a list is made somewhere at all)
    list_assign = lists and any(makes_list(v) for value in assigns for v in ast.walk(value))
    return Survey(kinds, names, sorted_named, tolist, dict_assign, held_range, list_assign)


def assigned_names(fn: ast.FunctionDef) -> set:
    """The local names of ``fn``: assigned, deleted, defined or bound by ``except``."""
    names = set()
    for node in ast.walk(fn):
        _bound(node, fn, names)
    return names


def _bound(node, fn, names: set) -> None:
    if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
        names.add(node.id)
    elif isinstance(node, (ast.FunctionDef, ast.ClassDef)) and node is not fn:
        names.add(node.name)
    elif isinstance(node, ast.ExceptHandler) and node.name:
        names.add(node.name)

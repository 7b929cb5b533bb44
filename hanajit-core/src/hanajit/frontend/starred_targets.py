"""Starred unpacking of tuples: ``first, *rest = t``, ``*init, last = t``,
``a, *mid, b = t``.

Python makes the starred name a new list.  Where that list is only read -- as
``frontend/readonly_lists.py`` allows a list display held by a name to be read:
``rest[i]``, ``len(rest)``, ``for x in rest``, ``sum(rest)``, ``x in rest``, a
NumPy function's argument ... -- the tuple of the same items answers alike, so
the name holds that tuple (the builder reads it as a list: ``rest[9]`` raises
"list index out of range").  ``t`` must be a tuple, whose length the compiled
code knows (``lib/python/starred_unpack.py``); an array, a tuple shorter than the
names (CPython's ValueError), and a starred name that is returned, changed or
passed on (which must be a ``list``) fall back.
"""
from __future__ import annotations

import ast

from ..ir import nodes as N
from ..lib import registry
from .readonly_lists import declared_elsewhere, scan


def find(fn: ast.FunctionDef, params, resolve_global) -> set:
    """The names bound by starred assignment targets that are only read."""
    ctx, stores, loads = scan(fn, resolve_global)
    scoped = declared_elsewhere(fn)
    out = set()
    for name, targets in stores.items():
        if name in params or name in scoped:
            continue
        if not all(_starred_target(t, ctx.parents) for t in targets):
            continue
        if all(ctx.read_only(use, nested=False) for use in loads.get(name, [])):
            out.add(name)
    return out


def _starred_target(node, parents) -> bool:
    """Is the store ``node`` the starred name of ``a, *b = value`` (a plain
    assignment's single tuple or list target)?"""
    star = parents.get(node)
    seq = parents.get(star)
    stmt = parents.get(seq)
    return isinstance(star, ast.Starred) and isinstance(seq, (ast.Tuple, ast.List)) \
        and isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 \
        and stmt.targets[0] is seq


def assign(b, target, value) -> list:
    """``a, *b, c = value`` for the builder ``b``: the unpacking, then each name."""
    stars = [k for k, e in enumerate(target.elts) if isinstance(e, ast.Starred)]
    if len(stars) != 1:         # (two are a SyntaxError)
        b.fail(target, "starred assignment")
    k = stars[0]
    star = target.elts[k]
    if not (isinstance(star.value, ast.Name) and star.value.id in b.starred_names):
        b.fail(target, "starred assignment", "the starred name is a list: compiled only "
               "where it is only read (indexed, measured, looped over, passed to NumPy), "
               "not returned, changed or passed on")
    before, after = k, len(target.elts) - k - 1
    name = b.tmp("u")
    b.locals.add(name)
    out = [N.Assign(target=name, value=N.PyCall(
        callee=registry.starred_unpack_callable(),
        args=[value, N.Const(before), N.Const(after)], name="starred unpacking"))]
    for i, elt in enumerate(target.elts):
        if isinstance(elt, ast.Starred):
            out.append(N.Assign(target=elt.value.id, value=N.TupleGet(N.Var(name), i)))
        else:
            out.extend(b.assign_to(elt, N.TupleGet(N.Var(name), i)))
    return out

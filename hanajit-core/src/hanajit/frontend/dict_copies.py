"""``e = d.copy()``, ``e = dict(d)`` and ``d.update(e)`` of dict locals
(``frontend/dict_locals.py``), with CPython 3.11's layouts; and ``x = list(d)``
/ ``sorted(d)`` (:func:`listed_stmts`).

``dict_merge`` (``dict(d)``, ``d.update(e)``, and ``d.copy()`` of a dict with
many deleted entries) clones the other dict's table when the target is empty and
the other has no holes and is small or well filled, else resizes the target once
for both dicts' items when its table is too small (an empty dict's table counts as
none) and stores the other's items in order; ``d.copy()`` clones when at most a
third of the entries are holes (``lib/python/dict_algorithms.py``).  The layout
decides when a dict changed while iterated raises, so it is CPython's.  Both
dicts must be compiled dict locals; else the pair falls back, naming why.
"""
from __future__ import annotations

import ast


def copy_source(stmt, resolve):
    """The name ``stmt`` copies into a name (``e = d.copy()``, ``e = dict(d)``),
    or None; ``resolve``: what a free name is (None: not checked again)."""
    if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
        target, v = stmt.targets[0], stmt.value
    elif isinstance(stmt, ast.AnnAssign) and stmt.value is not None:
        target, v = stmt.target, stmt.value
    else:
        return None
    if not isinstance(target, ast.Name) or not isinstance(v, ast.Call) or v.keywords:
        return None
    f = v.func
    if isinstance(f, ast.Attribute) and f.attr == "copy" and not v.args and \
            isinstance(f.value, ast.Name):
        return f.value.id
    if isinstance(f, ast.Name) and f.id == "dict" and len(v.args) == 1 and \
            isinstance(v.args[0], ast.Name) and (resolve is None or resolve("dict") is dict):
        return v.args[0].id
    return None


def update_of(stmt):
    """``(d, e)`` of the statement ``d.update(e)`` (names), or None."""
    if not isinstance(stmt, ast.Expr) or not isinstance(stmt.value, ast.Call):
        return None
    c = stmt.value
    if isinstance(c.func, ast.Attribute) and c.func.attr == "update" and \
            isinstance(c.func.value, ast.Name) and len(c.args) == 1 and \
            isinstance(c.args[0], ast.Name) and not c.keywords:
        return c.func.value.id, c.args[0].id
    return None


def listed(stmt, resolve):
    """The dict read (``d``, or the call ``d.keys()`` / ``d.values()``) when
    ``stmt`` is ``x = list(...)`` / ``x = sorted(...)`` or returns one of them
    (no keywords), else None; ``resolve``: see :func:`copy_source`."""
    if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and \
            isinstance(stmt.targets[0], ast.Name) or isinstance(stmt, ast.Return):
        v = stmt.value
    else:
        return None
    if not (isinstance(v, ast.Call) and isinstance(v.func, ast.Name) and
            v.func.id in ("list", "sorted") and len(v.args) == 1 and not v.keywords):
        return None
    if resolve is not None and resolve(v.func.id) not in (list, sorted):
        return None
    a = v.args[0]
    if isinstance(a, ast.Name) or isinstance(a, ast.Call) and not a.args and \
            not a.keywords and isinstance(a.func, ast.Attribute) and \
            a.func.attr in ("keys", "values") and isinstance(a.func.value, ast.Name):
        return a
    return None


def listed_stmts(r, stmt, name) -> list:
    """``x = list(d)`` (``sorted``, ``d.keys()``, ``d.values()``; ``return``) as the
    growable list ``x = []`` appended each item in the dict's order (sorted:
    ``x.sort()``, the same stable sort): ``frontend/growable_lists.py``."""
    call = stmt.value
    item = r.tmp("item")
    loop = ast.For(_name(item, True), call.args[0], [ast.Expr(ast.Call(
        ast.Attribute(_name(name), "append", ast.Load()), [_name(item)], []))], [])
    out = [ast.Assign([_name(name, True)], ast.List([], ast.Load()))] + r.stmts([loop])
    if call.func.id == "sorted":
        out.append(ast.Expr(ast.Call(ast.Attribute(_name(name), "sort", ast.Load()), [],
                                     [])))
    if isinstance(stmt, ast.Return):
        out.append(ast.Return(_name(name)))
    return out


def drop_unpaired(uses, names: set, reasons: dict, resolve) -> None:
    """Take out of ``names`` each dict copied from, into or updated with a name
    that is not a compiled dict local (and so on, until none is left)."""
    pairs = []
    for node in ast.walk(uses.fn):
        src = copy_source(node, resolve)
        if src is not None:
            pairs.append((node.targets[0].id if isinstance(node, ast.Assign)
                          else node.target.id, src, "copied from"))
        upd = update_of(node)
        if upd is not None:
            pairs.append(upd + ("updated with",))
    for a, b, how in pairs:
        if a == b and how == "copied from" and a in names:
            names.discard(a)
            reasons[a] = f"dict '{a}' assigned a copy of itself"
    changed = True
    while changed:
        changed = False
        for a, b, how in pairs:
            for x, y in ((a, b), (b, a)):
                if x in names and y not in names:
                    names.discard(x)
                    reasons[x] = reasons.get(y) or \
                        f"dict '{a}' {how} '{b}', which is not a compiled dict local"
                    changed = True


def _name(n, store=False):
    return ast.Name(n, ast.Store() if store else ast.Load())


def dict_call(name, *args):
    """``dict.<name>(*args)``: a call of the compiled dict helper ``name``
    (``lib/python/dicts.py``)."""
    return ast.Call(_name(f"dict.{name}"), list(args), [])


def dict_arrays(d, store=False):
    """The hidden arrays of the dict local ``d``: keys, values, index, sizes."""
    return [_name(f"${d}_{x}", store) for x in "KVIS"]


def _tuple(names):
    return ast.Tuple(names, ast.Store())


def merge(r, d, e, how="merge") -> list:
    """``dict_merge(d, e)`` (``how="copy_merge"``: ``d.copy()``'s) for the dict
    locals ``d``, ``e`` (``r``: the ``dict_locals.Rewriter``): one call, and the
    key and value carriers of ``d`` assigned ``e``'s items where it never runs
    (for type inference: ``frontend/dict_locals.py``)."""
    if d == e:
        return []                                   # d.update(d): nothing
    never = ast.Compare(dict_call("len", _name(f"${e}_S")), [ast.Lt()], [ast.Constant(0)])
    carriers = [ast.Assign([_name(f"${d}_v", True)], dict_call(
                    "value_at", _name(f"${e}_V"), ast.Constant(0), ast.Constant(f"${e}_v"))),
                ast.Assign([_name(f"${d}_k", True)], dict_call(
                    "key_at", _name(f"${e}_K"), ast.Constant(0), ast.Constant(f"${e}_k")))]
    return [ast.If(never, carriers, []),
            ast.Assign([_tuple(dict_arrays(d, True)[:3])],
                       dict_call(how, *dict_arrays(d), *dict_arrays(e)))]


def update(r, d, e) -> list:
    return merge(r, d, e)


def copy(r, e, d, value) -> list:
    """``e = d.copy()`` / ``e = dict(d)``: a new dict ``e`` and the merge (a copy
    clones a dict whose holes are at most a third of its entries)."""
    how = "copy_merge" if isinstance(value.func, ast.Attribute) else "merge"
    return [r.new(e, 0)] + merge(r, e, d, how)

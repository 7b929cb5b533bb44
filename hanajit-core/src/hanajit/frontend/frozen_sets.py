"""``f = frozenset(x)`` of numbers, for ``frontend/set_locals.py``: a set local
never changed, handed out as a ``frozenset``.

CPython's ``frozenset(iterable)`` lays out its table as ``set(iterable)`` does
(``make_new_set``: ``set_update_internal``, so ``set_merge`` of a set and adds
of anything else), so the compiled frozenset is a set local built that way --
``f = set()`` and an add per item, or ``f = s.copy()`` of a set local ``s`` (a
display or comprehension made first into a hidden set local) -- its assignments
marked ``hj_frozen``.  It is read only by what a frozenset has and a set local
compiles: ``v in f``, ``len(f)``, its truth, ``for v in f``, ``sorted(f)`` and
the other listed builtins, ``print(f)`` and ``return f`` (boxed as a frozenset
with the compiled table: ``hanajit.host_sets``).  Its methods, operators, an
update in place, and binding it to another name fall back naming why.
"""
from __future__ import annotations

import ast


def _name(n, store=False):
    return ast.Name(n, ast.Store() if store else ast.Load())


def is_call(v, resolve) -> bool:
    """Is ``v`` ``frozenset(x)`` of the builtin, one positional argument?"""
    return isinstance(v, ast.Call) and isinstance(v.func, ast.Name) and \
        v.func.id == "frozenset" and resolve("frozenset") is frozenset and \
        len(v.args) == 1 and not v.keywords and not isinstance(v.args[0], ast.Starred)


def build(b, s, name, v, makes_set) -> list:
    """``name = frozenset(x)`` (statement ``s``) for the set builds ``b``: the
    statements making the set, its assignment marked."""
    arg = v.args[0]
    if isinstance(arg, ast.Name) and arg.id in b.frozen:
        b.reasons[name] = (f"frozenset(...) of the frozenset '{arg.id}' (line {s.lineno}: "
                           "the same object in CPython)")
        return None
    b.sets.add(name)
    b.frozen.add(name)
    if makes_set(arg, b.resolve):
        t = b.tmp("frozen")
        b.sets.add(t)
        pre = b.block([ast.copy_location(ast.Assign([_name(t, True)], arg), s)])
        arg = _name(t)
    else:
        pre = []
    if isinstance(arg, ast.Name) and arg.id in b.sets:
        made = [ast.Assign([_name(name, True)], ast.Call(
            ast.Attribute(arg, "copy", ast.Load()), [], []))]
    else:
        made = b.build(ast.copy_location(ast.Assign([_name(name, True)], ast.Call(
            _name("set"), [arg], [])), s))
        if made is None:
            return None
    for x in made:                  # (its making: the assignment and the adds)
        if isinstance(x, ast.Assign) and len(x.targets) == 1 and \
                isinstance(x.targets[0], ast.Name) and x.targets[0].id == name:
            x.hj_frozen = True
        for n in ast.walk(x):
            if isinstance(n, ast.Attribute) and n.attr == "add" and \
                    isinstance(n.value, ast.Name) and n.value.id == name:
                n.hj_frozen = True
    return pre + made


def problem(uses, name, targets, sets, operand_partners) -> str:
    """Why the frozenset local ``name`` (assigned at ``targets``) is not
    compiled, beyond a set local's reasons, or ''."""
    for t in targets:
        if not getattr(uses.parents.get(t), "hj_frozen", False):
            return (f"frozenset '{name}' assigned other than frozenset(...) (line "
                    f"{t.lineno})")
    for node in uses.loads.get(name, []):
        p, line = uses.parents.get(node), node.lineno
        if isinstance(p, ast.Attribute) and not getattr(p, "hj_frozen", False):
            return f"frozenset '{name}'.{p.attr} (line {line}: no method of one compiles)"
        if operand_partners(name, node, uses.parents, sets) is not None or \
                isinstance(p, ast.Assign):
            return (f"frozenset '{name}' in a set operation or bound to another name "
                    f"(line {line})")
    return ""

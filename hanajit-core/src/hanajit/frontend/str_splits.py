"""``s.split()`` / ``s.split(sep)`` / ``s.split(sep, maxsplit)``, ``s.rsplit(...)``,
``s.splitlines(keepends)`` and ``s.partition(sep)`` / ``s.rpartition(sep)`` of a
str (a run-time one or a constant split by a run-time separator), where its
list (tuple) is indexed, measured, looped over, joined or unpacked
(``str_rewrite.py``).

Compiled code has no list of strs: a split is the str's code points and the
bounds of its pieces (an int64 array, a start and an end per piece:
``lib/python/string_methods.split_at``, ``string_unicode.split_space`` ...), and
a piece is made when it is read.  A *split local* -- a name every assignment of
which is such a call, read only as ``parts[i]``, ``len(parts)``, ``for p in
parts`` (also ``enumerate(parts)``), ``sep.join(parts)`` or as the iterable of a
comprehension -- is the two arrays (``$pc_parts``, ``$pb_parts``; tested for
truth too: ``if parts:``); ``for w in s.split()`` and a comprehension over a
split compute them just before the loop, as the loop would; ``s.split(",")[i]``
and ``len(s.split())`` are one call each; ``a, eq, b = s.partition("=")`` binds
three str locals.  A local assigned a list (or tuple) display of strs, one of
them built at run time (``parts = [s, str(n)]``), is held and read the same
way (:func:`displayed`).  A split used otherwise (returned, stored, passed,
sliced) falls back with a reason."""
from __future__ import annotations

import ast

from .str_locals import PREFIX, helper_call, name_node
from .str_methods import SPLITS, method_of


def is_split(e) -> bool:
    m = method_of(e)
    return m is not None and m[1] in SPLITS


def is_partition(e) -> bool:
    m = method_of(e)
    return m is not None and m[1] in ("partition", "rpartition")


def is_display(e) -> bool:
    """A list or tuple display of values, none starred (``parts = [a, str(n)]``:
    held as a split is, the strs' code points one after the other)."""
    return isinstance(e, (ast.List, ast.Tuple)) and bool(e.elts) and \
        not any(isinstance(x, ast.Starred) for x in e.elts)


def candidates(fn, binds, params) -> set:
    """Names every assignment of which is a split call (or a display) and whose
    every read is one this module compiles."""
    out = {n for n, bs in binds.items() if n not in params and bs and all(
        how == "=" and (is_split(v) or is_display(v)) for v, how in bs)}
    if not out:
        return out
    parents = {}
    for node in ast.walk(fn):
        for child in ast.iter_child_nodes(node):
            parents[id(child)] = node
    for node in ast.walk(fn):
        if isinstance(node, ast.Name) and node.id in out and \
                isinstance(node.ctx, ast.Load) and not _read_ok(node, parents):
            out.discard(node.id)
    return out


def _read_ok(node, parents) -> bool:
    p = parents.get(id(node))
    if isinstance(p, ast.Subscript) and p.value is node:
        return not isinstance(p.slice, ast.Slice)
    if isinstance(p, ast.Call) and p.args and p.args[0] is node and \
            isinstance(p.func, ast.Name):
        if p.func.id == "len":
            return len(p.args) == 1
        if p.func.id == "enumerate":
            p = parents.get(id(p))
            return isinstance(p, ast.For)
    if isinstance(p, ast.Call) and p.args == [node] and isinstance(p.func, ast.Attribute) \
            and p.func.attr == "join" and not p.keywords:
        return True                 # (sep.join(parts))
    if isinstance(p, (ast.If, ast.While, ast.IfExp)) and p.test is node or \
            isinstance(p, ast.UnaryOp) and isinstance(p.op, ast.Not):
        return True                 # (its truth: any pieces)
    return isinstance(p, (ast.For, ast.comprehension)) and p.iter is node


def arguments(r, e):
    """``(sep, maxsplit)`` of the split call ``e``: ``sep`` the code points of the
    separator or None (whitespace), ``maxsplit`` an expression."""
    name = method_of(e)[1]
    args = list(e.args)
    for k in e.keywords:
        if k.arg not in ("sep", "maxsplit") or k.arg == "sep" and len(args) > 0 or \
                k.arg == "maxsplit" and len(args) > 1:
            r.fail(e, f"str.{name}()", f"the keyword argument {k.arg!r}")
    kw = {k.arg: k.value for k in e.keywords}
    if len(args) > 2:
        r.fail(e, f"str.{name}()", f"{len(args)} arguments")
    sep = args[0] if args else kw.get("sep")
    limit = args[1] if len(args) > 1 else kw.get("maxsplit", ast.Constant(-1))
    if sep is not None and isinstance(sep, ast.Constant) and sep.value is None:
        sep = None
    if sep is not None and not r.like(sep):
        r.fail(e, f"str.{name}()", f"{ast.unparse(sep)[:40]}: a separator not known to "
               "be a str")
    return (None if sep is None else r.sv(sep)), r.expr(limit)


def _call(r, e, codes):
    """``(helper, arguments)`` of the bounds of the split ``e`` of ``codes``: the
    helper's ``_count`` and ``_piece`` take the same ones (and an index)."""
    name = method_of(e)[1]
    if name in ("partition", "rpartition"):
        if e.keywords or len(e.args) != 1:
            r.fail(e, f"str.{name}()", "other than one positional argument")
        return f"str_{name}", [codes, _sep(r, e, e.args[0], name)]
    if name == "splitlines":
        kw = [k for k in e.keywords if k.arg == "keepends"]
        if len(kw) != len(e.keywords) or len(e.args) + len(kw) > 1:
            r.fail(e, "str.splitlines()", "arguments other than keepends")
        keep = (e.args or [k.value for k in kw] or [ast.Constant(False)])[0]
        return "str_split_lines", [codes, r.expr(keep)]
    sep, limit = arguments(r, e)
    side = "r" if name == "rsplit" else ""
    if sep is None:
        return f"str_{side}split_space", [codes, limit]
    return f"str_{side}split_at", [codes, sep, limit]


def _sep(r, e, a, name):
    if not r.like(a):
        r.fail(e, f"str.{name}()", f"{ast.unparse(a)[:40]}: a separator not known to be "
               "a str")
    return r.sv(a)


def receiver(r, e):
    m = method_of(e)
    if not r.like(m[0]):
        r.fail(e, "str.split()", "of something not known to be a str")
    return r.sv(m[0])


def bounds(r, codes, e):
    """The call giving the bounds of the pieces of the split ``e`` of ``codes``."""
    return helper_call(*_first(_call(r, e, codes)))


def _first(call):
    return (call[0], *call[1])


def assigned(r, name, e):
    """``parts = s.split(...)`` (or ``parts = [a, b]``): the code points and the
    bounds."""
    c, b = names(name)
    if is_display(e):
        return displayed(r, c, b, e)
    return [ast.Assign(targets=[name_node(c, True)], value=receiver(r, e)),
            ast.Assign(targets=[name_node(b, True)], value=bounds(r, name_node(c), e))]


def displayed(r, c, b, e):
    """``parts = [a, b, ...]`` of strs: each made in turn, then all their code
    points in ``c`` and where each starts and ends in ``b``."""
    out, items = [], []
    for x in e.elts:
        t = r.tmp("pe")
        out.append(ast.Assign(targets=[name_node(t, True)], value=r.sv(x)))
        items.append(t)

    def end(k):                 # where item k ends: the lengths up to it
        total = helper_call("len", name_node(items[0]))
        for t in items[1:k + 1]:
            total = ast.BinOp(total, ast.Add(), helper_call("len", name_node(t)))
        return total
    edges = [ast.Constant(0)]
    for k in range(len(items)):
        edges += [end(k)] + ([end(k)] if k + 1 < len(items) else [])
    codes = name_node(items[0]) if len(items) == 1 else \
        helper_call("concat_of", *map(name_node, items))
    return out + [ast.Assign(targets=[name_node(c, True)], value=codes),
                  ast.Assign(targets=[name_node(b, True)], value=helper_call(
                      "array", ast.Tuple(edges, ast.Load()), name_node(PREFIX + "int64")))]


def names(name):
    return f"$pc_{name}", f"$pb_{name}"


def source(r, it):
    """The names of the code points and bounds of the split ``it`` (a split local,
    or a call made into temporaries now, before the loop over it), or None where
    ``it`` is not a split."""
    if isinstance(it, ast.Name) and it.id in r.info.splits:
        return names(it.id)
    if not is_split(it):
        return None
    c, b = r.tmp("pc"), r.tmp("pb")
    r.pre += [ast.copy_location(ast.Assign(targets=[name_node(c, True)],
                                           value=receiver(r, it)), it),
              ast.copy_location(ast.Assign(targets=[name_node(b, True)],
                                           value=bounds(r, name_node(c), it)), it)]
    return c, b


def count(b):
    """The number of pieces of the split whose bounds are the local ``b``."""
    return ast.BinOp(helper_call("len", name_node(b)), ast.FloorDiv(), ast.Constant(2))


def piece(c, b, index):
    return helper_call("str_piece", name_node(c), name_node(b), index)


def item(r, e):
    """``parts[i]`` / ``s.split(...)[i]``: the piece."""
    if isinstance(e.value, ast.Name):
        c, b = names(e.value.id)
        return piece(c, b, r.expr(e.slice))
    helper, args = _call(r, e.value, receiver(r, e.value))
    return helper_call(helper + "_piece", *args, r.expr(e.slice))


def length(r, a):
    """``len(parts)`` / ``len(s.split(...))``."""
    if isinstance(a, ast.Name):
        return count(names(a.id)[1])
    helper, args = _call(r, a, receiver(r, a))
    return helper_call(helper + "_count", *args)


def joined(r, e):
    """``sep.join(parts)`` of a split local, or of a split of a name or a constant
    (read twice: for its code points and for its bounds)."""
    sep, arg = r.sv(e.func.value), e.args[0]
    if isinstance(arg, ast.Name):
        c, b = names(arg.id)
        return helper_call("str_join_pieces", sep, name_node(c), name_node(b))
    m = method_of(arg)
    if not (isinstance(m[0], ast.Name) or r.info.value(m[0], r.S) is not None):
        r.fail(e, "str join", "a join of a split of an expression other than a name or "
               "a constant (parts = ...split(...) first compiles)")
    return helper_call("str_join_pieces", sep, receiver(r, arg), bounds(
        r, receiver(r, arg), arg))


def unpacked(r, t, e):
    """``a, eq, b = s.partition(sep)``: the three pieces bound to the names."""
    c, b = source(r, e)
    out = []
    for k, x in enumerate(t.elts):
        out += r.bind(x.id, piece(c, b, ast.Constant(k)))
    return out


def truth(a):
    """``parts`` in a truth context: any pieces."""
    return ast.Compare(count(names(a.id)[1]), [ast.NotEq()], [ast.Constant(0)])

"""Strs built at run time: ``s = DIGITS[n % b] + s``, ``out += "M"``,
``str(n)``, ``chr(i)``, ``f"{n:05d}"``, ``",".join(str(x) for x in a)``.

A str constant -- a literal, a str argument (``infer/str_params.py``: part of
the dispatch key), a global, a local assigned one constant everywhere -- still
folds as before.  What this module compiles is a *run-time* str: a 1-D int32
array of its code points (``lib/python/string_algorithms.py``), made new by
every operation and never written afterwards, so that names may share one.  The
function's tree is rewritten before the builder sees it: each str operation
becomes a call of a helper (``lib/python/strings.py`` for those whose meaning
depends on a type), constants taking part become arrays of their code points,
and ``return s`` hands back the array, which the dispatcher makes the Python str
(``Function.returns_str``).

A str local is a local name every assignment of which is a str (``=``, ``+=``,
``*=``, a ``for`` over a str, ``enumerate`` of one) and at least one of them one
built at run time (or constants that differ).  Its reads, and every run-time str
expression, must be in a place this module builds:

* ``+``, ``* k``, ``s[i]``, ``s[a:b:c]``, ``len``, ``ord``, ``int``
  (``lib/python/string_int.py``; beyond int64 re-runs in the interpreter),
  ``str``, ``repr``, ``chr``,
  ``format``/``bin``/``hex``/``oct``, f-strings of ints, bools, floats and strs
  (``str_formats.py``: fill, align, sign, ``#``, ``0``, width, precision;
  ``d``/``x``/``X``/``o``/``b``, ``e``/``f``/``g``/``%``; a float's digits are
  CPython's own, ``lib/python/float_text.py``),
  ``==``/``!=``/``<``/``<=``/``>``/``>=`` (chained too), ``in``, truth,
  ``a if c else b``, ``for c in s`` (also in comprehensions), ``sep.join`` of a
  generator or list comprehension (the whole value of an assignment or
  ``return``), of a display, or of a list of str constants;
* ``return s`` (every return of the function a str, or a tuple holding strs at
  the same positions: ``Function.returns_str``);
* passing it to a plain or jitted function: its array typed ``T.StrCodes``, on
  which the callee specialises, reading the parameter as a str;
* ``names[i]``, ``len(names)``, ``for x in names`` of a list (or tuple) of str
  constants assigned once (two arrays: all the code points, where each starts);
* its methods (``str_methods.py``; ``split``: ``str_splits.py``), ``print`` of it
  and a ``raise``/``assert`` message holding it (``str_rewrite.text``: passed as
  ``T.StrCodes``, which ``lib/python/printing.py`` and ``errors.Field`` read).

Costs (``str_rewrite.py``): a local grown by ``+=`` is a buffer with spare room
and a count; the characters of a loop over a str and ``chr(i)`` below 256 are
rows of a table made on entry; constants are made once, on entry.

Anything else on a run-time str (another method, passing it to a library
function, storing it in an array or a list, ``str()`` of an ``np.float32``) fails with a
reason naming the construct: the function runs in the interpreter.
"""
from __future__ import annotations

import ast
import builtins
import copy

import numpy as np


PREFIX = "__hj_s_"
# the str methods compiled (str_methods.py, str_splits.py) and join
_METHODS = frozenset(("join", "split", "upper", "lower", "strip", "lstrip", "rstrip",
                      "replace", "zfill", "center", "ljust", "rjust", "find", "rfind",
                      "index", "rindex", "count", "startswith", "endswith", "isalpha",
                      "isdigit", "isalnum", "isspace", "title", "capitalize", "swapcase",
                      "casefold", "isupper", "islower", "istitle", "rsplit", "splitlines",
                      "partition", "rpartition"))


def name_node(n, store=False):
    return ast.Name(n, ast.Store() if store else ast.Load())


_WORDS = {"str_of": "str", "repr_of": "repr", "format_of": "a formatted field",
          "chr_of": "chr", "repeat_of": "str * int", "item_of": "str indexing",
          "concat_of": "str +", "code_point": "ord", "to_int": "int", "str_tag": "a str argument",
          "str_untag": "a str parameter"}


def helper_call(f, *args):
    """A call of the helper ``f``, named in reasons as what the user wrote."""
    call = ast.Call(name_node(PREFIX + f), list(args), [])
    call.hj_name = _WORDS.get(f, f"a str operation ({f})")
    return call


def is_call_of(e, name, resolve):
    return isinstance(e, ast.Call) and isinstance(e.func, ast.Name) and \
        resolve(e.func.id) is getattr(builtins, name)


def _targets(s):
    """``(name, value, how)`` of each name ``s`` binds: ``how`` "=" (value the
    assigned expression), "+="/"*=" (an augmented assignment), "for" (value the
    iterable), "enum" (the str of ``for i, c in enumerate(s)``), "piece" (a name
    of ``a, eq, b = s.partition(sep)``, value the call), "other"."""
    if isinstance(s, ast.Assign):
        for t in s.targets:
            if isinstance(t, ast.Name):
                yield t.id, s.value, "="
            elif _unpacks_partition(s, t):
                for x in t.elts:
                    yield x.id, s.value, "piece"
            else:
                for n in ast.walk(t):
                    if isinstance(n, ast.Name):
                        yield n.id, None, "other"
    elif isinstance(s, ast.AnnAssign) and isinstance(s.target, ast.Name):
        yield s.target.id, s.value, "=" if s.value is not None else "none"
    elif isinstance(s, ast.AugAssign) and isinstance(s.target, ast.Name):
        how = {ast.Add: "+=", ast.Mult: "*="}.get(type(s.op), "other")
        yield s.target.id, s.value, how
    elif isinstance(s, ast.For):
        t = s.target
        if isinstance(t, ast.Name):
            yield t.id, s.iter, "for"
        elif isinstance(t, ast.Tuple) and len(t.elts) == 2 and \
                all(isinstance(x, ast.Name) for x in t.elts) and \
                isinstance(s.iter, ast.Call) and isinstance(s.iter.func, ast.Name) and \
                s.iter.func.id == "enumerate" and s.iter.args:
            yield t.elts[0].id, None, "other"
            yield t.elts[1].id, s.iter.args[0], "enum"
        else:
            for n in ast.walk(t):
                if isinstance(n, ast.Name):
                    yield n.id, None, "other"
    else:
        for n in ast.walk(s) if isinstance(s, (ast.NamedExpr, ast.With, ast.Delete,
                                                ast.ExceptHandler)) else ():
            if isinstance(n, ast.Name) and isinstance(n.ctx, (ast.Store, ast.Del)):
                yield n.id, None, "other"
        if isinstance(s, ast.ExceptHandler) and s.name:
            yield s.name, None, "other"


def _unpacks_partition(s, t) -> bool:
    """Is ``s`` -- with the target ``t`` -- ``a, eq, b = x.partition(sep)`` (or
    ``rpartition``)?"""
    from .str_splits import is_partition
    return len(s.targets) == 1 and isinstance(t, (ast.Tuple, ast.List)) and \
        len(t.elts) == 3 and all(isinstance(x, ast.Name) for x in t.elts) and \
        is_partition(s.value)


def _statements(fn):
    """Every statement (and ``except`` clause, walrus) of ``fn``, comprehension
    scopes left out."""
    out = []

    def walk(node):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.GeneratorExp, ast.ListComp, ast.SetComp, ast.DictComp,
                                  ast.Lambda, ast.FunctionDef)):
                continue
            if isinstance(child, (ast.stmt, ast.ExceptHandler, ast.NamedExpr)):
                out.append(child)
            walk(child)
    walk(fn)
    return out


class Strs:
    """The analysis: which names are str locals (``locals``), lists of str
    constants (``tables``) and constants (``const``)."""

    def __init__(self, fn, params, str_args, resolve):
        self.fn, self.params, self.resolve = fn, set(params), resolve
        # {param: its str value}; a run-time str's code points (None): ``coded``
        self.str_args = {p: v for p, v in str_args.items() if v is not None}
        self.coded = {p for p, v in str_args.items() if v is None}
        binds = {}
        for s in _statements(fn):
            for name, value, how in _targets(s):
                binds.setdefault(name, []).append((value, how))
        self.binds = binds
        self.const = {}                     # local name -> its one str value
        for name, bs in binds.items():
            vals = {v.value if isinstance(v, ast.Constant) and type(v.value) is str else None
                    for v, how in bs if how == "="}
            if name not in self.params and len(vals) == 1 and None not in vals and \
                    all(how == "=" for _, how in bs):
                self.const[name] = vals.pop()
        self.tables = {}                    # name -> tuple of str constants
        for name, bs in binds.items():
            if name in self.params or len(bs) != 1 or bs[0][1] != "=":
                continue
            v = bs[0][0]
            if isinstance(v, (ast.List, ast.Tuple)) and v.elts and all(
                    isinstance(x, ast.Constant) and type(x.value) is str for x in v.elts):
                self.tables[name] = tuple(x.value for x in v.elts)
        self.tables = {k: v for k, v in self.tables.items() if self._table_uses_ok(k)}
        from .str_splits import candidates
        self.splits = candidates(fn, binds, self.params)      # parts = s.split(",")
        while True:
            self.locals = self._str_locals()
            # (a split of something not a str -- np.split(a, 3) -- is none)
            keep = {n for n in self.splits if all(self._pieces_of_strs(v)
                                                  for v, _ in binds[n])}
            if keep == self.splits:
                break
            self.splits = keep

    def _pieces_of_strs(self, v) -> bool:
        """Is the split candidate's value ``v`` a split of a str, or a display of
        strs one of which is built at run time (of constants: a table)?"""
        from .str_splits import is_display
        if is_display(v):
            return all(self.like(x, self.locals) for x in v.elts) and \
                any(self.rt(x, self.locals) for x in v.elts)
        return self.like(v.func.value, self.locals)

    def _str_locals(self) -> set:
        """The str locals: the largest set of names whose every binding is a str,
        less those only ever assigned one constant."""
        binds = self.binds
        cands = {n for n, bs in binds.items() if n not in self.params and n not in
                 self.const and n not in self.tables and n not in self.splits}
        while True:
            keep = {n for n in cands if all(self._binds_str(v, how, cands | self.coded)
                                             for v, how in binds[n])}
            if keep == cands:
                break
            cands = keep
        return {n for n in cands if any(how != "=" or self.rt(v, cands | self.coded)
                                        for v, how in binds[n])
                or len({ast.dump(v) for v, _ in binds[n]}) > 1} | self.coded

    def _table_uses_ok(self, name) -> bool:
        parents = {}
        for node in ast.walk(self.fn):
            for child in ast.iter_child_nodes(node):
                parents[id(child)] = node
        for node in ast.walk(self.fn):
            if isinstance(node, ast.Name) and node.id == name and \
                    isinstance(node.ctx, ast.Load):
                p = parents.get(id(node))
                if isinstance(p, ast.Subscript) and p.value is node and \
                        not isinstance(p.slice, ast.Slice):
                    continue
                if isinstance(p, ast.Call) and p.args == [node] and \
                        isinstance(p.func, ast.Name) and p.func.id == "len":
                    continue
                if isinstance(p, ast.Call) and p.args == [node] and \
                        isinstance(p.func, ast.Attribute) and p.func.attr == "join":
                    continue
                if isinstance(p, ast.For) and p.iter is node and \
                        isinstance(p.target, ast.Name):
                    continue
                return False
        return True

    def _binds_str(self, v, how, S) -> bool:
        if how == "=":
            return self.like(v, S)
        if how == "+=":
            return self.like(v, S)
        if how == "*=":
            return True             # (s *= k: the count checked when typed)
        if how == "piece":              # (of constants: left to the builder, as before)
            return self.split_of(v, S) and any(self.rt(x, S) for x in [v.func.value, *v.args])
        if how in ("for", "enum"):
            return self.like(v, S) or (isinstance(v, ast.Name) and v.id in self.tables) \
                or self.split_of(v, S)
        return False

    def split_of(self, e, S=None) -> bool:
        """Is ``e`` a split of a str (a split local, or ``s.split(...)``)?"""
        from .str_splits import is_split
        if isinstance(e, ast.Name):
            return e.id in self.splits
        return is_split(e) and self.like(e.func.value, S)

    # ------------------------------------------------------------------ kinds
    def value(self, e, S=None):
        """The str constant ``e`` is, or None."""
        if isinstance(e, ast.Constant) and type(e.value) is str:
            return e.value
        if isinstance(e, ast.Name):
            if e.id in self.str_args:
                return self.str_args[e.id]
            if e.id in self.const and (S is None or e.id not in S):
                return self.const[e.id]
            if e.id not in self.binds and e.id not in self.params:
                v = self.resolve(e.id)
                if type(v) is str:
                    return v
        if isinstance(e, ast.Call) and isinstance(e.func, ast.Attribute):
            from .str_methods import folded        # ("a,b".upper(): computed now)
            v = folded(self, e, S)
            return v if type(v) is str else None
        return None

    def like(self, e, S=None) -> bool:
        """Is ``e`` a str (a constant or one built at run time)?"""
        return self.value(e, S) is not None or self.rt(e, S)

    def rt(self, e, S=None) -> bool:
        """Is ``e`` a str built at run time?"""
        S = self.locals if S is None else S
        if isinstance(e, ast.Name):
            return e.id in S
        if isinstance(e, ast.JoinedStr):
            return True
        if isinstance(e, ast.Call) and isinstance(e.func, ast.Name) and not e.keywords:
            f = self.resolve(e.func.id) if e.func.id not in self.binds else None
            if f is str and len(e.args) <= 1 or f in (chr, bin, hex, oct, repr) and \
                    len(e.args) == 1 or f is format and len(e.args) in (1, 2):
                return True
            return False
        if isinstance(e, ast.Call) and isinstance(e.func, ast.Attribute) and \
                e.func.attr == "join" and len(e.args) == 1 and not e.keywords:
            return self.like(e.func.value, S)
        if isinstance(e, ast.Call) and isinstance(e.func, ast.Attribute):
            from .str_methods import makes_str
            return makes_str(self, e, S)
        if isinstance(e, ast.Subscript):
            if isinstance(e.value, ast.Name) and e.value.id in self.tables or \
                    self.split_of(e.value, S):
                return not isinstance(e.slice, ast.Slice)
            return self.like(e.value, S)
        if isinstance(e, ast.BinOp) and isinstance(e.op, ast.Add):
            return self.like(e.left, S) and self.like(e.right, S)
        if isinstance(e, ast.BinOp) and isinstance(e.op, ast.Mult):
            return self.like(e.left, S) or self.like(e.right, S)
        if isinstance(e, ast.IfExp):
            return self.like(e.body, S) and self.like(e.orelse, S)
        return False


def wanted(fn, str_args, resolve) -> bool:
    """Might ``fn`` build a str at run time?  (A quick look, before the analysis.)"""
    if str_args:
        return True
    for node in ast.walk(fn):
        if isinstance(node, ast.JoinedStr):
            return True
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and \
                node.func.id in ("str", "chr", "ord", "format", "bin", "hex", "oct",
                                  "repr"):
            return True
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
                node.func.attr in _METHODS:
            return True
        if isinstance(node, (ast.AugAssign, ast.For)):
            return True
        if isinstance(node, (ast.BinOp, ast.Subscript, ast.IfExp, ast.List, ast.Tuple)) and any(
                isinstance(x, ast.Constant) and type(x.value) is str
                for x in ast.iter_child_nodes(node)):
            return True
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and \
                type(resolve(node.id)) is str:
            return True
    return False


def injected() -> dict:
    from ..lib import registry
    out = {PREFIX + k: f for k, f in registry.str_callables().items()}
    out.update({PREFIX + "array": np.array, PREFIX + "empty": np.empty,
                PREFIX + "int32": np.int32, PREFIX + "int64": np.int64,
                PREFIX + "len": builtins.len, PREFIX + "range": builtins.range,
                PREFIX + "enumerate": builtins.enumerate})
    return out


def rewrite(b, fn, str_args):
    """``(fnode, returns_str)``: ``fn`` with its run-time strs rewritten (a copy;
    ``fn`` itself when it has none)."""
    if not wanted(fn, str_args, b._global_object):
        return fn, False
    from .str_rewrite import Rewriter
    info = Strs(fn, b.params, str_args, b._global_object)
    if not (info.locals or info.tables or info.splits or any(
            isinstance(n, ast.expr) and info.rt(n) for n in ast.walk(fn))):
        return fn, False
    original, fn = fn, copy.deepcopy(fn)
    info.fn = fn
    r = Rewriter(b, info)
    body = r.stmts(fn.body)
    if not r.changed:
        return original, False
    fn.body = r.prelude() + body
    ast.fix_missing_locations(fn)
    b.injected.update(injected())
    return fn, r.returns_str

"""List comprehensions handed to NumPy or returned, built as arrays.

NumPy reads a list argument as ``np.array(list)``: for a list comprehension of
numbers that is an array of the items' type (Python int -> int64, float ->
float64, bool -> bool, a NumPy scalar -> its type), and for a comprehension of
list comprehensions or of list/tuple displays a 2-D array when every row has
the same length.  A returned list comprehension is the same array, which the
dispatcher hands back as a list (``Function.returns_list``), of lists for a
nest, whose items are NumPy scalars or Python numbers as the interpreter's
(``Function.numpy_list``).  The builder (``Builder.list_arg``, ``s_Return``)
hands such a comprehension here; it becomes a loop,
placed before the statement (``Builder.pending``) like the reductions of
``frontend/comprehensions.py``, that appends each item to a growable buffer
(twice as long when full) and ends with the array NumPy would have made::

    b = np.array([x * 2 for x in a if x > 0])

    $k = 0
    for $c2_x in a:
        if $c2_x > 0:
            $item = $c2_x * 2
            if $k == 0: $buf = np.full(16, $item)        # the items' dtype
            elif $k == len($buf):
                $new = np.full(2 * $k, $item)
                for $j in range($k): $new[$j] = $buf[$j]     # (a loop: faster
                $buf = $new                                  #  than new[:k] = buf)
            $buf[$k] = $item
            $k = $k + 1
    if $k == 0: raise [deopt]
    if $k != len($buf): <move the items into np.full($k, $item)>
    b = $buf

* Every item is evaluated, in order, before NumPy sees any (exceptions inside
  the comprehension come first, as the list is built first).
* A ragged nest raises NumPy's ValueError (after every row is built, as NumPy
  sees the whole list); a nest deeper than two levels falls back.
* No items: NumPy's result is a float64 array of shape ``(0,)`` (or ``(n, 0)``)
  whatever the items would have been, a type the compiled code cannot know, so
  the call deoptimises (the interpreter re-runs a function that writes none of
  its arguments; one that does raises UnsupportedError, saying why).
* Returned (``as_list``): no items give an empty array of the buffer's type
  (``lib/arrays/creation.py``: ``empty_of_type``, which never reads the unbound buffer), so
  ``[]``; ragged rows deoptimise; rows that are tuples fall back.
* Items that are not numbers (arrays) fall back (``np.full`` refuses
  them while types are inferred), as do ``np.array(comp, dtype)`` and other
  arguments of the array constructors: NumPy converts Python ints to a dtype
  with other rules (OverflowError) than an int64 array.
"""
from __future__ import annotations

import ast
import builtins
import copy

from . import comprehensions as comps
from .source import resolved
from ..lib import registry

CONSTRUCTORS = ("array", "asarray", "asanyarray", "ascontiguousarray")
_HELPERS = {"__hj_len": builtins.len, "__hj_range": builtins.range}
_FULL = "np.array([...]) of a list comprehension whose items are not numbers"


def build_array(b, comp, call, as_list=False, empty_deopts=None, names=None):
    """Build the loop of NumPy's array of ``comp`` (an argument of ``call``) into
    ``b.pending``; return the IR expression of the array.  ``as_list``: the
    array that is the list itself (a returned comprehension, or one
    assigned to a name, ``frontend/comprehension_lists.py``): no items give an
    empty array of the items' type -- unless ``empty_deopts`` (as NumPy's array
    of an empty list, float64, would be read) -- and ragged rows deoptimise.
    ``names``, a dict, receives the generated locals (``"item"``: the local
    holding each item)."""
    if empty_deopts is None:
        empty_deopts = not as_list
    from ..ir import nodes as N
    import numpy
    empty_of_type = registry.empty_of_type_callable()
    what = "list comprehension"
    if not as_list:
        name = getattr(callee(b, call), "__name__", "")
        if name in CONSTRUCTORS and (len(call.args) > 1 or call.keywords):
            b.fail(comp, f"{what} given to np.{name} with a dtype or other arguments",
                   "NumPy converts the Python items with other rules than an array's")
        comps.check_position(b, comp, what, f"np.{name}")
    b.injected["empty_of_type"] = empty_of_type
    b.injected.update(_HELPERS)
    # (named for what they do: an error typing them names the construct)
    b.injected.update({_FULL: numpy.full})
    v = {k: b.tmp(k) for k in ("k", "buf", "new", "j", "item", "rows", "width", "ragged", "start")}
    b.locals.update(v.values())
    if names is not None:
        names.update(v)

    outer = comps.renamed(b, copy.deepcopy(comp))
    pre = [_assign(v["k"], ast.Constant(0))]
    if as_list and isinstance(outer.elt, ast.Tuple):
        b.fail(comp, f"{what} of tuples returned", "its rows would be lists")
    nested = isinstance(outer.elt, (ast.ListComp, ast.List, ast.Tuple))
    if nested:
        inner = outer.elt
        items = [inner.elt] if isinstance(inner, ast.ListComp) else inner.elts
        indices = {id(n.slice) for e in items for n in ast.walk(e)
                   if isinstance(n, ast.Subscript)}         # (``a[i, j]`` is no row)
        if any(isinstance(n, (ast.ListComp, ast.List, ast.Tuple, ast.Starred,
                              ast.GeneratorExp)) and id(n) not in indices
               for e in items for n in ast.walk(e)):
            b.fail(comp, f"{what} nested more than two levels given to NumPy")
        pre += [_assign(v["rows"], ast.Constant(0)), _assign(v["width"], ast.Constant(0)),
                _assign(v["ragged"], ast.Constant(False))]
        row = [_assign(v["start"], _name(v["k"]))]
        if isinstance(inner, ast.ListComp):         # [[f(i, j) for j in ...] for i in ...]
            inner = comps.renamed(b, inner)
            row += comps.loops(inner.generators, _push(v, inner.elt), None)
        else:                                       # [[x, 2 * x] for x in ...], tuples
            for e in items:
                row += _push(v, e)
        length = ast.BinOp(_name(v["k"]), ast.Sub(), _name(v["start"]))
        row.append(ast.If(
            test=ast.Compare(_name(v["rows"]), [ast.Eq()], [ast.Constant(0)]),
            body=[_assign(v["width"], length)],
            orelse=[ast.If(test=ast.Compare(length, [ast.NotEq()], [_name(v["width"])]),
                           body=[_assign(v["ragged"], ast.Constant(True))], orelse=[])]))
        row.append(_assign(v["rows"], ast.BinOp(_name(v["rows"]), ast.Add(),
                                                ast.Constant(1))))
        body = comps.loops(outer.generators, row, None)
    else:
        body = comps.loops(outer.generators, _push(v, outer.elt), None)
    stmts = pre + body
    comps.locate(stmts, comp)
    out = b.stmts(stmts)
    k = N.Var(v["k"])
    if nested and as_list:
        out.append(N.If(cond=N.Truth(N.Var(v["ragged"])), then=[N.Raise(
            exc=ValueError, deopt=True, message="a list of lists of different lengths")]))
    elif nested:
        out.append(N.If(cond=N.Truth(N.Var(v["ragged"])), then=[N.Raise(
            exc=ValueError, message=(
                "setting an array element with a sequence. The requested array has an "
                "inhomogeneous shape after 1 dimensions. The detected shape was ({},) "
                "+ inhomogeneous part."), args=[N.Var(v["rows"])])]))
    if not empty_deopts:
        out.append(N.If(cond=N.PyCompare(["eq"], [k, N.Const(0)]), then=[N.Assign(
            target=v["buf"], value=N.PyCall(callee=empty_of_type, args=[N.Var(v["buf"])],
                                            kwargs={}, name="[]"))]))
    else:
        out.append(N.If(cond=N.PyCompare(["eq"], [k, N.Const(0)]), then=[N.Raise(
            exc=ValueError, deopt=True,
            message="NumPy's array of an empty list is float64 whatever its items")]))
    shrink = [ast.If(test=ast.Compare(_name(v["k"]), [ast.NotEq()], [ast.Call(
        _name("__hj_len"), [_name(v["buf"])], [])]), body=_moved(v, _name(v["k"])),
        orelse=[])]
    comps.locate(shrink, comp)
    out += b.stmts(shrink)
    for s in out:
        s.line = s.line or comp.lineno
    b.pending.extend(out)
    flat = N.Var(v["buf"])
    if nested:
        return N.PyCall(callee=comps.Method("reshape"), args=[flat, N.MakeTuple(
            [N.Var(v["rows"]), N.Var(v["width"])])], kwargs={}, name="reshape")
    return flat


def _moved(v, size):
    """Statements moving the first ``$k`` items into a new buffer of ``size``
    (a loop: compiled ``new[:k] = buf`` is slower)."""
    k, buf, new, j = (_name(v[x]) for x in ("k", "buf", "new", "j"))
    return [_assign(v["new"], ast.Call(_name(_FULL), [size, _name(v["item"])], [])),
            ast.For(target=ast.Name(v["j"], ast.Store()),
                    iter=ast.Call(_name("__hj_range"), [k], []),
                    body=[ast.Assign(targets=[ast.Subscript(new, j, ast.Store())],
                                     value=ast.Subscript(buf, j, ast.Load()))],
                    orelse=[]),
            _assign(v["buf"], _name(v["new"]))]


def is_built(func, call) -> bool:
    """Is ``func(call's args)`` ``np.array(<list comprehension>)`` (or asarray...),
    whose value is the array built for the comprehension itself?"""
    return (getattr(func, "__name__", None) in CONSTRUCTORS
            and (getattr(func, "__module__", None) or "").startswith("numpy")
            and len(call.args) == 1 and not call.keywords
            and isinstance(call.args[0], ast.ListComp))


def _push(v, elt):
    """Statements appending ``elt`` to the buffer."""
    k, buf, item = _name(v["k"]), _name(v["buf"]), _name(v["item"])
    return [
        _assign(v["item"], elt),
        ast.If(test=ast.Compare(k, [ast.Eq()], [ast.Constant(0)]),
               body=[_assign(v["buf"], ast.Call(_name(_FULL),
                                                [ast.Constant(16), item], []))],
               orelse=[ast.If(
                   test=ast.Compare(k, [ast.Eq()], [ast.Call(_name("__hj_len"), [buf], [])]),
                   body=_moved(v, ast.BinOp(ast.Constant(2), ast.Mult(), k)),
                   orelse=[])]),
        ast.Assign(targets=[ast.Subscript(buf, k, ast.Store())], value=item),
        _assign(v["k"], ast.BinOp(k, ast.Add(), ast.Constant(1))),
    ]


def callee(b, call):
    """The object a call's ``name.attr...`` function names, or None."""
    return resolved(call.func, b._global_object)


def _assign(target, value):
    return ast.Assign(targets=[ast.Name(target, ast.Store())], value=value)


def _name(n):
    return ast.Name(n, ast.Load())

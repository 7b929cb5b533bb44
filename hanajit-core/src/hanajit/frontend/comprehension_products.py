"""``math.prod`` and ``math.fsum`` of an iterable, as loops
(``frontend/comprehensions.py`` builds them as it builds a ``sum``)::

    p = math.prod(a, start=s)            $start = s; $prod = $start; $empty = True
                                         for item in a:
                                             $prod = $prod * item; $empty = False

    f = math.fsum(x * x for x in a)      $fs = np.zeros(35)
                                         for $c2_x in a:
                                             $fs = fsum_add($fs, $c2_x * $c2_x)
                                         $fsum = fsum_total($fs)

* ``math.prod`` multiplies left to right from ``start`` (1), CPython's order, with
  the ``*`` of the Python or NumPy scalars the items are (int overflow beyond int64
  re-runs in the interpreter, NumPy integers wrap, float rounding and NEP 50
  promotion are those of ``p = p * x``).  With no items CPython returns ``start``
  itself: where the product's type (one type for all iterations) is not the
  start's (``math.prod(floats)`` of a Python-int start), an empty iterable re-runs
  in the interpreter (``same_kind``, a question types answer, decides whether the
  check is compiled at all).
* ``math.fsum`` is CPython's ``math_fsum`` (Shewchuk's exact partials, its
  special values and errors, and its half-even correction), in
  ``lib/python/fsum_algorithm.py``: ``fsum_add`` adds one item (converted with
  ``float()``) to the state array (partials and the running special sums; it
  returns a larger array when the partials outgrow it), ``fsum_total`` rounds.
"""
from __future__ import annotations

import ast

from ..ir import nodes as N


def _assign(target, value):
    return ast.Assign(targets=[ast.Name(target, ast.Store())], value=value)


def _name(n):
    return ast.Name(n, ast.Load())


def prod_loop(b, acc, start, elt, pre, inner) -> list:
    """The statements of ``math.prod``'s loop into ``pre``/``inner``; returns the
    IR statements after the loop (the empty-iterable check)."""
    from ..lib import registry
    same_kind = registry.product_callables()[0]
    s0, empty = b.tmp("start"), b.tmp("empty")
    b.locals.update((s0, empty))
    pre += [_assign(s0, start), _assign(acc, _name(s0)), _assign(empty, ast.Constant(True))]
    inner += [_assign(acc, ast.BinOp(_name(acc), ast.Mult(), elt)),
              _assign(empty, ast.Constant(False))]
    return [N.If(cond=N.PyCall(callee=same_kind, args=[N.Var(s0), N.Var(acc)], kwargs={},
                               name="same_kind"),
                 orelse=[N.If(cond=N.Truth(N.Var(empty)), then=[N.Raise(
                     exc=ValueError, deopt=True,
                     message="math.prod() of no items is its start, whose type is not "
                             "the product's")])])]


# the state array: [number of partials, special sum, inf sum, partials...]
FSUM_STATE = 3 + 32


def fsum_loop(b, acc, items, pre, inner, after) -> None:
    """The statements of ``math.fsum``'s loop into ``pre``/``inner``/``after``:
    ``inner`` adds each of ``items`` (the loop's item, or a display's items)."""
    import numpy
    from ..lib import registry
    _, add, total = registry.product_callables()
    state = b.tmp("fs")
    b.locals.add(state)
    b.injected.update({"__hj_zeros": numpy.zeros, "__hj_fsum_add": add,
                       "__hj_fsum_total": total})
    pre.append(_assign(state, ast.Call(_name("__hj_zeros"), [ast.Constant(FSUM_STATE)], [])))
    inner += [_assign(state, ast.Call(_name("__hj_fsum_add"), [_name(state), x], []))
              for x in items]
    after.append(_assign(acc, ast.Call(_name("__hj_fsum_total"), [_name(state)], [])))


def unrolled(b, name, acc, start, elts) -> list:
    """``math.prod``/``math.fsum`` of a tuple or list display (``math.prod((x, y,
    3))``), unrolled: its items may differ in type, which a loop's one item
    variable cannot, so each item and each partial product has a local of its own.
    Every item is evaluated first, as the display is built before the call."""
    temps = [b.tmp("item") for _ in elts]
    b.locals.update(temps)
    out = [_assign(t, e) for t, e in zip(temps, elts)]
    if name == "prod":
        prev = b.tmp("start")
        b.locals.add(prev)
        out.append(_assign(prev, start))
        for t in temps:
            step = b.tmp("prod")
            b.locals.add(step)
            out.append(_assign(step, ast.BinOp(_name(prev), ast.Mult(), _name(t))))
            prev = step
        return out + [_assign(acc, _name(prev))]
    pre, adds, after = [], [], []
    fsum_loop(b, acc, [_name(t) for t in temps], pre, adds, after)
    return out + pre + adds + after

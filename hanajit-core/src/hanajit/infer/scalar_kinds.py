"""NumPy scalar or Python number: the half of :class:`~.infer.Inferrer` (a mixin)
that tells them apart for NumPy 2's promotion rules (NEP 50: a Python int, float
or complex operand adapts to the other operand's dtype, a NumPy scalar promotes
with its own), over expressions, locals and the items of tuple locals.
"""
from __future__ import annotations

from ..ir.frontend_nodes import Method, Unpack
from ..ir import nodes as N
from ..ir import types as T
from ..lib import registry
from . import numpy_results, weak_locals


class ScalarKinds:
    """``is_strong``/``weak`` and the bookkeeping of assignments they read
    (``self.strong_vars``, ``strong_items``, ``assigned``, ``mixed``,
    ``changed`` and ``fail`` are the Inferrer's)."""

    def note_items(self, name, value) -> None:
        """Which items of tuple local ``name`` are NumPy scalars, over its
        assignments (unknown -- the whole tuple's answer -- unless each is a
        ``MakeTuple`` of the same length)."""
        if isinstance(value, N.PyCall) and isinstance(value.callee, Unpack) and value.args:
            value = value.args[0]               # (the unpacking's length check)
        items = None
        if isinstance(value, N.MakeTuple):
            items = self._item_kinds(value)
        elif isinstance(value, N.Var):          # a copy of a tuple local (``best = p``)
            items = self.strong_items.get(value.name)
        elif isinstance(value, N.PyCall) and value.callee is registry.starred_unpack_callable():
            items = self._starred_kinds(value)      # first, *rest = t
        elif isinstance(value, N.TupleGet) and isinstance(value.tup, N.Var):
            # an item of a tuple local that is itself a tuple (``k, (i, v) = ...``,
            # the loop head of ``enumerate(zip(...))``): its items' kinds
            outer = self.strong_items.get(value.tup.name)
            if outer is not None and value.index < len(outer) \
                    and isinstance(outer[value.index], tuple):
                items = outer[value.index]
        elif isinstance(value, N.PyGetItem) and isinstance(value.value, N.Var):
            # an item of a tuple of tuples (``for c, d in ((1, a[0]), (2, a[1]))``):
            # that item's kinds, or, at a run-time position, every item's joined
            outer = self.strong_items.get(value.value.name)
            if outer and all(isinstance(o, tuple) for o in outer):
                k = value.index.value if isinstance(value.index, N.Const) else None
                if type(k) is int and -len(outer) <= k < len(outer):
                    items = outer[k]
                elif k is None:
                    items = outer[0]
                    for o in outer[1:]:
                        items = _merged(items, o) if items is not None else None
        if items is not None:
            old = self.strong_items.get(name, items)
            new = _merged(old, items) if old is not None else None
        else:
            new = None
        if name not in self.strong_items or self.strong_items[name] != new:
            self.strong_items[name] = new
            self.changed = True

    def note_assignment(self, name, t, strong, line=0) -> None:
        kinds = self.assigned.setdefault(name, set())
        if (t, strong) not in kinds:
            kinds.add((t, strong))
            weak_locals.check_held(name, kinds, line, self.fail, self.fn.hidden_words)
            mixed = weak_locals.mixed_locals(self.assigned)
            if mixed != self.mixed:
                self.mixed = mixed
                self.changed = True

    def _starred_kinds(self, value):
        """The item kinds of ``starred_unpack(t, before, after)``: ``t``'s, the
        middle ones as a nested tuple."""
        t = value.args[0]
        inner = self._item_kinds(t) if isinstance(t, N.MakeTuple) else \
            self.strong_items.get(t.name) if isinstance(t, N.Var) else \
            (False,) * len(t.value) if isinstance(t, N.Const) and type(t.value) is tuple \
            else None
        if inner is None:
            return None
        before, after = value.args[1].value, value.args[2].value
        n = len(inner)
        if n < before + after:
            return None
        return inner[:before] + (tuple(inner[before:n - after]),) + inner[n - after:]

    def _item_kinds(self, value):
        """Per item of tuple display ``value``: NumPy scalar?  (A nested display:
        a tuple of its items' answers.)"""
        return tuple(self._item_kinds(x) if isinstance(x, N.MakeTuple) else self.is_strong(x)
                     for x in value.items)

    def is_strong(self, e) -> bool:
        """Is scalar expression ``e`` a NumPy scalar rather than a Python number?
        NumPy 2 (NEP 50) lets a Python int/float/complex operand adapt to an
        array's dtype (``uint8_array + 1`` stays uint8) but promotes with a NumPy
        scalar's own dtype (``uint8_array + a[0]`` of an int64 ``a`` is int64).
        Array elements and NumPy functions' results are NumPy scalars, and so is
        arithmetic involving one; a variable is one if any assignment makes it one,
        and so is a parameter passed one; so is a scalar of int8, float32 ..."""
        t = getattr(e, "type", None)
        if isinstance(t, T.Scalar) and t not in T.PYTHON_KINDS:
            return True
        if isinstance(e, N.Var):
            return e.name in self.strong_vars and e.name not in self.mixed
        if isinstance(e, N.PyGetItem):
            if e.items_like is not None:
                return e.items_like in self.strong_vars and e.items_like not in self.mixed
            vt = getattr(e.value, "type", None)
            return isinstance(vt, T.ArrayType) or (
                isinstance(vt, T.TupleType) and self.is_strong(e.value))
        if isinstance(e, N.PyBinOp):
            if e.numpy_semantics is not None:           # (decided when typed)
                return e.numpy_semantics
            if any(isinstance(getattr(o, "type", None), T.ArrayType)
                   for o in (e.left, e.right)):
                return True                 # a scalar from arrays: ``v @ w`` of 1-D
            return self.is_strong(e.left) or self.is_strong(e.right)
        if isinstance(e, N.PyUnOp):
            return e.op != "not" and self.is_strong(e.operand)
        if isinstance(e, N.PyCompare):
            # ``in`` always gives a Python bool; a chain gives the result of its
            # first false pair or its last one: a NumPy bool when every pair is
            # one, else (the static rule) the last pair's kind
            pairs = [op not in ("in", "notin") and (
                self.is_strong(e.operands[k]) or self.is_strong(e.operands[k + 1]))
                for k, op in enumerate(e.ops)]
            strong = all(pairs) or pairs[-1]
            return strong and not numpy_results.complex_equality(e, self.is_strong)
        if isinstance(e, N.PyBoolOp):
            return any(self.is_strong(v) for v in e.values)
        if isinstance(e, N.PyIfExp):
            return self.is_strong(e.a) or self.is_strong(e.b)
        if isinstance(e, N.TupleGet):
            if isinstance(e.tup, N.MakeTuple) and e.index < len(e.tup.items):
                return self.is_strong(e.tup.items[e.index])
            items = self.strong_items.get(e.tup.name) if isinstance(e.tup, N.Var) else None
            if items is not None and e.index < len(items):
                return _any(items[e.index])
            return self.is_strong(e.tup)
        if isinstance(e, N.PyAttr) and hasattr(e, "const_value"):
            return type(e.const_value) is not int     # finfo's NumPy floats
        if isinstance(e, N.PyAttr):       # x.real, x.imag of a NumPy scalar (an
            # array's ndim, size ... are Python ints, of ``v[1:]`` too)
            return not isinstance(getattr(e.value, "type", None), T.ArrayType) \
                and self.is_strong(e.value)
        if isinstance(e, N.MakeTuple):
            return any(self.is_strong(i) for i in e.items)
        if isinstance(e, N.PyCall):
            callee = e.callee
            spec = getattr(e, "spec", None)
            if spec is not None:            # a compiled callee: a NumPy scalar when
                fn = spec.fn                # every return of it gives one, always
                if spec.state == "done" and fn is not None and \
                        getattr(fn, "flagged_result", None) is not None:
                    return True     # on some calls (uncertain_kinds: of either kind)
                return spec.state == "done" and fn is not None and isinstance(
                    getattr(fn, "numpy_result", None), T.NumpyScalarArg)
            like = getattr(callee, "hj_like", None)
            if like is not None:            # a dict's key or value (lib/python/dicts)
                name = e.args[like].obj
                return name in self.strong_vars and name not in self.mixed
            if isinstance(callee, Method):
                if callee.name in ("is_integer", "item", "bit_length"):   # Python numbers
                    return False
                if isinstance(getattr(e.args[0], "type", None), T.GeneratorType):
                    return numpy_results.random_draw_is_numpy(callee.name, e.args[1:],
                                                               e.kwargs)
                return any(isinstance(getattr(a, "type", None), T.ArrayType)
                           for a in e.args[:1]) or self.is_strong(e.args[0])
            if isinstance(callee, Unpack):      # ``x, y = a``: an array's items
                return any(self.is_strong(a) or isinstance(getattr(a, "type", None),
                                                             T.ArrayType) for a in e.args)
            if callee is registry.flat_callables()[0]:
                return True                     # ``a.flat[i]``, ``for v in a.flat``: an item
            if callee in (min, max) and e.args and isinstance(
                    getattr(e.args[0], "type", None), T.ArrayType):
                return True                     # an array's item
            if callee in (abs, min, max, divmod, pow):
                return any(self.is_strong(a) for a in e.args)
            if callee is round:     # round(x, n) keeps x's NumPy type; round(x) an int
                return e.plan == "numpy"            # (decided when typed)
            if getattr(callee, "__module__", "") == registry.parallel_runtime().__name__ and \
                    getattr(callee, "__name__", "").startswith("ident_"):
                return self.is_strong(e.args[1])   # as the reduction variable is
            if numpy_results.python_number(e, {}):
                return False            # np.allclose, np.array_equal: Python bools
            mod = getattr(callee, "__module__", None) or ""
            if mod == "numpy.random":
                name = getattr(callee, "__name__", "")
                return numpy_results.random_draw_is_numpy(name, e.args, e.kwargs)
            return mod == "numpy" or mod.startswith("numpy.") or \
                type(callee).__name__ == "ufunc" or \
                type(getattr(callee, "__self__", None)).__name__ == "ufunc"  # np.add.reduce
        return False

    def mark_weak(self, e, t) -> None:
        """Record on operand ``e`` of type ``t`` whether it is a Python number
        (``py_weak``, read by ``rules.arith_operands``)."""
        e.py_weak = isinstance(t, T.Scalar) and t in T.PYTHON_KINDS \
            and not self.is_strong(e)

    def weak(self, e) -> bool:
        """A Python number (see :meth:`is_strong`) -- when a scalar at all."""
        return not self.is_strong(e)


def _any(kinds) -> bool:
    """Is any leaf of an item's answer (a bool, or nested tuples of them) true?"""
    return any(_any(k) for k in kinds) if isinstance(kinds, tuple) else bool(kinds)


def _merged(old, new):
    """Two assignments' answers joined leaf by leaf (True where either is), or
    None where their shapes differ."""
    if isinstance(old, tuple) and isinstance(new, tuple):
        if len(old) != len(new):
            return None
        out = tuple(_merged(a, b) for a, b in zip(old, new))
        return None if any(x is None for x in out) else out
    if isinstance(old, tuple) or isinstance(new, tuple):
        return None
    return old or new

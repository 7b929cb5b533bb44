"""The compiled-only calls of a growable list (``frontend/growable_lists.py``): a
list local is a buffer array with spare room (``$lb_<name>``), a count of its
items (``$ln_<name>``) and a local every item passes through (``$li_<name>``),
whose type -- the join of every item put in -- is the buffer's dtype.

``list_new(item)`` makes the empty buffer of the item local's type without
reading it (it may be unbound), and checks that every item put in has one kind:
a list holding ``1`` and ``2.5`` (or ``2.5`` and ``np.float64(2.5)``) keeps
items of two types, which one buffer does not, so the function falls back.  The
other calls run the Python source of ``growable_list_algorithms.py``."""
from __future__ import annotations

from ...ir import nodes as N
from ...ir import types as T
from ...typing_rules import Incompatible
from ..arrays.creation import allocate
from ..python.operators import C
from ..registry import CallTemplate, CompiledOnly, register
from . import growable_list_algorithms as alg

list_new = CompiledOnly("list_new")
list_grow = CompiledOnly("list_grow")
list_insert = CompiledOnly("list_insert")
item_index = CompiledOnly("list_item_index")
store_index = CompiledOnly("list_store_index")
pop_index = CompiledOnly("list_pop_index")
remove_at = CompiledOnly("list_remove_at")
list_reverse = CompiledOnly("list_reverse")
list_index = CompiledOnly("list_index")
list_count = CompiledOnly("list_count")
remove_index = CompiledOnly("list_remove_index")
list_contains = CompiledOnly("list_contains")
list_array = CompiledOnly("list_array")
list_compare = CompiledOnly("list_compare")
repeat_count = CompiledOnly("list_repeat_count")

_PY = {T.INT64: "int", T.FLOAT64: "float", T.BOOL: "bool", T.COMPLEX128: "complex"}


def _kind(t, strong) -> str:
    return f"NumPy {t}" if strong or t not in _PY else _PY[t]


@register
class ListNew(CallTemplate):
    paths = ("hanajit.lib.python.growable_lists.list_new",)

    def typer(self, inf, call, args, kwargs):
        (t,) = args
        item = call.args[0]
        kinds = inf.assigned.get(getattr(item, "name", None), set())
        if len(kinds) > 1:
            words = " and ".join(sorted({_kind(k, s) for k, s in kinds}))
            raise Incompatible(f"its items are of different kinds ({words}), which one "
                               "compiled list does not hold")
        if isinstance(t, T.TupleType):
            raise Incompatible(f"its items are {t}; a compiled list holds numbers, and a "
                               "list of tuples only where it is appended to, popped or "
                               "indexed into names, looped over, measured by len() or "
                               "tested for truth (not returned, passed on or sorted)")
        if not isinstance(t, T.Scalar):
            raise Incompatible(f"its items are {t}; a compiled list holds numbers")
        return T.ArrayType(t, 1, "C")

    def lower(self, L, call, args, kwargs):
        return allocate(L, call.type, [C(0, T.INT64)])


def _buffer(t):
    if not (isinstance(t, T.ArrayType) and t.ndim == 1):
        raise Incompatible("a list's buffer")


def _int(t, what, inf=None, node=None):
    if not (isinstance(t, T.Scalar) and (t.is_int or t.is_bool)):
        raise Incompatible(f"list {what} must be integers, not {t}")
    if t.is_bool and inf is not None and inf.is_strong(node):
        raise Incompatible(f"a NumPy bool as one of the list {what} (Python raises "
                           "TypeError)")


class _Helper(CallTemplate):
    """A call of ``helper`` on the lowered arguments."""
    helper = None

    def lower(self, L, call, args, kwargs):
        return L.call_helper(type(self).helper, list(args))


@register
class ListGrow(_Helper):
    paths = ("hanajit.lib.python.growable_lists.list_grow",)
    helper = alg.grown

    def typer(self, inf, call, args, kwargs):
        _buffer(args[0])
        return args[0]


@register
class ListInsert(_Helper):
    paths = ("hanajit.lib.python.growable_lists.list_insert",)
    helper = alg.insert

    def typer(self, inf, call, args, kwargs):
        _buffer(args[0])
        _int(args[2], "insert() indices", inf, call.args[2])
        return args[0]


class _Index(_Helper):
    what = "indices"

    def typer(self, inf, call, args, kwargs):
        _int(args[1], self.what, inf, call.args[1])
        return T.INT64


@register
class ItemIndex(_Index):
    paths = ("hanajit.lib.python.growable_lists.item_index",)
    helper = alg.item_index


@register
class StoreIndex(_Index):
    paths = ("hanajit.lib.python.growable_lists.store_index",)
    helper = alg.store_index


@register
class PopIndex(_Index):
    paths = ("hanajit.lib.python.growable_lists.pop_index",)
    helper = alg.pop_index
    what = "pop() indices"


@register
class RemoveAt(_Helper):
    paths = ("hanajit.lib.python.growable_lists.remove_at",)
    helper = alg.remove_at

    def typer(self, inf, call, args, kwargs):
        return T.INT64


@register
class ListReverse(_Helper):
    paths = ("hanajit.lib.python.growable_lists.list_reverse",)
    helper = alg.reverse

    def typer(self, inf, call, args, kwargs):
        return T.INT64


class _Lookup(CallTemplate):
    """``x in out``, ``out.index(x)``, ``out.count(x)``: ``x`` of the items' own
    type (a list compares with ``==`` of Python objects, which differs from
    NumPy's promotion between other types: ``2**53 + 1 == 2.0**53``)."""
    result = T.INT64

    def typer(self, inf, call, args, kwargs):
        _buffer(args[0])
        if args[2] != args[0].dtype and not _exact_int(call.args[2], args[0].dtype):
            raise Incompatible(f"looking up a {args[2]} in a list of {args[0].dtype} items "
                               "(Python compares them otherwise than NumPy)")
        call.numpy_item = inf.is_strong(call.args[2])
        return self.result


def _exact_int(e, dtype) -> bool:
    """Is ``e`` an int constant that ``dtype`` (a float) holds exactly, so that
    NumPy's comparison with it is Python's (``3 in out`` of floats)?"""
    v = getattr(e, "value", None) if isinstance(e, N.Const) else None
    return type(v) is int and dtype.is_float and not dtype.is_complex and \
        abs(v) <= 2 ** {16: 11, 32: 24}.get(dtype.bits, 53)


def _same(L, args):
    """The lookup's arguments, the value as the items' type (``_exact_int``)."""
    dt = args[0].type.dtype
    if args[2].type == dt:
        return list(args)
    from .operators import convert
    return [args[0], args[1], convert(L, args[2], dt)] + list(args[3:])


@register
class ListIndex(_Lookup):
    paths = ("hanajit.lib.python.growable_lists.list_index",)

    def typer(self, inf, call, args, kwargs):
        for t in args[3:]:      # out.index(x, start[, stop])
            if not (isinstance(t, T.Scalar) and (t.is_int or t == T.BOOL)):
                raise Incompatible(f"list.index() with a start or stop of type {t} "
                                   "(Python raises TypeError)")
        if any(t == T.UINT64 for t in args[3:]):
            raise Incompatible("list.index() with a uint64 start or stop")
        return super().typer(inf, call, args, kwargs)

    def lower(self, L, call, args, kwargs):
        args = _same(L, args)
        python_int = args[2].type == T.INT64 and not getattr(call, "numpy_item", True)
        if len(args) == 3:
            return L.call_helper(alg.index if python_int else alg.index_other, list(args))
        from .operators import convert
        bounds = [convert(L, a, T.INT64) for a in args[3:]] + [args[1]]
        return L.call_helper(alg.index_between if python_int else alg.index_other_between,
                             args[:3] + bounds[:2])


@register
class ListCount(_Lookup):
    paths = ("hanajit.lib.python.growable_lists.list_count",)

    def lower(self, L, call, args, kwargs):
        return L.call_helper(alg.count, _same(L, args))


@register
class RemoveIndex(_Lookup):
    paths = ("hanajit.lib.python.growable_lists.remove_index",)

    def lower(self, L, call, args, kwargs):
        return L.call_helper(alg.remove_index, _same(L, args))


@register
class ListContains(_Lookup):
    paths = ("hanajit.lib.python.growable_lists.list_contains",)
    result = T.BOOL

    def lower(self, L, call, args, kwargs):
        return L.call_helper(alg.contains, _same(L, args))


@register
class ListArray(CallTemplate):
    paths = ("hanajit.lib.python.growable_lists.list_array",)

    def typer(self, inf, call, args, kwargs):
        _buffer(args[0])
        return T.ArrayType(args[0].dtype, 1, "C")

    def lower(self, L, call, args, kwargs):
        f = alg.to_array if args[0].type.dtype == T.FLOAT64 else alg.to_array_float
        return L.call_helper(f, list(args))


@register
class ListCompare(CallTemplate):
    """``a == b``, ``a < b`` ... of two lists (``op`` a constant: 0 ``==`` ... 5
    ``>=``): items of one type, or of types NumPy compares as Python does (an int
    and a float: checked for ints beyond 2**53 at run time); complex items only
    for ``==``/``!=``."""
    paths = ("hanajit.lib.python.growable_lists.list_compare",)

    def typer(self, inf, call, args, kwargs):
        _buffer(args[0])
        _buffer(args[2])
        a, b = args[0].dtype, args[2].dtype
        op = getattr(call.args[4], "value", 0)
        ints = [t for t in (a, b) if t.is_int or t.is_bool]
        if (a.is_complex or b.is_complex) and op > 1:
            raise Incompatible("ordering lists of complex numbers")
        if T.UINT64 in (a, b) and (a.is_signed or b.is_signed):
            raise Incompatible(f"comparing lists of {a} and {b} items (NumPy compares "
                               "them as floats)")
        call.check_big = len(ints) == 1 and any(t.bits == 64 for t in ints)
        call.numpy_items = any(inf.is_strong(N.Var(name)) for name in
                               getattr(call, "hj_items", ()))
        return T.BOOL

    def lower(self, L, call, args, kwargs):
        return L.call_helper(alg.compare, list(args) + [
            C(bool(getattr(call, "check_big", False)), T.BOOL),
            C(bool(getattr(call, "numpy_items", True)), T.BOOL)])


@register
class RepeatCount(CallTemplate):
    """``k`` of ``out * k``: an int (Python raises TypeError for others), at
    least 0."""
    paths = ("hanajit.lib.python.growable_lists.repeat_count",)

    def typer(self, inf, call, args, kwargs):
        _int(args[0], "repetition counts (list * k)", inf, call.args[0])
        if args[0] == T.UINT64:
            raise Incompatible("a uint64 repetition count of a list")
        return T.INT64

    def lower(self, L, call, args, kwargs):
        from .operators import convert
        return L.call_helper(alg.repeat_count, [convert(L, args[0], T.INT64)])

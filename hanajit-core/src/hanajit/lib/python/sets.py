"""The operations of a set local of numbers (``frontend/set_locals.py`` rewrites
``s = set()``, ``s.add(v)``, ``v in s``, ``for v in s`` ... into calls of these
markers on the set's hidden arrays), typed here and computed by
``set_algorithms``.

The elements are one scalar type and kind (Python number or NumPy scalar), as
every element added is first assigned to the carrier ``$s_k``: an integer (not
bool, not uint64) or a float (float32 or float64), as dict keys
(``dicts.key_problem``).  A marker's ``like`` is the position of the carrier's
name: the element it gives is a NumPy scalar where those added are.
"""
from __future__ import annotations

from ...ir import nodes as N
from ...ir import types as T
from ...typing_rules import Incompatible
from ..registry import register
from .dicts import DictOp, DictTemplate, check_kinds, key_error, key_problem, mark_key
from .operators import C

_OPS = {}


def op(name, like=None):
    _OPS[name] = DictOp("set_" + name, like)
    return _OPS[name]


new = op("new")                 # (element carrier,) -> (K, I, S)
add = op("add")                 # (K, I, S, v) -> the table must grow
grow = op("grow")               # (K, I, S) -> (K, I)
find = op("find")               # (K, I, S, v) -> slot or -1
discard = op("discard")         # (K, I, S, v) -> slot or -1
remove = op("remove")           # (K, I, S, v) -> slot, KeyError
pop = op("pop")                 # (I, S) -> slot emptied, KeyError
clear = op("clear")             # (K, I, S) -> (K, I)
length = op("len")              # (S,) -> len
next_slot = op("next")          # (I, S, pos, used0) -> slot or -1
key_at = op("key_at", 2)        # (K, slot, kname) -> K[slot]
empty_sum = op("empty_sum")     # (S,) -> re-run in the interpreter when empty
result = op("result")           # (K, I, S, kname, "set"/"frozenset") -> the caller's set
# operators (set_operations), ``a`` ``b`` each (K, I, S), ``names`` the carriers
copy = op("copy")               # (a, names...) -> (K, I, S)
intersection = op("intersection")   # (a, b, names...) -> (K, I, S)
difference = op("difference")       # (a, b, names...) -> (K, I, S)
symmetric_difference = op("symmetric_difference")   # (a, b, names...) -> (K, I, S)
merge = op("merge")             # (a, b, names...) -> a's new (K, I)
difference_update = op("difference_update")     # (a, b, names...) -> (K, I)
symmetric_difference_update = op("symmetric_difference_update")     # -> (K, I)
adopt = op("adopt")             # (S, S2) -> 0: S takes S2's table sizes
compare = op("compare")         # (a, b, op) -> bool (op: set_operations.compare)
isdisjoint = op("isdisjoint")   # (a, b) -> bool


def markers() -> dict:
    """``{name: marker}`` of the operations (the frontend's injected names)."""
    return dict(_OPS)


def _alg():
    from . import set_algorithms
    return set_algorithms


def _arr(t):
    return T.ArrayType(t, 1, "C")


def _fl(K):
    return C(K.type.dtype.is_float, T.BOOL)


def _t_new(inf, call, args):
    kn = call.args[0].obj
    kt = inf.locals.get(kn)
    if kt is None:
        if inf.strict:
            raise Incompatible("a set to which no element is ever added")
        return None
    if not isinstance(kt, T.Scalar):
        raise Incompatible(f"a set of {kt} elements (numbers only)")
    problem = key_problem(kt)
    if problem:
        raise Incompatible(f"a set with {problem.replace('keys', 'elements')}")
    if inf.strict:
        check_kinds(inf, kn, "elements", "set")
    return T.TupleType((_arr(kt), _arr(T.INT64), _arr(T.INT64)))


def _l_new(L, call, args):
    from ..arrays.creation import allocate
    kt, it, st = call.type.items
    K = allocate(L, kt, [C(8, T.INT64)])
    Ix = allocate(L, it, [C(16, T.INT64)])
    S = allocate(L, st, [C(4, T.INT64)])
    L.call_helper(_alg().init, [Ix, S, C(0, T.INT64)])
    return N.MakeTuple([K, Ix, S], call.type)


def _t_key(inf, call, args):
    K, Ix, S, key = args
    problem = key_problem(key) if isinstance(key, T.Scalar) else f"{key}"
    if problem:
        raise Incompatible(f"a set looked up with {problem.replace('keys', 'elements')}")
    if K.dtype.is_float != key.is_float:
        raise Incompatible(f"a set of {K.dtype} elements looked up with a {key} (an int "
                           "and a float are compared exactly in Python)")
    mark_key(inf, call, 3)
    return T.INT64


def _t_add(inf, call, args):
    K, Ix, S, key = args
    if inf.strict and key != K.dtype:
        raise Incompatible(f"a {key} added to a set of {K.dtype} elements")
    return T.BOOL


def _helper(name, flagged=True):
    def lower(L, call, args):
        extra = [_fl(args[0])] if flagged else []
        return L.call_helper(getattr(_alg(), name), list(args) + extra)
    return lower


def _t_table(inf, call, args):
    return T.TupleType((args[0], args[1]))


def _l_remove(L, call, args):
    K, Ix, S, key = args
    pos = L.let(L.call_helper(_alg().discard, [K, Ix, S, key, _fl(K)]))
    key_error(L, call, pos, key)
    return pos


def _l_pop(L, call, args):
    Ix, S = args
    n = L.call_helper(_alg().used, [S])
    L.emit(N.If(cond=N.Cmp("eq", n, C(0, T.INT64), T.BOOL), then=[N.Raise(
        exc=KeyError, message="pop from an empty set")]))
    return L.call_helper(_alg().pop, [Ix, S])


def _l_empty_sum(L, call, args):
    """``sum(s)`` of an empty set is the int 0 whatever the elements: the call
    re-runs in the interpreter (compiled, the sum has the elements' type); one that
    wrote into its arguments or drew random numbers falls back (UnsupportedError)."""
    n = L.call_helper(_alg().used, [args[0]])
    L.emit(N.If(cond=N.Cmp("eq", n, C(0, T.INT64), T.BOOL), then=[N.Raise(
        exc=TypeError, deopt=True, message="sum() of an empty set (the int 0)")]))
    return C(0, T.INT64)


def _t_result(inf, call, args):
    """A set the caller gets: its arrays and flags (1: its elements are NumPy
    scalars, 2: a frozenset), typed as a named tuple the dispatchers box by calling
    ``hanajit.host_sets.set_of_table`` (a Python set with this table)."""
    K, Ix, S = args[:3]
    if not inf.ctx.capabilities.host_calls or inf.ctx.options.get("c_exports"):
        raise Incompatible("a set handed to the caller is a Python set, which code "
                           "running outside Python (this target, an export or a plain "
                           "C function) cannot make")
    kn = call.args[3].obj
    call.plan = int(bool(inf.is_strong(N.Var(kn, inf.locals.get(kn))))) | \
        (2 if call.args[4].obj == "frozenset" else 0)
    return T.NamedTupleType((K, Ix, S, T.INT64), name="set_of_table",
                            module="hanajit.host_sets")


def _l_result(L, call, args):
    return N.MakeTuple(list(args[:3]) + [C(call.plan, T.INT64)], call.type)


def _same_elements(inf, call, args, n):
    """The ``n`` sets' element types agree (the carriers named after them the
    same kind)."""
    ks = [args[3 * i].dtype for i in range(n)]
    if any(k != ks[0] for k in ks):
        raise Incompatible("a set operation between sets of "
                           + " and ".join(sorted({str(k) for k in ks})) + " elements")
    if inf.strict:
        for a in call.args[3 * n:]:
            if isinstance(getattr(a, "obj", None), str):
                check_kinds(inf, a.obj, "elements", "set")


def _t_made(n):
    def typer(inf, call, args):
        _same_elements(inf, call, args, n)
        return T.TupleType((args[0], _arr(T.INT64), _arr(T.INT64)))
    return typer


def _t_updated(inf, call, args):
    _same_elements(inf, call, args, 2)
    return T.TupleType((args[0], args[1]))


def _t_bool(inf, call, args):
    _same_elements(inf, call, args, 2)
    return T.BOOL


def _ops():
    from . import set_operations
    return set_operations


def _op_helper(name, n):
    def lower(L, call, args):
        return L.call_helper(getattr(_ops(), name), list(args[:3 * n]) + [_fl(args[0])])
    return lower


def _l_compare(L, call, args):
    return L.call_helper(_ops().compare, list(args[:6]) + [_fl(args[0]), args[6]])


def _int(inf, call, args):
    return T.INT64


def _element(inf, call, args):
    return args[0].dtype


for _m, _t, _l in (
        (new, _t_new, _l_new), (add, _t_add, _helper("add")),
        (grow, _t_table, _helper("grow", False)), (find, _t_key, _helper("find")),
        (discard, _t_key, _helper("discard")), (remove, _t_key, _l_remove),
        (pop, _int, _l_pop), (clear, _t_table, _helper("clear", False)),
        (length, _int, _helper("used", False)),
        (next_slot, _int, _helper("next_slot", False)), (empty_sum, _int, _l_empty_sum),
        (result, _t_result, _l_result),
        (key_at, _element, lambda L, call, args: L.call_helper(_alg().item, list(args[:2]))),
        (copy, _t_made(1), _op_helper("copy", 1)),
        (intersection, _t_made(2), _op_helper("intersection", 2)),
        (difference, _t_made(2), _op_helper("difference", 2)),
        (symmetric_difference, _t_made(2), _op_helper("symmetric_difference", 2)),
        (merge, _t_updated, _op_helper("merge", 2)),
        (difference_update, _t_updated, _op_helper("difference_update", 2)),
        (symmetric_difference_update, _t_updated,
         _op_helper("symmetric_difference_update", 2)),
        (adopt, _int, lambda L, call, args: L.call_helper(_ops().adopt, list(args))),
        (compare, _t_bool, _l_compare), (isdisjoint, _t_bool, _op_helper("isdisjoint", 2))):
    _name = next(k for k, v in list(globals().items()) if v is _m)
    register(DictTemplate(f"{__name__}.{_name}", _t, _l))

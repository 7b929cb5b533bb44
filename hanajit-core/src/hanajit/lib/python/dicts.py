"""The operations of a dict local of numbers (``frontend/dict_locals.py`` rewrites
``d = {}``, ``d[k] = v``, ``d[k]``, ``k in d`` ... into calls of these markers on
the dict's hidden arrays), typed here and computed by ``dict_algorithms``.

A marker's ``like`` is the position of its argument naming the local whose
assignments carry the dict's keys (or values): the item it gives is a NumPy scalar
where those are (``infer/scalar_kinds.is_strong``).  A key type is an integer
(not bool, not uint64) or a float, one type and kind (Python number or NumPy
scalar) for every key stored; values are one scalar type and kind likewise.
"""
from __future__ import annotations

from ...errors import RERUN
from ...ir import nodes as N
from ...ir import types as T
from ...typing_rules import Incompatible
from ..registry import CallTemplate, CompiledOnly, register
from .operators import C, convert_wrap


class DictOp(CompiledOnly):
    """A dict operation only compiled code calls; ``like``: see the module."""

    def __init__(self, name, like=None):
        super().__init__(name)
        self.hj_like = like


_OPS = {}


def op(name, like=None):
    _OPS[name] = DictOp("dict_" + name, like)
    return _OPS[name]



new = op("new")                 # (key carrier, value carrier, n) -> (K, V, I, S)
room = op("room")               # (K, I, S, key) -> a resize is needed first
resize = op("resize")           # (K, V, I, S) -> (K, V, I)
put = op("put")                 # (K, V, I, S, key, value) -> entry (S[4] = entry)
find = op("find")               # (K, I, S, key) -> entry or -1 (S[4] = entry)
getitem = op("getitem", 5)      # (K, V, I, S, key, vname) -> value, KeyError
last = op("last", 2)            # (V, S, vname) -> V[S[4]]
take = op("take", 4)            # (K, V, I, S, vname) -> V[S[4]], removed
pop = op("pop", 5)              # (K, V, I, S, key, vname) -> value removed, KeyError
delete = op("delete")           # (K, I, S, key) -> KeyError or removed
length = op("len")              # (S,) -> len
key_at = op("key_at", 2)        # (K, pos, kname) -> K[pos]
value_at = op("value_at", 2)    # (V, pos, vname) -> V[pos]
next_entry = op("next")         # (I, S, pos, used0, left) -> entry or -1
sum_values = op("sum", 3)       # (V, I, S, vname) -> sum(d.values())
argmax = op("argmax", 4)        # (K, V, I, S, kname) -> max(d, key=d.get)
argmin = op("argmin", 4)        # (K, V, I, S, kname) -> min(d, key=d.get)
result = op("result")           # (K, V, I, S) -> (keys, values) for the caller
popitem = op("popitem")         # (K, I, S) -> entry removed (S[4]), KeyError
merge = op("merge")             # (K, V, I, S, K2, V2, I2, S2) -> (K, V, I): update
copy_merge = op("copy_merge")   # (K, V, I, S, K2, V2, I2, S2) -> (K, V, I): copy()


def markers() -> dict:
    """``{name: marker}`` of the operations (the frontend's injected names)."""
    return dict(_OPS)


def _alg():
    from . import dict_algorithms
    return dict_algorithms


def _is_float_key(t) -> bool:
    return isinstance(t, T.Scalar) and t.is_float


def key_problem(t) -> str:
    if not isinstance(t, T.Scalar) or t.is_complex:
        return f"keys of type {t} (numbers only: ints and floats)"
    if t.is_bool:
        return "bool keys (True is the key 1 in Python)"
    if t.is_int and not t.is_signed and t.bits == 64:
        return "uint64 keys"
    if t.is_float and t.bits < 32:
        return f"{t} keys"
    return ""


def _python_name(t) -> str:
    return "bool" if t.is_bool else "int" if t.is_int else \
        "float" if t.is_float else "complex"


def check_kinds(inf, name, what, container="dict") -> None:
    """Incompatible when the items stored through local ``name`` differ in kind
    (also a set's: ``sets.py``)."""
    kinds = inf.assigned.get(name, set())
    if len(kinds) > 1:
        words = sorted(f"NumPy {t}" if strong else f"Python {_python_name(t)}"
                       for t, strong in kinds)
        raise Incompatible(f"a {container} holding {what} of different kinds ("
                           + ", ".join(words) + f"), as a Python {container} can")


class DictTemplate(CallTemplate):
    def __init__(self, path, typer, lower):
        self._typer, self._lower = typer, lower
        self.paths = (path,)

    def typer(self, inf, call, args, kwargs):
        return self._typer(inf, call, args)

    def lower(self, L, call, args, kwargs):
        return self._lower(L, call, args)


def _arr(t, dtype=None):
    return T.ArrayType(dtype or t.dtype, 1, "C")


def _t_new(inf, call, args):
    kn, vn = call.args[0].obj, call.args[1].obj
    kt, vt = inf.locals.get(kn), inf.locals.get(vn)
    if kt is None or vt is None:
        if inf.strict:
            raise Incompatible("a dict into which no key is ever stored")
        return None
    problem = key_problem(kt)
    if problem:
        raise Incompatible(f"a dict with {problem}")
    if not isinstance(vt, T.Scalar):
        raise Incompatible(f"a dict with values of type {vt} (numbers only)")
    if inf.strict:
        check_kinds(inf, kn, "keys")
        check_kinds(inf, vn, "values")
    return T.TupleType((_arr(None, kt), _arr(None, vt), _arr(None, T.INT64),
                        _arr(None, T.INT64)))


def _l_new(L, call, args):
    from ..arrays.creation import allocate
    alg = _alg()
    n = call.args[2].value
    isize = alg.presized(n)
    usable = isize * 2 // 3
    kt, vt, it, st = call.type.items
    K = allocate(L, kt, [C(usable, T.INT64)])
    V = allocate(L, vt, [C(usable, T.INT64)])
    Ix = allocate(L, it, [C(isize + usable, T.INT64)])
    S = allocate(L, st, [C(5, T.INT64)])
    L.call_helper(alg.init, [Ix, S, C(isize, T.INT64), C(usable, T.INT64)])
    return N.MakeTuple([K, V, Ix, S], call.type)


def _check_key(K, key):
    problem = key_problem(key)
    if problem:
        raise Incompatible(f"a dict looked up with {problem}")
    if K.dtype.is_float != key.is_float:
        raise Incompatible(f"a dict of {K.dtype} keys looked up with a {key} key (an int "
                           "and a float key are compared exactly in Python)")


def _t_room(inf, call, args):
    K, Ix, S, key = args
    if inf.strict and key != K.dtype:
        raise Incompatible(f"a {key} key stored into a dict of {K.dtype} keys")
    return T.BOOL


def _fl(K):
    return C(_is_float_key(K.type.dtype), T.BOOL)


def _l_room(L, call, args):
    K, Ix, S, key = args
    return L.call_helper(_alg().room, [K, Ix, S, key, _fl(K)])


def _t_resize(inf, call, args):
    K, V, Ix, S = args
    return T.TupleType((K, V, Ix))


def _l_resize(L, call, args):
    K, V, Ix, S = args
    return L.call_helper(_alg().resize, [K, V, Ix, S, _fl(K)])


def _l_put(L, call, args):
    K, V, Ix, S, key, value = args
    return L.call_helper(_alg().put, [K, V, Ix, S, key, value, _fl(K)])


def _t_find(inf, call, args):
    K, Ix, S, key = args
    _check_key(K, key)
    return T.INT64


def _found(L, K, Ix, S, key):
    return L.let(L.call_helper(_alg().find, [K, Ix, S, key, _fl(K)]))


def _l_find(L, call, args):
    return _found(L, *args)


def mark_key(inf, call, index):
    """Remember on ``call`` whether its key (``call.args[index]``) is a Python int
    (:func:`key_error` can then raise CPython's KeyError itself)."""
    key = call.args[index]
    t = getattr(key, "type", None)
    call.hj_python_int_key = isinstance(t, T.Scalar) and not t.is_float \
        and not inf.is_strong(key)


def key_error(L, call, pos, key):
    """CPython's KeyError, re-raised by the interpreter re-running the call (its
    argument is the key itself).  Where the call cannot be re-run (it wrote into an
    array argument or drew random numbers) a Python int key (:func:`mark_key`) is
    carried as a value field, ``KeyError(k)`` as CPython's; for a float or NumPy
    scalar key, which compiled code cannot give the exception as that object, a
    pure call re-runs in the interpreter (``RERUN``), one that cannot raises the
    KeyError with the key's value (``KeyError(101)`` for ``np.int64(101)``)."""
    args, message = [], "a float key the dict does not hold"
    if not key.type.is_float:
        args = [convert_wrap(key, T.INT64)]
        message = "{=u}" if key.type == T.UINT64 else "{=}"
    deopt = False if getattr(call, "hj_python_int_key", False) else RERUN
    L.emit(N.If(cond=N.Cmp("lt", pos, C(0, T.INT64), T.BOOL), then=[N.Raise(
        exc=KeyError, deopt=deopt, message=message, args=args)]))


def _t_getitem(inf, call, args):
    K, V, Ix, S, key, _ = args
    _check_key(K, key)
    mark_key(inf, call, 4)
    return V.dtype


def _l_getitem(L, call, args):
    K, V, Ix, S, key, _ = args
    pos = _found(L, K, Ix, S, key)
    key_error(L, call, pos, key)
    return L.call_helper(_alg().item, [V, pos])


def _l_last(L, call, args):
    V, S, _ = args
    return L.call_helper(_alg().last, [V, S])


def _l_take(L, call, args):
    K, V, Ix, S, _ = args
    return L.call_helper(_alg().take, [K, V, Ix, S, _fl(K)])


def _l_pop(L, call, args):
    K, V, Ix, S, key, _ = args
    pos = _found(L, K, Ix, S, key)
    key_error(L, call, pos, key)
    return L.call_helper(_alg().take, [K, V, Ix, S, _fl(K)])


def _t_delete(inf, call, args):
    K, Ix, S, key = args
    _check_key(K, key)
    mark_key(inf, call, 3)
    return T.INT64


def _l_delete(L, call, args):
    K, Ix, S, key = args
    pos = _found(L, K, Ix, S, key)
    key_error(L, call, pos, key)
    L.call_helper(_alg().remove, [K, Ix, S, pos, _fl(K)])
    return pos


def _l_len(L, call, args):
    return L.call_helper(_alg().used, [args[0]])


def _l_item(L, call, args):
    return L.call_helper(_alg().item, [args[0], args[1]])


def _l_next(L, call, args):
    return L.call_helper(_alg().next_entry, list(args))


def _t_sum(inf, call, args):
    V = args[0]
    if V.dtype not in (T.INT64, T.FLOAT64):
        raise Incompatible(f"sum(d.values()) of {V.dtype} values (int64 and float64 only)")
    return V.dtype


def _l_sum(L, call, args):
    return L.call_helper(_alg().sum_values, list(args[:3]))


def _t_argmax(inf, call, args):
    V = args[1]
    if V.dtype.is_complex:
        raise Incompatible("max()/min() of complex values (TypeError in Python)")
    return args[0].dtype


def _l_arg(which):
    def lower(L, call, args):
        K, V, Ix, S, _ = args
        pos = L.let(L.call_helper(getattr(_alg(), which + "_entry"), [V, Ix, S]))
        L.emit(N.If(cond=N.Cmp("lt", pos, C(0, T.INT64), T.BOOL), then=[N.Raise(
            exc=ValueError, message=which + "() arg is an empty sequence")]))
        return L.call_helper(_alg().item, [K, pos])
    return lower


def _t_result(inf, call, args):
    K, V, Ix, S = args
    return T.TupleType((K, V))


def _l_result(L, call, args):
    K, V, Ix, S = args
    alg = _alg()
    return N.MakeTuple([L.call_helper(alg.compact, [K, Ix, S]),
                        L.call_helper(alg.compact, [V, Ix, S])], call.type)


def _l_popitem(L, call, args):
    K, Ix, S = args
    n = L.call_helper(_alg().used, [S])
    L.emit(N.If(cond=N.Cmp("eq", n, C(0, T.INT64), T.BOOL), then=[N.Raise(
        exc=KeyError, message="popitem(): dictionary is empty")]))
    return L.call_helper(_alg().popitem, [K, Ix, S, _fl(K)])


def _t_merge(inf, call, args):
    K, V, Ix, S, K2, V2, _, _ = args
    if inf.strict and (K.dtype != K2.dtype or V.dtype != V2.dtype):
        raise Incompatible(f"a dict of {K.dtype} keys and {V.dtype} values copied or "
                           f"updated from one of {K2.dtype} keys and {V2.dtype} values")
    return T.TupleType((K, V, Ix))


def _l_merge(which):
    def lower(L, call, args):
        return L.call_helper(getattr(_alg(), which), list(args) + [_fl(args[0])])
    return lower


def _value_type(k):
    return lambda inf, call, args: args[k].dtype


def _int(inf, call, args):
    return T.INT64


for _m, _t, _l in (
        (new, _t_new, _l_new), (room, _t_room, _l_room), (resize, _t_resize, _l_resize),
        (put, _int, _l_put), (find, _t_find, _l_find),
        (getitem, _t_getitem, _l_getitem), (last, _value_type(0), _l_last),
        (take, _value_type(1), _l_take), (pop, _t_getitem, _l_pop),
        (delete, _t_delete, _l_delete), (length, _int, _l_len),
        (key_at, _value_type(0), _l_item), (value_at, _value_type(0), _l_item),
        (next_entry, _int, _l_next), (sum_values, _t_sum, _l_sum),
        (argmax, _t_argmax, _l_arg("max")), (argmin, _t_argmax, _l_arg("min")),
        (result, _t_result, _l_result), (popitem, _int, _l_popitem),
        (merge, _t_merge, _l_merge("merge")),
        (copy_merge, _t_merge, _l_merge("copy_merge"))):
    _name = next(k for k, v in list(globals().items()) if v is _m)
    register(DictTemplate(f"{__name__}.{_name}", _t, _l))

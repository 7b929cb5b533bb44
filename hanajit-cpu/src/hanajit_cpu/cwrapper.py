"""Calling the C-ABI entry wrapper (``hanajit.lowering.cabi``) from Python.

This is the portable call path (ctypes).
"""
from __future__ import annotations

import ctypes

from hanajit.ir import types as T
from hanajit.lowering.cabi import ENTRY, add_entry_wrapper, flat_kinds, ret_slots  # noqa: F401

from hanajit.lib.random.legacy_state import randomstate_offset

from .boxing import box_array


def make_runner(address: int, fn, raises: list, keepalive, fallback):
    """A Python callable running the wrapper at ``address`` through ctypes."""
    arg_leaves = [k for t in fn.arg_types for k in flat_kinds(t)]
    argtypes = [ctypes.c_double if k.is_float else ctypes.c_int64 for k in arg_leaves]
    cfunc = ctypes.CFUNCTYPE(ctypes.c_int32, ctypes.c_void_p, ctypes.c_void_p,
                             *argtypes)(address)
    rt = fn.return_type
    nret = max(1, ret_slots(rt))
    # bools are flattened too: ctypes refuses a NumPy bool (np.True_) for c_bool
    needs_flatten = any(not isinstance(t, T.Scalar) or t.is_complex or t.is_bool
                        for t in fn.arg_types)
    if getattr(fn, "writes_arrays", True) and any(
            _has_writeable_array(t) for t in fn.arg_types):
        fn.pure = False       # a deoptimised call could not be re-run
    if any(_has_generator(t) for t in fn.arg_types):
        fn.pure = False       # nor a call that has drawn from a generator
    masks = [k for k in arg_leaves]

    def flatten(args):
        out = []

        def go(v, t):
            if isinstance(t, T.ArrayType):
                out.append(_data_pointer(id(v) + 16).value)    # PyArrayObject.data
                out.extend(v.shape)
                out.extend(v.strides)
            elif isinstance(t, T.TupleType):
                for x, it in zip(v, t.items):
                    go(x, it)
            elif isinstance(t, T.NoneType):
                pass
            elif isinstance(t, T.PyRandomType):    # random.Random: its address
                out.extend((id(v), 0, 0, 0))
            elif isinstance(t, T.RandomStateType):  # its bitgen_t copy's address
                out.extend((id(v) + (randomstate_offset() or 0), 0, 0, 0))
            elif isinstance(t, T.GeneratorType):
                out.extend(generator_words(v))
            elif t.is_complex:
                out.append(v.real)
                out.append(v.imag)
            elif t.is_int and not t.is_signed:
                out.append(int(v) - (1 << 64) if int(v) >= (1 << 63) else int(v))
            elif t.is_bool:
                out.append(bool(v))
            else:
                out.append(v)
        for v, t in zip(args, fn.arg_types):
            go(v, t)
        return out

    def unbox(ints, doubles, args=()):
        pos = [0]

        def go(t):
            if isinstance(t, T.ArrayType):
                k = pos[0]
                pos[0] += 2 + 2 * t.ndim
                n = t.ndim
                return box_array(t, ints[k], ints[k + 1], tuple(ints[k + 2:k + 2 + n]),
                                 tuple(ints[k + 2 + n:k + 2 + 2 * n]), args)
            if isinstance(t, T.TupleType):
                return tuple(go(i) for i in t.items)
            if isinstance(t, T.StrArg):
                return t.value              # a str constant (infer/str_params.py)
            if isinstance(t, T.NoneType):
                return None
            if t.is_complex:
                return complex(go(t.component), go(t.component))
            k = pos[0]
            pos[0] += 1
            if t.is_float:
                return doubles[k]
            if t.is_bool:
                return bool(ints[k])
            v = ints[k]
            if not t.is_signed and v < 0:
                v += 1 << 64
            return v
        return go(rt)

    unsigned_args = any(k.is_int and not k.is_signed for k in masks)
    need_flat = needs_flatten or unsigned_args
    simple_ret = isinstance(rt, T.Scalar) and not rt.is_complex

    same = getattr(fn, "returns_param", None)
    # a list comprehension: the array as the list, items as the interpreter's are
    as_list = _list_boxer(fn)
    # NumPy scalars where the interpreter has them (infer/numpy_results.py)
    numpy_result = getattr(fn, "numpy_result", None)
    as_numpy = None if numpy_result is None else numpy_boxer(numpy_result)
    as_named = named_boxer(rt)
    if as_named is not None:        # NumPy's named tuples (EighResult ...)
        as_numpy = as_named if as_numpy is None else \
            (lambda v, plain=as_numpy: as_named(plain(v)))

    def run(*args):
        ret = (ctypes.c_int64 * nret)()
        err = (ctypes.c_int64 * 4)()
        flat = flatten(args) if need_flat else args
        if cfunc(ret, err, *flat):
            return _raise(raises[err[0] - 1], fallback, args, err, fn.pure)
        if same is not None:                 # ``return a``: the argument itself
            return args[same]
        if rt == T.NONE:
            return None
        if simple_ret:
            if rt.is_float:
                v = ctypes.c_double.from_buffer(ret).value
            else:
                v = ret[0]
                if rt.is_bool:
                    v = bool(v)
                elif not rt.is_signed and v < 0:
                    v += 1 << 64
            return v if as_numpy is None else as_numpy(v)
        v = unbox(ret, (ctypes.c_double * nret).from_buffer(ret), args)
        if as_list is not None:
            return as_list(v if as_numpy is None else as_numpy(v))
        return v if as_numpy is None else as_numpy(v)

    def box_result(address, args):
        """Box a result the generated dispatcher left at ``address`` (views of
        arguments, tuples holding arrays, lists)."""
        ints = (ctypes.c_int64 * nret).from_address(address)
        out = unbox(ints, (ctypes.c_double * nret).from_address(address), args)
        if as_list is not None:
            return as_list(out if as_numpy is None else as_numpy(out))
        return out if as_numpy is None else as_numpy(out)

    run._keepalive = keepalive
    run._box_result = box_result
    return run


def _list_boxer(fn):
    """How a result holding list comprehensions (``Function.returns_list``) is
    handed back: the array as a list, or the tuple with the arrays at
    ``Function.numpy_lists``' positions as lists, or a tuple with none as a
    list of its arrays; None for other results."""
    if not getattr(fn, "returns_list", False):
        return None
    tables = getattr(fn, "returns_table", False)     # (frontend/list_tables.py)
    if tables is True:
        inner = _list_boxer_of(fn)
        return lambda result: table_rows(inner(result))
    if tables:
        return _tables_in_tuple(_list_boxer_of(fn), set(tables))
    return _list_boxer_of(fn)


def _tables_in_tuple(inner, starts):
    """A returned tuple with a table's four lists at each of ``starts``."""
    def box(result):
        items, out, k = list(inner(result)), [], 0
        while k < len(items):
            if k in starts:
                out.append(table_rows(items[k:k + 4]))
                k += 4
            else:
                out.append(items[k])
                k += 1
        return tuple(out)
    return box


def table_rows(parts):
    """A list of lists of numbers from its items, its row lists' starts and
    lengths, and the row list each row is (rows that are one list in compiled
    code are one list object, as in CPython: ``frontend/table_rewrite.py``)."""
    items, starts, lengths, rows = parts
    made = {}
    for o in rows:
        if o not in made:
            made[o] = items[starts[o]:starts[o] + lengths[o]]
    return [made[o] for o in rows]


def _list_boxer_of(fn):
    if getattr(fn, "dict_boxing", None):
        return dict_boxer(fn.dict_boxing)
    strs = getattr(fn, "returns_str", False)
    if isinstance(strs, tuple):     # a tuple holding run-time strs
        return lambda r: tuple(_str_of_codes(x) if k in strs else x
                               for k, x in enumerate(r))
    if strs:
        return _str_of_codes        # a run-time str (frontend/str_locals.py)
    if isinstance(getattr(fn, "return_type", None), T.TupleType) and \
            not getattr(fn, "numpy_lists", ()):
        return list             # the parts of np.split (frontend/split_lists.py)
    positions = tuple((k, _numpy_items_list if numpy else _python_list)
                      for k, numpy in getattr(fn, "numpy_lists", ()))
    if not positions:
        return _numpy_items_list if getattr(fn, "numpy_list", False) else _python_list

    def box(result):
        items = list(result)
        for k, as_list in positions:
            items[k] = as_list(items[k])
        return tuple(items)
    return box


def dict_boxer(boxing):
    """The dicts a function returns (``frontend/dict_locals.py``): each is a pair
    of arrays (keys, values, in insertion order) made a dict of their items --
    Python numbers, or NumPy scalars where the keys or values are those."""
    def as_dict(pair, key_numpy, value_numpy):
        keys, values = pair
        return dict(zip(list(keys) if key_numpy else keys.tolist(),
                        list(values) if value_numpy else values.tolist()))

    if boxing[0][0] is None:
        return lambda pair: as_dict(pair, *boxing[0][1:])

    def box(result):
        items = list(result)
        for k, key_numpy, value_numpy in boxing:
            items[k] = as_dict(items[k], key_numpy, value_numpy)
        return tuple(items)
    return box


def named_boxer(t):
    """A function making a result of type ``t`` -- a tuple holding
    ``T.NamedTupleType`` items, at any depth -- the named tuples NumPy returns
    (``np.linalg.eigh``'s ``EighResult``) and the sets of set locals
    (``hanajit.host_sets.set_of_table``); None when ``t`` holds none.  One value
    returned twice (``return s, s``: the same arrays) is one object, as in the
    interpreter."""
    if T.named_tuple_in(t) is None:
        return None

    def box(value, t=t, made=None):
        if not isinstance(t, T.TupleType):
            return value
        made = {} if made is None else made
        items = [box(v, i, made) for v, i in zip(value, t.items)]
        if not isinstance(t, T.NamedTupleType):
            return tuple(items)
        key = _memory_of(t, items)
        if key is None:
            return T.named_tuple_class(t)(*items)
        if key not in made:
            made[key] = T.named_tuple_class(t)(*items)
        return made[key]
    return box


def _memory_of(t, items):
    """What tells the named value of type ``t`` holding ``items`` from others
    boxed with it: its arrays' memory (None where it holds no array, or an empty
    one, whose address another may share)."""
    import numpy as np
    key, arrays = [t], False
    for x in items:
        if isinstance(x, np.ndarray) and x.size:
            key.append(("array", x.ctypes.data, x.shape, x.strides, x.dtype.str))
            arrays = True
        elif isinstance(x, (bool, int, float, complex)):
            key.append(("value", type(x), x))
        else:
            return None
    return tuple(key) if arrays else None


def _str_of_codes(a):
    """The str of a code point array (lone surrogates too, as ``chr`` makes them)."""
    return a.astype("<u4").tobytes().decode("utf-32-le", "surrogatepass")


def _python_list(a):
    return a.tolist()


def _numpy_items_list(a):
    """A returned list comprehension whose items are NumPy scalars (array
    elements, NumPy results): the 1-D or 2-D array as lists of its items."""
    return list(a) if a.ndim == 1 else [list(row) for row in a]


def numpy_boxer(t):
    """A function making ``value`` (Python numbers, as boxed for the plain type)
    the NumPy scalar of its dtype at each leaf ``t`` marks (``NumpyScalarArg``;
    ``NumpyScalarIf`` where the flag after the value in a ``FlaggedResult``
    says so: ``infer/result_flags.py``)."""
    if isinstance(t, T.FlaggedResult):
        inner = _flag_boxer(t.value)
        return lambda value: inner(value[0], value[1:])
    plain = _flag_boxer(t)
    return lambda value: plain(value, ())


def _flag_boxer(t):
    import numpy as np
    if isinstance(t, T.NumpyScalarArg):
        make = np.dtype(t.base.name).type
        return lambda value, flags: make(value)
    if isinstance(t, T.NumpyScalarIf):
        make, k = np.dtype(t.base.name).type, t.flag
        if t.python is not None:          # (an int held in a float64 ...)
            py = {"b": bool, "i": int, "f": float}[t.python.kind]
            return lambda value, flags: make(value) if flags[k] else py(
                value.real if isinstance(value, complex) else value)
        return lambda value, flags: make(value) if flags[k] else value
    if isinstance(t, T.TupleType):
        items = [_flag_boxer(i) for i in t.items]
        return lambda value, flags: tuple(f(v, flags) for f, v in zip(items, value))
    return lambda value, flags: value



_data_pointer = ctypes.c_void_p.from_address


def _has_generator(t) -> bool:
    if isinstance(t, T.GeneratorType):
        return True
    return isinstance(t, T.TupleType) and any(_has_generator(i) for i in t.items)


def generator_words(rng) -> tuple:
    """The four words of a ``GeneratorType`` argument, from the documented
    ``bit_generator.ctypes`` interface: state pointer, ``next_uint64``,
    ``next_uint32``, ``next_double``."""
    c = rng.bit_generator.ctypes
    fns = [ctypes.cast(f, ctypes.c_void_p).value
           for f in (c.next_uint64, c.next_uint32, c.next_double)]
    return (c.state_address, *fns)


def _has_writeable_array(t) -> bool:
    if isinstance(t, T.ArrayType):
        return not t.readonly
    return isinstance(t, T.TupleType) and any(_has_writeable_array(i) for i in t.items)


def _record_values(message, err):
    """The kernel's integers of an error record (``err[1..3]``), each str field's
    (``errors.str_field_slots``: the address of a reference to the str's code
    points, ``lowering/nrt.py``) taken as the Python str."""
    from hanajit.errors import str_field_slots
    if err is None:
        return ()
    values = list(err[1:4])
    for k in str_field_slots(message):
        mi, values[k] = values[k], None
        if mi:
            data = ctypes.c_void_p.from_address(mi + 8).value
            n = ctypes.c_int64.from_address(mi + 16).value // 4
            codes = (ctypes.c_int32 * n).from_address(data) if n else ()
            values[k] = bytes(codes).decode("utf-32-le", "surrogatepass")
            _nrt_decref()(mi)
    return values


def _nrt_decref():
    from .boxing import _get_decref
    return _get_decref()


def _raise(entry, fallback, args, err=None, pure=True):
    from hanajit.errors import CLEAN, RERUN, HostException, UnsupportedError, \
        kernel_exception
    from hanajit.lib.python.helpers import Deopt
    exc, message, deopt = entry
    values = _record_values(message, err)
    if exc is HostException:        # (print raised: its own exception)
        from hanajit.host_print import take_exception
        raise take_exception()
    if deopt == CLEAN:          # (nothing was written, printed or drawn before it)
        return fallback(*args)
    if deopt == RERUN:
        # a text that only approximates NumPy's: the interpreter raises its own
        if pure:
            return fallback(*args)
        raise kernel_exception(exc, message, values)
    if (deopt or exc is Deopt) and not pure:
        raise UnsupportedError(f"{getattr(fallback, '__qualname__', fallback)}: the "
                               f"compiled code cannot represent Python's result here "
                               f"({message}) and the function writes to its arguments "
                               "(or has drawn random numbers or printed), so it cannot "
                               "be re-run in the interpreter")
    if deopt or exc is Deopt:
        # the compiled code cannot represent CPython's result: the call is pure,
        # so running it in the interpreter gives exactly Python's answer
        return fallback(*args)
    raise kernel_exception(exc, message, values)


def native_entry(run, artifact, addrs: dict, fallback):
    """The :class:`~hanajit.dispatch.native.NativeEntry` of a loaded runner."""
    from hanajit.dispatch.native import NativeEntry

    from .cexport import CFUNC, CFUNC_ERROR, CFUNC_ND
    fn = artifact.metadata["fn"]
    raises = artifact.metadata["raises"]

    def on_error(err, args):
        return _raise(raises[err[0] - 1], fallback, args, err, fn.pure)

    return NativeEntry(arg_types=tuple(fn.arg_types), return_type=fn.return_type,
                       entry_address=addrs[artifact.entry], can_raise=fn.can_raise,
                       raises=raises, on_error=on_error,
                       cfunc_address=addrs.get(CFUNC),
                       cfunc_error_address=addrs.get(CFUNC_ERROR),
                       cfunc_nd_address=addrs.get(CFUNC_ND), keepalive=run._keepalive,
                       box_result=run._box_result,
                       release_gil=bool(artifact.metadata.get("release_gil")),
                       returns_arg=getattr(fn, "returns_param", None),
                       returns_list=bool(getattr(fn, "returns_list", False)),
                       numpy_result=getattr(fn, "numpy_result", None))

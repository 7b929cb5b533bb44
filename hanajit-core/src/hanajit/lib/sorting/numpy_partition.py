"""``np.partition`` / ``np.argpartition`` at a single kth where NumPy takes its
SIMD quickselect (``partition.simd_single_kth``): NumPy itself does it.

Where ``numpy_select`` finds and checks NumPy's own per-lane selection function
(``introselect_noarg<tag>`` / ``introselect_arg<tag>``, which hand a single kth to
x86-simd-sort), the compiled code calls it on each lane (:func:`select_lanes`:
no Python, no allocation but a pivot stack, and argpartition writes the compiled
array's positions directly).  Elsewhere (a NumPy built without its symbol table)
it calls NumPy back through ``hj.host.hanajit_partition`` (a ctypes callback the
CPU engine links, :func:`address`), described below.  Either way the code holds
no address of this process, so the disk cache reuses it elsewhere.  (The C
API's ``PyArray_Partition`` takes array objects, which the compiled code would
have to build through the C API -- the callback builds them in Python instead.)

The compiled code passes the lanes (``sort.Lanes``: each lane copied contiguous,
one after the other, as NumPy copies a lane to a buffer, and NumPy's order of a
contiguous lane is that of the lane anywhere -- checked on C, Fortran, strided
and reversed layouts), their count and length, the kth (non-negative, checked in
bounds), a code for the dtype and argpartition, and for argpartition the int64
buffer of positions.  The callback wraps the memory as arrays (``np.ndarray``
over a ctypes buffer: no copy) and runs ``lanes.partition(kth, axis=-1)`` in
place, or writes ``np.argpartition(lanes, kth, axis=-1)`` into the positions:
NumPy handles each lane of a 2-D array as it handles that lane alone.  It never
raises into C: it returns 0, or the position
+ 1 in :data:`ERRORS` of the exception NumPy raised (the last: another), which the
compiled code raises.  ctypes callbacks take the GIL themselves, so threads of
parallel loops may call it.
"""
from __future__ import annotations

import ctypes

from ...ir import nodes as N
from ...ir import types as T
from . import numpy_select

SYMBOL = "hanajit_partition"
I = T.INT64
# the dtypes the callback knows (a code is the position here, times 2, plus 1
# for argpartition)
DTYPES = ("int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64",
          "float32", "float64", "bool")
ERRORS = (MemoryError, ValueError, TypeError, RuntimeError)


_dtypes: list = []


def host_partition(data, positions, lanes, n, kth, code) -> int:
    """``hj.host.hanajit_partition(data, positions, lanes, n, kth, code)``."""
    try:
        import numpy as np
        if not _dtypes:
            _dtypes.extend(np.dtype(name) for name in DTYPES)
        dtype = _dtypes[code >> 1]
        size = lanes * n
        memory = (ctypes.c_char * (size * dtype.itemsize)).from_address(data)
        v = np.ndarray((lanes, n), dtype, buffer=memory)
        if code & 1:
            out = (ctypes.c_char * (size * 8)).from_address(positions)
            np.ndarray((lanes, n), np.int64, buffer=out)[...] = \
                np.argpartition(v, kth, axis=-1)
        else:
            v.partition(kth, axis=-1)
        return 0
    except BaseException as exc:     # noqa: BLE001 - never into C: a status instead
        for i, cls in enumerate(ERRORS[:-1]):
            if isinstance(exc, cls):
                return i + 1
        return len(ERRORS)


_PARTITION = ctypes.CFUNCTYPE(ctypes.c_int32, ctypes.c_int64, ctypes.c_int64,
                              ctypes.c_int64, ctypes.c_int64, ctypes.c_int64,
                              ctypes.c_int64)(host_partition)


def address(name: str):
    """The address of the host function ``name`` when it is this module's."""
    if name == SYMBOL:
        return ctypes.cast(_PARTITION, ctypes.c_void_p).value
    return None


def usable(ctx, dtype) -> bool:
    """Can code built in ``ctx`` partition ``dtype`` by calling NumPy?  Only code
    running in this process (``Capabilities.host_calls``), not a plain C function
    (``c_exports``: C code may call it without Python)."""
    return (ctx is not None and ctx.capabilities.host_calls
            and not ctx.options.get("c_exports")
            and isinstance(dtype, T.Scalar) and dtype.name in DTYPES)


def partition_lanes(L, flat, n, kth, positions=None) -> None:
    """NumPy's partition at the single kth ``kth`` (an int64 in ``[0, n)`` when
    the array is not empty) of each lane of ``n`` items of the
    C-contiguous 1-D ``flat``, in place; with ``positions`` (int64, shaped as
    ``flat``) its argpartition written there instead (``flat`` kept)."""
    if numpy_select.checked(flat.type.dtype.name) is not None:
        return select_lanes(L, flat, n, kth, positions)
    zero = N.Const(0, I)
    size = L.let(N.ArrayAttr(flat, "shape", 0, I))
    n = L.let(n)
    code = 2 * DTYPES.index(flat.type.dtype.name) + (positions is not None)
    status = L.temp(T.INT32, "partitioned")
    L.emit(N.Assign(target=status, value=N.Const(0, T.INT32)))

    def call():
        lanes = L.let(N.BinOp("sdiv", size, n, I))
        args = [N.ArrayAttr(flat, "data", 0, I),
                zero if positions is None else N.ArrayAttr(positions, "data", 0, I),
                lanes, n, kth, N.Const(code, I)]
        L.emit(N.ForeignCall(symbol=SYMBOL, args=[L.let(a) for a in args],
                             returns=T.INT32, target=status))
    body, _ = L.sub_block(call)
    # (an empty array: nothing to do, and its kth is not checked; lanes of one
    # item are called too, for argpartition's positions 0)
    L.emit(N.If(cond=N.Cmp("gt", size, zero, T.BOOL), then=body))
    got = N.Var(status, T.INT32)
    for i, cls in enumerate(ERRORS):
        L.emit(N.If(cond=N.Cmp("eq", got, N.Const(i + 1, T.INT32), T.BOOL),
                    then=[N.Raise(exc=cls, line=L.line,
                                  message=f"NumPy's {'' if positions is None else 'arg'}"
                                          "partition raised " + cls.__name__)]))


def select_lanes(L, flat, n, kth, positions=None) -> None:
    """:func:`partition_lanes` through NumPy's selection function itself
    (``numpy_select``: no Python): per lane of more than one item, as
    ``_new_sortlike`` / ``_new_argsortlike`` do, a pivot stack emptied, for
    argpartition the positions ``0 .. n - 1``, then one call at the kth."""
    from ..arrays.creation import allocate
    from ..arrays.reductions import loops
    from ..python.operators import band
    zero = N.Const(0, I)
    size = L.let(N.ArrayAttr(flat, "shape", 0, I))
    n = L.let(n)
    arg = positions is not None
    one = N.Const(1, I)
    some = N.Cmp("gt", n, zero, T.BOOL)
    count = L.let(N.Select(some, N.BinOp("sdiv", size, N.Select(some, n, one, I), I),
                           zero, I))
    if arg:          # (lanes of one item: position 0, not called -- as NumPy)
        loops(L, [count, n], lambda idx: L.emit(N.Store(
            array=positions, indices=[N.BinOp("add", N.BinOp("mul", idx[0], n, I),
                                              idx[1], I)], value=idx[1])))
    dtype = flat.type.dtype
    step = N.Const(max(dtype.bits // 8, 1), I)             # bool: a byte
    name = numpy_select.symbol(arg, dtype.name)

    def lanes():
        pivots = allocate(L, T.ArrayType(I, 1, "C"), [N.Const(numpy_select.PIVOTS + 1, I)])
        base = L.let(N.ArrayAttr(pivots, "data", 0, I))
        npiv = L.let(N.BinOp("add", base, N.Const(8 * numpy_select.PIVOTS, I), I))
        status = L.temp(T.INT32, "selected")

        def call(idx):
            first = L.let(N.BinOp("mul", idx[0], n, I))
            L.emit(N.Store(array=pivots, indices=[N.Const(numpy_select.PIVOTS, I)],
                           value=zero))
            args = [N.BinOp("add", N.ArrayAttr(flat, "data", 0, I),
                            N.BinOp("mul", first, step, I), I)]
            if arg:
                args.append(N.BinOp("add", N.ArrayAttr(positions, "data", 0, I),
                                    N.BinOp("mul", first, N.Const(8, I), I), I))
            args += [n, kth, base, npiv, one, zero]
            L.emit(N.Assign(target=status, value=N.Const(0, T.INT32)))
            L.emit(N.ForeignCall(symbol=name, args=[L.let(a) for a in args],
                                 returns=T.INT32, target=status))
            L.emit(N.If(cond=N.Cmp("lt", N.Var(status, T.INT32), N.Const(0, T.INT32),
                                   T.BOOL),
                        then=[N.Raise(exc=MemoryError, line=L.line,
                                      message="NumPy's partition failed")]))
        loops(L, [count], call)
    body, _ = L.sub_block(lanes)
    L.emit(N.If(cond=band(N.Cmp("gt", size, zero, T.BOOL), N.Cmp("gt", n, one, T.BOOL)),
                then=body))

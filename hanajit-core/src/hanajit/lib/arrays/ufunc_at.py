"""``np.add.at(a, indices, b)``, ``np.maximum.at``, ``np.negative.at(a, indices)``
...: NumPy's unbuffered in-place ``ufunc.at`` of the ufuncs hanajit compiles
with one output.

NumPy converts ``b`` with ``asarray`` (so a Python number is *strong* here: a
Python int is int64, a float float64, as in ``ufunc.outer``), resolves the loop
as ``ufunc.resolve_dtypes((a.dtype, b.dtype, None))`` gives it, and for each
indexed element in C order of ``a[indices]`` (repeated indices each time, in
turn) computes ``ufunc(a[i], b[k])`` in the loop's dtypes and casts the result
back into ``a``.  The call is a small helper compiled from Python source: the
indexed positions are those of ``np.arange(a.size).reshape(a.shape)[indices]``
(NumPy's own indexing: its IndexError out of bounds, boolean masks, tuples of
index arrays), ``b`` is broadcast to their shape (``np.broadcast_to``'s
ValueError) and copied first, as NumPy copies an operand that overlaps ``a``.
A 1-D ``a`` indexed by an integer array or integer, and a 2-D or 3-D one by a
tuple of integer arrays of one shape, read the indices directly (checked first).
``np.fmax.at``/``np.fmin.at`` of floats keep ``b``'s zero of two equal zeros
(NumPy's indexed loop), where the ufuncs' scalar loop keeps ``a``'s.

Falls back: keywords, a read-only ``a`` (which NumPy's ``ufunc.at`` writes
anyway), a loop whose result NumPy casts back
into ``a`` across kinds (float or complex results into an integer or boolean
``a``, complex into real: NumPy's cast warns for NaN, overflow and imaginary
parts), a 1-D ``a`` with an index array of several dimensions and a 1-D
``b`` (NumPy's fast loop reads such a ``b`` as if it had one value per index:
past its end where it is broadcast), ``fmax``/``fmin`` of complex numbers, a
loop NumPy does not have (``np.subtract.at`` of booleans: NumPy's TypeError),
index forms other than integers, integer or boolean arrays, list displays and
tuples of those."""
from __future__ import annotations

import numpy as np

from ...ir import types as T
from ...typing_rules import Incompatible
from ..registry import CallTemplate, sequences_as_arrays, typed_helper

_helpers: dict = {}


def _np_dtype(t: T.Scalar):
    return np.dtype("bool" if t.is_bool else t.name)


def _scalar_type(dt):
    return getattr(np, "bool_" if dt == np.bool_ else dt.name)


def _indices(a, idx):
    """The positions of a 1-D ``a`` that the integer array ``idx`` names, all
    checked before any is updated (as NumPy's ``ufunc.at`` checks them)."""
    ix = np.asarray(idx)
    ii = ix.flatten()
    n = a.shape[0]
    for k in range(ii.size):
        j = ii[k]
        if j < -n or j >= n:
            raise IndexError(f"index {j} is out of bounds for axis 0 with size {n}")
        if j < 0:
            ii[k] = j + n
    return ii.reshape(ix.shape)


def _positions(a, idx):
    """The flat (C-order) positions in ``a`` of the elements ``a[idx]``."""
    return np.asarray(np.arange(a.size).reshape(a.shape)[idx])


def _position(a, idx):
    """The flat position of the one element ``a[idx]``, as a 1-item array."""
    return np.array([np.arange(a.size).reshape(a.shape)[idx]])


def _add_axis(pos, ix, n, stride, axis):
    """Add axis ``axis``'s part of the flat positions: the checked indices ``ix``
    (of ``n``) times the axis's C-order ``stride``."""
    fl = ix.flatten()
    for k in range(fl.size):
        j = fl[k]
        if j < -n or j >= n:
            raise IndexError(f"index {j} is out of bounds for axis {axis} with size {n}")
        pos[k] += (j + n if j < 0 else j) * stride


def _pair(a, idx):
    """The flat positions of ``a[i0, i1]`` for index arrays of one shape (others:
    :func:`_positions`, NumPy's broadcasting and IndexError)."""
    i0, i1 = idx
    if i0.shape != i1.shape:
        return _positions(a, idx)
    pos = np.zeros(i0.size, np.int64)
    _add_axis(pos, i0, a.shape[0], a.shape[1], 0)
    _add_axis(pos, i1, a.shape[1], 1, 1)
    return pos.reshape(i0.shape)


def _triple(a, idx):
    i0, i1, i2 = idx
    if i0.shape != i1.shape or i0.shape != i2.shape:
        return _positions(a, idx)
    pos = np.zeros(i0.size, np.int64)
    _add_axis(pos, i0, a.shape[0], a.shape[1] * a.shape[2], 0)
    _add_axis(pos, i1, a.shape[1], a.shape[2], 1)
    _add_axis(pos, i2, a.shape[2], 1, 2)
    return pos.reshape(i0.shape)


def _fmax_at(x, y):
    """``np.fmax.at``'s float loop: ``y`` unless ``x`` is greater or ``y`` NaN (so
    of two zeros ``y``, where the scalar ``np.fmax`` gives ``x``)."""
    return x if x > y or y != y else y


def _fmin_at(x, y):
    return x if x < y or y != y else y


_FLOAT_LOOPS = {"fmax": _fmax_at, "fmin": _fmin_at}
_FINDERS = {"fast": _indices, "general": _positions, "scalar": _position, "pair": _pair,
            "triple": _triple}


def _helper(ufunc, loop, mode, b_kind):
    """The compiled helper: ``loop`` the ufunc's loop dtypes, ``mode`` how the
    positions are found (:data:`_FINDERS`), ``b_kind`` 'number', 'array' or
    None (a unary ufunc)."""
    key = (ufunc.__name__, loop, mode, b_kind)
    h = _helpers.get(key)
    if h is not None:
        return h
    u, find = ufunc, _FINDERS[mode]
    if loop[0].kind == "f":
        u = _FLOAT_LOOPS.get(ufunc.__name__, u)
    la = _scalar_type(loop[0])
    lb = _scalar_type(loop[1]) if b_kind else None
    if b_kind is None:
        def h(a, idx):
            pf = find(a, idx).ravel()
            for k in range(pf.size):
                p = pf[k]
                a.flat[p] = u(la(a.flat[p]))
    elif b_kind == "number":
        def h(a, idx, b):
            y = lb(b)
            pf = find(a, idx).ravel()
            for k in range(pf.size):
                p = pf[k]
                a.flat[p] = u(la(a.flat[p]), y)
    else:
        def h(a, idx, b):
            pos = find(a, idx)
            bf = np.array(np.broadcast_to(b, pos.shape)).ravel()   # (a copy: b may view a)
            pf = pos.ravel()
            for k in range(pf.size):
                p = pf[k]
                a.flat[p] = u(la(a.flat[p]), lb(bf[k]))
    h.__name__ = h.__qualname__ = f"{ufunc.__name__}_at"
    _helpers[key] = h
    return h


def _index_ok(t) -> bool:
    if isinstance(t, T.Scalar):
        return t.is_int or t.is_bool
    if isinstance(t, T.ArrayType):
        return t.dtype.is_int or t.dtype.is_bool
    return isinstance(t, T.TupleType) and all(
        isinstance(i, (T.Scalar, T.ArrayType)) and _index_ok(i) for i in t.items)


def _mode(a, idx) -> str:
    """How the positions of ``a[idx]`` are found: 'scalar' for one element,
    'fast' for a 1-D ``a`` and an integer array, 'pair'/'triple' for a tuple of
    integer arrays indexing a 2-D/3-D ``a``, else 'general'."""
    if isinstance(idx, T.Scalar) and a.ndim == 1 or isinstance(idx, T.TupleType) and len(
            idx.items) == a.ndim and all(isinstance(i, T.Scalar) for i in idx.items):
        return "scalar"
    if a.ndim == 1 and isinstance(idx, T.ArrayType) and idx.dtype.is_int:
        return "fast"
    if isinstance(idx, T.TupleType) and len(idx.items) == a.ndim in (2, 3) and all(
            isinstance(i, T.ArrayType) and i.dtype.is_int and i.ndim == idx.items[0].ndim
            for i in idx.items):
        return "pair" if a.ndim == 2 else "triple"     # (no arange of all of a)
    return "general"


def _cast_ok(res, a) -> bool:
    """May the loop's result dtype ``res`` be cast back into ``a``'s dtype the
    way hanajit's store does it (no warnings in NumPy's cast)?"""
    if res.kind in "iub":
        return a.kind in "iub"
    if res.kind == "f":
        return a.kind in "fc"
    return a.kind == "c"


class UfuncAt(CallTemplate):
    """``ufunc.at(a, indices[, b])`` as a compiled helper."""

    def __init__(self, ufunc):
        self.owner = ufunc   # (not ``ufunc``: templates with one lift elementwise)
        self.name = f"np.{ufunc.__name__}.at"

    def typer(self, inf, call, args, kwargs):
        u = self.owner
        nin = u.nin
        form = f"{self.name}(a, indices{', b' if nin == 2 else ''})"
        if kwargs or len(args) != nin + 1:
            raise Incompatible(f"{form} (other arguments fall back)")
        if getattr(call.args[1], "from_list", False):     # a list: an index array
            args, _ = sequences_as_arrays(inf, call, (1,), args, {}, 0)
            if isinstance(args[1], T.TupleType):
                raise Incompatible(f"{form}: a list of arrays as indices (NumPy's "
                                   "np.asarray of it)")
        if nin == 2:
            args, _ = sequences_as_arrays(inf, call, (2,), args, {}, 0)
        a, idx = args[0], args[1]
        if not isinstance(a, T.ArrayType) or a.ndim == 0:
            raise Incompatible(f"{form} of an array a of at least one dimension")
        if a.readonly:
            raise Incompatible(f"{form} of a read-only array")
        if not _index_ok(idx):
            raise Incompatible(f"{form}: indices must be integers, integer or boolean "
                               "arrays, a list display or a tuple of those")
        ops = [_np_dtype(a.dtype)]
        b_kind = None
        mode = _mode(a, idx)
        if nin == 2:
            b = args[2]
            if isinstance(b, T.ArrayType):
                if mode == "scalar" and b.ndim:
                    raise Incompatible(f"{form}: b of {b.ndim} dimensions for one element "
                                       "(NumPy's ValueError)")
                if a.ndim == 1 and getattr(idx, "ndim", 0) > 1 and b.ndim == 1:
                    raise Incompatible(f"{form} of a 1-D a, an index array of several "
                                       "dimensions and a 1-D b (NumPy's fast loop pairs b "
                                       "with the flattened indices, reading past a "
                                       "broadcast b)")
                ops.append(_np_dtype(b.dtype))
                b_kind = "array"
            elif isinstance(b, T.Scalar):
                ops.append(_np_dtype(b))
                b_kind = "number"
            else:
                raise Incompatible(f"{form}: b must be a number or an array")
        try:
            loop = u.resolve_dtypes(tuple(ops) + (None,))
        except Exception as exc:        # NumPy's TypeError: the interpreter raises it
            raise Incompatible(f"{form}: {exc}") from None
        if u.__name__ in _FLOAT_LOOPS and loop[0].kind == "c":
            raise Incompatible(f"{form} of complex numbers")
        if not _cast_ok(loop[-1], ops[0]):
            raise Incompatible(f"{form} casts {loop[-1]} results into {ops[0]} (NumPy's "
                               "unsafe cast, with its warnings)")
        helper = _helper(u, tuple(loop), mode, b_kind)
        call.call_plan = typed_helper(inf, helper, args)
        return T.NONE

    def lower(self, L, call, args, kwargs):
        spec = call.call_plan
        return L.call_symbol(spec.symbol, [L.let(x) for x in args], spec.return_type)


def lookup(owner):
    """The template of ``owner.at`` for a ufunc hanajit compiles, else None."""
    from .. import registry
    if owner.nout != 1 or owner.nin not in (1, 2) or registry.lookup(owner) is None:
        return None
    return UfuncAt(owner)

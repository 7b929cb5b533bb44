"""Target-independent pieces of the native call path.

A host target that can generate machine-code dispatchers (the CPU target) gives
each loaded specialisation's runner a ``native`` attribute, a :class:`NativeEntry`
saying where its C entry points are, and has a method::

    target.native_dispatcher(shape: CallShape, entries: list[NativeEntry],
                             handlers: Handlers) -> (address, keepalive, llvm_ir)

returning the address of a vectorcall function
``PyObject *f(PyObject *self, PyObject *const *args, size_t nargsf,
PyObject *kwnames)``.  The generated function binds keyword arguments and fills
defaults (:class:`CallShape`), tries each entry's argument types in turn, unboxes,
calls, boxes the result, and otherwise calls one of the Python :class:`Handlers`:

* ``slow(self, *args, **kwargs)`` with the original arguments, for anything it
  does not handle itself (new types, wrong arity, unknown keywords ...): the
  Python dispatcher, which compiles, falls back, or raises as usual;
* ``raised(self, index, err_address, *params)`` when entry ``index`` returned an
  error: ``err_address`` points at its four ``int64_t`` error words (raise code
  and message arguments, valid during the call); the handler calls the entry's
  ``on_error``, which raises the kernel's exception, or re-runs the call in the
  interpreter for a deopt.
* ``boxed(self, index, ret_address, *params)`` for results the generated code
  does not box itself (an array that is a view of an argument, a tuple holding
  arrays): ``ret_address`` points at entry ``index``'s flat result words; the
  handler calls the entry's ``box_result``.

A target with ``chains_dispatchers`` also takes ``previous=address``: the entries
the function's current dispatcher (at ``address``) already handles are then None,
and the new dispatcher calls ``address`` with its own arguments where it would
call ``slow`` -- a link of a chain.  ``JitFunction`` generates links while the
chain is short (:data:`hanajit.api.MAX_LINKS`) and no specialisation takes
arguments that another one's exact types also take (an any-layout array, an
omitted argument's default folded), where the order the entries are tried in
decides which specialisation runs; otherwise a whole dispatcher again.

Nothing here imports LLVM: targets generate the code.
"""
from __future__ import annotations

import inspect
import sys
from dataclasses import dataclass, field
from typing import Any, Callable

_MISSING = inspect.Parameter.empty


@dataclass(frozen=True)
class Param:
    """One parameter as the native binder sees it."""

    name: str                 # interned: keyword names are matched by pointer
    positional: bool          # may be passed by position
    keyword: bool             # may be passed by keyword
    default: Any = _MISSING

    @property
    def has_default(self) -> bool:
        return self.default is not _MISSING


@dataclass(frozen=True)
class CallShape:
    """The parameters of a jitted function, for binding arguments in machine code."""

    params: tuple

    @property
    def npos(self) -> int:
        """How many leading parameters may be passed by position."""
        return sum(1 for p in self.params if p.positional)

    @property
    def simple(self) -> bool:
        """True when ``f(a, b, ...)`` with every parameter positional is the whole
        story (no keyword or default handling needed on the fast path)."""
        return all(p.positional for p in self.params)

    @classmethod
    def from_signature(cls, sig: inspect.Signature | None) -> CallShape | None:
        """The shape of a signature, or None if it has ``*args``/``**kwargs``."""
        if sig is None:
            return None
        params = []
        for p in sig.parameters.values():
            if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
                return None
            params.append(Param(
                name=sys.intern(p.name),
                positional=p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD),
                keyword=p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY),
                default=p.default))
        return cls(tuple(params))

    def objects(self) -> list:
        """Every Python object whose address the generated code embeds."""
        out = []
        for p in self.params:
            out.append(p.name)
            if p.has_default:
                out.append(p.default)
        return out


@dataclass
class NativeEntry:
    """The C entry points of one loaded specialisation (``runner.native``).

    * ``entry_address``: the C-ABI wrapper of :mod:`hanajit.lowering.cabi`,
      ``int32_t f(int64_t *ret, int64_t *err, flat args...)``.
    * ``cfunc_address``: ``ret f(args...)`` with C scalar types, or None when an
      argument or the result is not a scalar (tuples, complex numbers).  If the
      kernel raises, it returns 0 (NaN for floats) and stores the raise code in
      the ``int32_t`` at ``cfunc_error_address`` (one word per specialisation,
      not per thread).
    * ``cfunc_nd_address``: ``double f(int n, double *xx)`` when every argument
      and the result are float64 (SciPy's ``LowLevelCallable`` form), else None.
    * ``box_result(ret_address, params)``: the Python object for the flat result
      words at ``ret_address`` (``params``: the arguments, which may own the
      memory of a returned view).
    """

    arg_types: tuple
    return_type: Any
    entry_address: int
    can_raise: bool
    raises: list
    on_error: Callable = None     # on_error(err_words, params): raise or re-run
    cfunc_address: int | None = None
    cfunc_error_address: int | None = None
    cfunc_nd_address: int | None = None
    keepalive: Any = field(default=None, repr=False)
    box_result: Callable = None   # box_result(ret_address, params): the result
    release_gil: bool = False     # nogil=True or parallel loops: call without the GIL
    returns_arg: int | None = None  # the result is this argument object itself
    returns_list: bool = False    # the result is box_result(...).tolist() (boxed in Python)
    # the result type with NumpyScalarArg on each leaf the interpreter returns
    # as a NumPy scalar (np.float64 ...); None: Python numbers throughout
    numpy_result: Any = None


def keyed_entry(entry, key):
    """A native entry checking its arguments by dispatch key: a ``np.float64``
    argument (``NumpyScalarArg``) must not be taken for a Python float, nor any
    int for an omitted argument's folded default (``DefaultArg``)."""
    from ..ir.types import DefaultArg, NumpyScalarArg
    if entry is None or not any(isinstance(t, (NumpyScalarArg, DefaultArg)) for t in key):
        return entry
    import dataclasses
    return dataclasses.replace(entry, arg_types=tuple(key))


def reorders(key, new: bool) -> bool:
    """Would trying specialisation ``key`` before older ones (``new``), or at all
    in a chain, change which one runs?  An any-layout array argument takes the
    arrays an exact one also takes, so a whole dispatcher tries it after those;
    an omitted argument's folded default is tried before the entry taking any
    value there."""
    from ..ir.types import ArrayType, DefaultArg, TupleType

    def widens(t):
        if isinstance(t, ArrayType):
            return t.layout == "A"
        return isinstance(t, TupleType) and any(widens(i) for i in t.items)
    return any(isinstance(t, DefaultArg) or new and widens(t) for t in key)


def box_result(self, index, ret_address, *params):
    """The ``boxed`` handler: entry ``index``'s result, boxed in Python."""
    return self._native_entries[index].box_result(ret_address, params)


@dataclass(frozen=True)
class Handlers:
    """The Python callables the generated code calls (see the module docstring)."""

    slow: Callable
    raised: Callable
    boxed: Callable = box_result

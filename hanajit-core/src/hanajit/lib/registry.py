"""Registry of the Python callables hanajit compiles (builtins, math, numpy ...).

Each entry is a :class:`CallTemplate` registered under dotted paths
(``"math.sqrt"``, ``"numpy.sqrt"``, ``"builtins.abs"``).  Paths are resolved to
objects lazily, only for modules the user has already imported, so registering
NumPy functions never imports NumPy.  Type inference calls :meth:`typer`; the
semantic lowering pass calls :meth:`lower`, which emits primitive IR.
"""
from __future__ import annotations

import importlib
import sys


class CallTemplate:
    """Typing and lowering of calls to one family of Python callables."""

    paths: tuple = ()
    # a question types answer (``call.plan`` is the bool): ``if`` on it is decided
    # while inferring, the branch not taken neither typed nor compiled
    static: bool = False
    # (``accepts_lazy``: an unevaluated array expression is handed over as
    # ``elementwise.Lazy``, its elements computed where the template reads them.)
    # ``copies_elements``: the template reads each element once, in a loop LLVM's
    # loop vectoriser takes (np.sort, np.median, np.roll ... copy the values
    # first), so NumPy's own SIMD functions stay in them (``Intrinsic.numpy_loop``:
    # NumPy's bits); other templates that accept expressions get the C library's
    # and vector math's (``elementwise.fused_elements``)
    copies_elements: bool = False

    def typer(self, inf, call, args: list, kwargs: dict):
        """Return the result type for argument types ``args``/``kwargs``, or raise
        :class:`hanajit.typing_rules.Incompatible` with a message."""
        raise NotImplementedError

    def lower(self, low, call, args: list, kwargs: dict):
        """Return a primitive expression for the call; ``args`` are lowered
        expressions (stable: safe to use more than once)."""
        raise NotImplementedError


class PlannedCall(CallTemplate):
    """A call whose typing decides a plan from its bound argument types and
    constant arguments: :meth:`make_plan` (from the call, its bound argument
    nodes and their types) returns an object whose ``type`` is the result type;
    the typer keeps it in ``call.call_plan`` for the lowering, which binds the
    lowered arguments the same way (:meth:`bound`).  ``name`` (``"np.pad"``) and
    ``params`` are the callable's, for binding and messages."""

    name = ""
    params: tuple = ()

    def make_plan(self, call, nodes: dict, types: dict):
        raise NotImplementedError

    def bound(self, args: list, kwargs: dict) -> dict:
        return bind_arguments(self.name, self.params, args, kwargs)

    def typer(self, inf, call, args, kwargs):
        nodes = bind_arguments(self.name, self.params, call.args, call.kwargs)
        call.call_plan = plan = self.make_plan(call, nodes, self.bound(args, kwargs))
        return plan.type


_UNSET = object()


def bound_const(call, bound_nodes: dict, name: str, default):
    """The compile-time value of the bound argument ``name`` of ``call`` (a
    :class:`PlannedCall`'s ``nodes``); ``default`` when it is absent."""
    from ..ir import nodes as N
    from ..typing_rules import Incompatible
    node = bound_nodes.get(name)
    if node is None:
        return default
    value = node.value if isinstance(node, N.Const) else getattr(node, "obj", _UNSET)
    if value is _UNSET or isinstance(value, N.Expr):
        raise Incompatible(f"{call.name}(): {name}= must be a constant")
    return value


class StaticQuestion(CallTemplate):
    """A question types answer while inferring (``compensates(total, item)``):
    :meth:`answer` decides it, the typer keeps the answer in ``call.plan`` (an
    ``if`` on it is decided then, ``infer.static_truth``), and it lowers to that
    constant.  ``arity``: its number of arguments."""

    static = True
    arity = 1

    def answer(self, inf, call, args: list) -> bool:
        raise NotImplementedError

    def typer(self, inf, call, args, kwargs):
        from ..ir import types as T
        from ..typing_rules import Incompatible
        if len(args) != self.arity or kwargs:
            raise Incompatible(f"{call.name or 'question'}() takes {self.arity} arguments")
        call.plan = bool(self.answer(inf, call, args))
        return T.BOOL

    def lower(self, L, call, args, kwargs):
        from ..ir import nodes as N
        from ..ir import types as T
        return N.Const(bool(call.plan), T.BOOL)


class CompiledOnly:
    """A callable that exists only in compiled code (``empty_of_type``,
    ``compensates``): the frontend's generated code calls it and a template types
    and lowers it; an object, not a function, so it is never compiled as one, and
    calling it from Python raises TypeError."""

    def __init__(self, name: str):
        self.__name__ = self.__qualname__ = name

    def __call__(self, *args):
        raise TypeError(f"{self.__name__} is only compiled")

    def __repr__(self):
        return f"<hanajit compiled-only {self.__name__}>"


def typed_helper(inf, helper, argtypes):
    """The specialisation of the Python-source ``helper`` at ``argtypes``, typed
    now (Incompatible with its reason when it does not compile)."""
    from ..errors import UnsupportedError
    from ..typing_rules import Incompatible
    try:
        spec = inf.ctx.specialize(helper, tuple(argtypes))
    except UnsupportedError as exc:
        raise Incompatible(str(exc).rsplit(": ", 1)[-1]) from None
    if spec.return_type is None:
        raise Incompatible(f"{helper.__name__}() could not be typed")
    return spec


def bind_arguments(name: str, params: tuple, args: list, kwargs: dict) -> dict:
    """Positional and keyword arguments of a call bound to ``params`` (as Python
    binds them); Incompatible for more positional arguments than parameters (a
    TypeError in the interpreter) or an unknown or repeated keyword."""
    from ..typing_rules import Incompatible
    if len(args) > len(params):
        raise Incompatible(f"{name}() takes at most {len(params)} positional "
                           f"arguments ({len(args)} given)")
    bound = dict(zip(params, args))
    for k, v in kwargs.items():
        if k not in params or k in bound:
            raise Incompatible(f"{name}() got an unexpected argument '{k}'")
        bound[k] = v
    return bound


_templates: list = []
_by_id: dict = {}
_resolved_modules: set = set()
# modules whose functions templates name; NumPy 2 imports numpy.random and numpy.fft on
# first use (``np.fft``), so their functions resolve once they are there
_WATCHED = ("math", "cmath", "numpy", "builtins", "numpy.random", "random", "numpy.fft",
            "numpy.linalg")


def ours_function(pyfunc) -> bool:
    """Is the Python function ``pyfunc`` one of hanajit's own (``hanajit.lib``)?"""
    return (getattr(pyfunc, "__module__", None) or "").startswith("hanajit.lib.")


def ours(fn) -> bool:
    """Is the IR function ``fn`` a specialisation of hanajit's own library code?"""
    return fn.origin is not None and ours_function(fn.origin[0])


def register(template):
    """Register a CallTemplate instance, or (as a class decorator) a subclass."""
    _templates.append(template() if isinstance(template, type) else template)
    _by_id.clear()
    _resolved_modules.clear()
    return template


def _resolve_all():
    for tpl in _templates:
        for path in tpl.paths:
            mod, _, attr = path.rpartition(".")
            if mod not in sys.modules:
                continue
            obj = sys.modules[mod]
            for part in attr.split("."):
                obj = getattr(obj, part, None)
                if obj is None:
                    break
            if obj is not None:
                _by_id.setdefault(id(obj), (obj, tpl))
    _resolved_modules.update(m for m in _WATCHED if m in sys.modules)


def lookup(obj):
    """The template for a callable object, or None."""
    _load_library()
    hit = _by_id.get(id(obj))
    if hit is not None and hit[0] is obj:
        return hit[1]
    mod = getattr(obj, "__module__", None) or ""
    top = mod.split(".")[0]
    if top and top not in _resolved_modules and top in sys.modules or not _by_id:
        _resolve_all()
        hit = _by_id.get(id(obj))
        if hit is not None and hit[0] is obj:
            return hit[1]
    if any(m in sys.modules and m not in _resolved_modules for m in _WATCHED):
        # (NumPy 2 imports numpy.random and numpy.fft on first use: their functions
        # resolve then)
        _resolve_all()
        hit = _by_id.get(id(obj))
        if hit is not None and hit[0] is obj:
            return hit[1]
    if "numpy" in sys.modules and hasattr(obj, "__self__"):
        # ``np.add.reduce``: a new bound method at each access, so not by identity
        from .arrays import ufunc_methods
        return ufunc_methods.lookup(obj)
    return None


_loaded = False


def _load_library():
    global _loaded
    if not _loaded:
        _loaded = True
        for m in ("python.scalar_builtins", "python.math_functions", "python.math_ints",
                  "python.vectorize", "python.range_values",
                  "python.math_counting", "python.math_products", "python.math_norms",
                  "python.dicts", "python.sets",
                  "arrays.creation", "arrays.memory_overlap",
                  "arrays.ufuncs", "arrays.reductions", "arrays.shape", "arrays.cumulative", "arrays.joining",
                  "arrays.insert_delete", "arrays.select", "arrays.log_ranges", "arrays.split",
                  "python.growable_lists", "python.strings", "python.string_method_calls",
                  "arrays.piecewise", "linalg.tensordot",
                  "statistics.corrcoef", "indexing.index_tricks", "indexing.cross_index",
                  "indexing.index_grids", "arrays.tolist_items",
                  "arrays.squeeze_resize", "linalg.dot",
                  "arrays.methods", "parallel.regions", "statistics.bincount",
                  "sorting.sort", "sorting.sorted_list", "sorting.digitize", "sorting.isin", "sorting.set_operations", "sorting.unique_returns",
                  "arrays.rebuild", "statistics.var_std_norm",
                  "statistics.histogram", "statistics.histogram2d", "arrays.apply_functions", "numeric.sign_round",
                  "arrays.attributes", "indexing.take", "indexing.put",
                  "numeric.operator_ufuncs", "arrays.rearrange",
                  "numeric.isclose", "numeric.polynomial", "numeric.poly_calculus",
                  "numeric.gradient", "statistics.nanfuncs", "statistics.nanvar", "statistics.average", "statistics.cov", "arrays.pad", "numeric.interp",
                  "indexing.nonzero", "linalg.solve_inv_det", "linalg.decompositions",
                  "linalg.eig", "numeric.poly_fit_roots",
                  "statistics.quantile", "statistics.median", "arrays.matrix",
                  "arrays.cross_grid", "numeric.nan_to_num", "complex.angle",
                  "numeric.angles_and_gcd", "numeric.fft", "numeric.fft_frequencies",
                  "numeric.fft_nd", "numeric.float_parts", "numeric.float_steps",
                  "numeric.bessel_i0",
                  "linalg.kron_trapz", "sorting.partition", "linalg.blas", "linalg.matvec",
                  "linalg.convolve", "linalg.einsum", "linalg.chains", "linalg.lstsq_pinv",
                  "linalg.array_api", "random.generator", "random.legacy", "random.legacy_more",
                  "random.choice", "random.local_generator", "random.random_state",
                  "random.multivariate_normal", "random.legacy_vectors",
                  "random.legacy_integers", "random.saved_state",
                  "random.python_random", "gpu",
                  "python.float_sums", "python.key_functions", "python.starred_unpack",
                  "python.printing", "python.warning_calls", "python.isinstance_checks",
                  "arrays.predicates",
                  "arrays.pattern_arrays", "indexing.along_axis", "arrays.broadcast_views",
                  "arrays.block", "indexing.choose", "arrays.limits", "arrays.result_types",
                  "numeric.bit_counts", "arrays.packbits", "statistics.nancumulative",
                  "capability_checks"):
            importlib.import_module(f"hanajit.lib.{m}")


# -- lib/ as the frontend and type inference see it ----------------------------------
# They import nothing else from lib/ (an import-linter contract in the workspace
# pyproject.toml checks it).  Each function answers one question and reaches the
# module that decides it; the imports are deferred because those modules register
# their templates here.

def call_type(inf, call, tpl, args: list, kwargs: dict, line=0):
    """The result type of a call of the registered ``tpl``: NumPy's ``out=`` and
    the elementwise lifting of scalar ufuncs over arrays, else the template's own
    typer."""
    from .arrays import ufuncs
    if getattr(tpl, "array_like", ()):
        args, kwargs = sequences_as_arrays(inf, call, tpl.array_like, args, kwargs, line)
    if ufuncs.takes_out(tpl, args, kwargs):
        return ufuncs.out_typer(tpl, inf, call, args, kwargs)
    if getattr(tpl, "ufunc", False) and (ufuncs.has_array(args)
                                         or ufuncs.has_array(kwargs.values())):
        return ufuncs.lift_typer(tpl, inf, call, args, kwargs)
    return tpl.typer(inf, call, args, kwargs)


def local_generator_problem(t, value) -> str:
    """Why a variable cannot be assigned ``value`` of type ``t`` (it holds a
    random generator made in the function elsewhere than where it was made), or
    '' (``random/local_generator.py``)."""
    from .random.local_generator import local_generator_problem as problem
    return problem(t, value)


def method_type(inf, call, tpl, args: list, kwargs: dict, line=0):
    """The result type of an array method call of the template ``tpl`` (its
    ``array_like`` arguments read as arrays)."""
    args, kwargs = sequences_as_arrays(inf, call, getattr(tpl, "array_like", ()), args,
                                       kwargs, line)
    return tpl.typer(inf, call, args, kwargs)


def sequences_as_arrays(inf, call, where, args, kwargs, line):
    """NumPy reads a tuple or list display of numbers (``np.take(a, [0, 2])``,
    ``np.isin(x, (1, 2))``) as the array ``np.asarray`` makes of it: the arguments
    at ``where`` (positions and keyword names; a template's ``array_like``) that
    are such sequences become that call, typed anew.  The new argument types."""
    import numpy as np
    from ..ir import nodes as N
    from ..ir import types as T

    def numbers(t):
        return isinstance(t, T.TupleType) and bool(t.items) and all(
            (isinstance(i, T.Scalar) and not i.is_complex) or numbers(i) for i in t.items)

    def as_array(node):
        new = N.PyCall(callee=np.asarray, args=[node], name="np.asarray")
        new.known_length = len(node.type.items)     # (never empty)
        return new, inf.expr(new, line)
    args, kwargs = list(args), dict(kwargs)
    for k in where:
        if isinstance(k, int) and k < len(args) and numbers(args[k]):
            call.args[k], args[k] = as_array(call.args[k])
        elif isinstance(k, str) and k in kwargs and numbers(kwargs[k]):
            call.kwargs[k], kwargs[k] = as_array(call.kwargs[k])
    return args, kwargs


def method_template(receiver, name: str):
    """The CallTemplate of the method ``name`` of an array, a NumPy ``Generator``
    or a ``random.Random`` (``receiver`` is its type), or None."""
    from ..ir import types as T
    if isinstance(receiver, T.ArrayType):
        from .arrays.methods import method_template as find
    elif isinstance(receiver, (T.LocalBitGenType, T.SavedRandomStateType)):
        return None
    elif isinstance(receiver, T.PyRandomType):
        from .random.python_random import method_template as find
    elif isinstance(receiver, T.RandomStateType):
        from .random.random_state import method_template as find
    elif isinstance(receiver, T.GeneratorType):
        from .random.generator import method_template as find
    else:
        return None
    return find(name)


def array_operation_dtype(op: str, a, b, weak_a: bool, weak_b: bool):
    """The element type of ``a op b`` with an array operand (NumPy's promotion,
    NEP 50 for weak Python numbers); Incompatible where NumPy refuses."""
    from .arrays import elementwise
    return elementwise.result_dtype(op, a, b, weak_a, weak_b)


def broadcast_ndim(*types) -> int:
    """The number of dimensions operands of these types broadcast to."""
    from .arrays import elementwise
    return elementwise.broadcast_ndim(*types)


def comparison_type(a, b, weak_a: bool, weak_b: bool):
    """The type NumPy compares scalars of types ``a`` and ``b`` in, or None for
    Python's exact comparison."""
    from .arrays import elementwise
    return elementwise.comparison_type(a, b, weak_a, weak_b)


def matmul_type(a, b):
    """The type of ``a @ b``; Incompatible where NumPy refuses."""
    from .linalg.dot import dot_type
    return dot_type(a, b, matmul=True)


def index_type(array, index):
    """The type of ``array[index]``: the element type, or a view's array type."""
    from .indexing import views
    return views.result_type(array, index)


def attribute_type(array, attr: str):
    """The type of ``a.real`` / ``a.imag`` of an array."""
    from .arrays.attributes import attr_type
    return attr_type(array, attr)


def global_array_type(ctx, obj):
    """The type of the array ``obj`` read through a global or closure name, or
    None when ``obj`` is no array; Incompatible where it cannot be compiled."""
    from .arrays import global_arrays
    return global_arrays.global_type(ctx, obj) if global_arrays.is_global_array(obj) \
        else None


def is_global_array(obj) -> bool:
    """Is the Python object ``obj`` an array (a global array where a name reads it)?"""
    from .arrays import global_arrays
    return global_arrays.is_global_array(obj)


def lower_global_array(ref, t):
    """The value of the global array ``ref.obj`` (of type ``t``)."""
    from .arrays import global_arrays
    return global_arrays.lower(ref, t)


def constant_attribute(owner, attr: str):
    """``(value, type)`` of the attribute ``attr`` of a compile-time object
    (``np.finfo(np.float32).eps``, ``a.dtype.itemsize``), or None."""
    from .arrays.limits import constant_attribute as find
    return find(owner, attr)


def dtype_argument_type(array):
    """The type of ``a.dtype`` passed as a dtype argument."""
    from .arrays.attributes import dtype_type
    return dtype_type(array)


def range_callables():
    """``(range_len, range_item)``: the compiled callables a ``range(...)`` inside
    ``zip``/``enumerate`` of a ``for`` loop is read through."""
    from .python import range_values
    return range_values.range_len, range_values.range_item


def key_callables():
    """``(same_kinds, sorted_by_key)``: the compiled callables of ``min``/``max``
    /``sorted`` with ``key=`` (``frontend/key_functions.py``)."""
    from .python import key_functions
    return key_functions.same_kinds, key_functions.sorted_by_key


def starred_unpack_callable():
    """The compiled callable of ``first, *rest = t`` (``frontend/starred_targets.py``)."""
    from .python import starred_unpack
    return starred_unpack.starred_unpack


def range_object_callables():
    """``(range_check, range_length, range_index)``: the compiled callables of a
    range held in a name, ``len`` of one and ``r[k]`` (``frontend/range_objects.py``)."""
    from .python import range_values
    return range_values.range_check, range_values.range_length, range_values.range_index


def flat_callables():
    """``(flat_get, flat_set)``: the compiled callables ``a.flat[i]`` reads and
    writes through."""
    from .arrays import attributes
    return attributes.flat_get, attributes.flat_set


def dict_markers() -> dict:
    """``{name: marker}``: the compiled callables the operations of a dict local
    become (``frontend/dict_locals.py``; ``python/dicts.py``)."""
    from .python import dicts
    return dicts.markers()


def set_markers() -> dict:
    """``{name: marker}``: the compiled callables the operations of a set local
    become (``frontend/set_locals.py``; ``python/sets.py``)."""
    from .python import sets
    return sets.markers()


def set_display_order(code, values):
    """The adds that lay out CPython's table of a set display of the constants
    ``values`` in ``code`` (``python/set_constants.py``), or None."""
    from .python import set_constants
    return set_constants.add_order(code, values)


def index_trick(obj):
    """The callee the frontend gives a subscript of ``obj`` when ``obj`` is
    ``np.r_``, ``np.c_``, ``np.mgrid`` or ``np.ogrid`` (``indexing/index_grids``),
    else None."""
    from .indexing import index_grids
    return index_grids.marker(obj)


def tolist_item():
    """The callee of an item of ``a.tolist()`` read as a list comprehension
    (``frontend/tolist_calls.py``; ``arrays/tolist_items``)."""
    from .arrays import tolist_items
    return tolist_items.tolist_item


def vectorized_call():
    """The callee the frontend gives ``np.vectorize(f)(x)`` (``python/vectorize``)."""
    from .python import vectorize
    return vectorize.vectorized_call


def ndindex_callables():
    """``(size, item)``: the compiled callables a ``for i in np.ndindex(shape)``
    loop counts and indexes through."""
    from .arrays import attributes
    return attributes.ndindex_size, attributes.ndindex_item


def empty_of_type_callable():
    """The compiled-only callable ``empty_of_type(a)``: a new empty array of
    ``a``'s type that never reads ``a`` (the list comprehensions' empty result)."""
    from .arrays.creation import empty_of_type
    return empty_of_type


def piecewise_callables():
    """``(conds, apply)``: the compiled callables ``np.piecewise`` is built from
    (``frontend/piecewise_calls.py``): its stacked conditions, and the call of
    one function on the selected elements."""
    from .arrays import piecewise, piecewise_algorithms
    return piecewise.piecewise_conds, piecewise_algorithms.apply


def sorted_items_callable():
    """The compiled-only callable ``sorted_items(a, reverse)``: a new array of the
    1-D array ``a``'s items in ``sorted()``'s order (``frontend/sorted_lists.py``)."""
    from .sorting.sorted_list import sorted_items
    return sorted_items


def compensated_sum_callables():
    """The compiled-only questions of a ``sum`` loop (``lib/python/float_sums.py``):
    ``compensates(total, item)`` -- are both Python floats, which CPython 3.12+
    adds with a running correction? -- and ``python_int(start)``."""
    from .python.float_sums import compensates, python_int
    return compensates, python_int


def product_callables():
    """The compiled-only callables of ``math.prod``/``math.fsum`` loops
    (``lib/python/math_products.py``): ``same_kind(start, product)`` -- has the
    product the start's type? -- and ``fsum_add(state, item)``, ``fsum_total(state)``."""
    from .python.math_products import fsum_add, fsum_total, same_kind
    return same_kind, fsum_add, fsum_total


def is_static(call) -> bool:
    """Is ``call`` (typed) a question that types answer, its answer in
    ``call.plan`` (``compensates``)?"""
    return getattr(lookup(call.callee), "static", False)


def parallel_region(*args, **kwargs):
    """A ``ParallelRegion`` (``lib/parallel/regions.py``): the callable a ``prange``
    loop is outlined to."""
    from .parallel.regions import ParallelRegion
    return ParallelRegion(*args, **kwargs)


def is_parallel_region(obj) -> bool:
    from .parallel.regions import ParallelRegion
    return isinstance(obj, ParallelRegion)


def parallel_runtime():
    """The module of callables a parallel loop's generated code calls."""
    from .parallel import runtime_calls
    return runtime_calls



def str_callables() -> dict:
    """The compiled-only callables and helpers a str built at run time is made
    of (``frontend/str_locals.py``; ``python/strings.py``), by name."""
    from .python import string_method_calls, strings
    return {**strings.callables(), **string_method_calls.callables()}


def str_whitespace() -> str:
    """Every character ``str.isspace`` holds for, in the running CPython (what
    ``s.strip()`` removes: ``frontend/str_methods.py``)."""
    from .python.unicode_tables import spaces
    return "".join(map(chr, (9, 10, 11, 12, 13, 28, 29, 30, 31, 32, *spaces())))


def growable_list_callables() -> dict:
    """The compiled-only callables a growable list is built from
    (``frontend/growable_lists.py``; ``python/growable_lists.py``), by name, and
    ``sorted`` (``out.sort()``)."""
    from .python import growable_lists as g
    from .sorting.sorted_list import sorted_items
    names = ("list_new", "list_grow", "list_insert", "item_index", "store_index",
             "pop_index", "remove_at", "list_reverse", "list_index", "list_count",
             "list_contains", "list_array", "remove_index", "list_compare",
             "repeat_count")
    out = {n: getattr(g, n) for n in names}
    out["sorted"] = sorted_items
    return out

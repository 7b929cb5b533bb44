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

    def typer(self, inf, call, args: list, kwargs: dict):
        """Return the result type for argument types ``args``/``kwargs``, or raise
        :class:`hanajit.typing_rules.Incompatible` with a message."""
        raise NotImplementedError

    def lower(self, low, call, args: list, kwargs: dict):
        """Return a primitive expression for the call; ``args`` are lowered
        expressions (stable: safe to use more than once)."""
        raise NotImplementedError


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
    _resolved_modules.update(m for m in ("math", "cmath", "numpy", "builtins", "numpy.random",
                                         "random") if m in sys.modules)


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
    if "numpy" in sys.modules and "numpy" not in _resolved_modules or any(
            m in sys.modules and m not in _resolved_modules for m in ("numpy.random", "random")):
        # (NumPy 2 imports numpy.random on first use: its functions resolve then)
        _resolve_all()
        hit = _by_id.get(id(obj))
        if hit is not None and hit[0] is obj:
            return hit[1]
    return None


_loaded = False


def _load_library():
    global _loaded
    if not _loaded:
        _loaded = True
        for m in ("builtins_scalar", "mathfuncs", "numpy_alloc", "ufuncs", "reductions", "array_ops", "array_methods", "parallel", "np_counting",
                  "np_sorting", "np_shape_ops", "np_stats", "np_histogram", "np_rounding", "np_index", "np_take", "np_put", "np_arith",
                  "np_arrange", "np_isclose", "np_nanfuncs",
                  "np_interp", "np_nonzero", "np_linalg", "np_quantile", "np_median", "np_matrix",
                  "np_cross_grid", "np_nan_to_num", "np_angle", "np_kron_trapz", "np_average", "np_partition", "np_blas", "np_convolve", "np_random", "np_random_legacy", "np_random_choice", "py_random", "gpu"):
            importlib.import_module(f"hanajit.lib.{m}")

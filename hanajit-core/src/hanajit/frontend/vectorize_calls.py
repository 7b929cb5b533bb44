"""Calls of vectorized functions: ``np.vectorize(f)(x)`` written as one expression,
or ``vf(x)`` of a module-level ``vf = np.vectorize(f)`` made with no other
options, built as ``vectorized_call(f, x)`` (``lib/python/vectorize.py``, through the
registry), ``f``
passed as a function argument."""
from __future__ import annotations

import ast

from ..ir import nodes as N
from ..ir.frontend_nodes import ObjRef
from .source import resolved


def _vectorize_class():
    import numpy
    return numpy.vectorize


def _plain(v) -> bool:
    """A ``np.vectorize`` object made with ``f`` alone (no ``otypes``,
    ``excluded``, ``signature`` or ``cache``)."""
    return (v.otypes is None and not v.excluded and v.signature is None
            and not v.cache)


def build(b, e: ast.Call):
    """The value of the call ``e`` when it calls a vectorized function, else None."""
    from ..lib import registry
    inner = e.func
    if isinstance(inner, ast.Call):            # np.vectorize(f)(x)
        func = inner.func
        if not isinstance(func, (ast.Name, ast.Attribute)):
            return None
        if resolved(func, b._global_object) is not _vectorize_class():
            return None
        if len(inner.args) != 1 or inner.keywords:
            b.fail(inner, "np.vectorize() call", "only np.vectorize(f) with the "
                   "function alone compiles")
        f = b.expr(inner.args[0])
    elif isinstance(inner, ast.Name) and inner.id not in b.locals:
        v = b._global_object(inner.id)
        if not isinstance(v, _vectorize_class()):
            return None
        if not _plain(v):
            b.fail(e, "call of a np.vectorize object", f"{inner.id} was made with "
                   "options (otypes, excluded, signature, cache): only "
                   "np.vectorize(f) compiles")
        b.frozen[inner.id] = v
        f = ObjRef(v.pyfunc, getattr(v.pyfunc, "__name__", "f"))
    else:
        return None
    if e.keywords or any(isinstance(a, ast.Starred) for a in e.args):
        b.fail(e, "call of a vectorized function", "keyword or starred arguments")
    args = [b.expr(a) for a in e.args]
    return N.PyCall(callee=registry.vectorized_call(), args=[f] + args, kwargs={},
                    name="np.vectorize(f)")

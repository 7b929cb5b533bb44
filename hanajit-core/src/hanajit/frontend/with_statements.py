"""``with`` statements whose context managers change only warnings: the body.

Compiled code never emits NumPy's floating-point ``RuntimeWarning``s (nor any
other warning, nor the message of the mode ``'print'``: docs/semantics.md), so a
body run under::

    with np.errstate(divide="ignore", invalid="ignore"):     r = a / b
        r = a / b

or ``warnings.catch_warnings()`` (with ``warnings.simplefilter(...)`` /
``warnings.filterwarnings(...)`` statements inside it) computes what the body
alone computes: the ``with`` becomes its body (:func:`rewrite`, before the
builder's analyses, so they see plain statements; a ``return``/``break`` in the
body leaves it as in Python, where leaving restores the state).  What changes
behaviour falls back, saying so: an error mode ``'raise'``, ``'call'`` or
``'log'`` (NumPy raises ``FloatingPointError``, calls the callback, or writes to
the ``np.seterrcall`` object -- a ``NameError`` when none is set), ``call=``,
keywords other
than errstate's, values that are not string constants (checked here; NumPy
raises for a bad one), a warnings filter ``'error'`` (a warning becomes an
exception), ``catch_warnings(record=True)`` and other arguments, an ``as name``
that is read, and every other context manager.
"""
from __future__ import annotations

import ast
import copy
import sys
import warnings

import numpy as np

from .node_names import plain_name

_MODES = {"ignore", "warn", "print"}            # no effect on results
_ERR_KEYS = {"all", "divide", "over", "under", "invalid"}
_FILTERS = {"ignore", "always", "default", "module", "once"}
_WHAT = "with statement"


def rewrite(builder, fnode: ast.FunctionDef, assigned: set) -> ast.FunctionDef:
    """A copy of ``fnode`` with each ``with`` statement replaced by its body, or
    ``builder.fail`` naming why one cannot be (only called when ``fnode`` holds a
    ``with``)."""
    fnode = copy.deepcopy(fnode)
    w = _Withs(builder, fnode, assigned)
    for node in ast.walk(fnode):
        if isinstance(node, ast.AsyncWith):
            builder.fail(node, plain_name(node))
    w.visit(fnode)
    return fnode


class _Withs(ast.NodeTransformer):
    def __init__(self, builder, fnode, assigned):
        self.b, self.fnode, self.assigned = builder, fnode, assigned
        self.imports = _leading_imports(fnode)
        self.in_catch = 0

    def visit_With(self, node):
        catch = False
        for item in node.items:
            catch = self._item(node, item) or catch
        self.in_catch += catch
        body = [self.visit(s) for s in node.body]
        self.in_catch -= catch
        out = []
        for s in body:
            out.extend(s if isinstance(s, list) else [s] if s is not None else [])
        return out or [ast.copy_location(ast.Pass(), node)]

    def visit_Expr(self, node):
        """``warnings.simplefilter(...)`` inside ``catch_warnings()``: nothing
        (compiled code emits no warnings); other filters fall back."""
        call = node.value
        if isinstance(call, ast.Call) and \
                self._resolve(call.func) in (warnings.simplefilter, warnings.filterwarnings):
            if not self.in_catch:
                self._fail(node, "a warnings filter outside 'with "
                           "warnings.catch_warnings():' changes it for good")
            action = call.args[0] if call.args else next(
                (k.value for k in call.keywords if k.arg == "action"), None)
            if not (isinstance(action, ast.Constant) and action.value in _FILTERS):
                self._fail(node, "a warnings filter other than 'ignore', 'always', "
                           "'default', 'module' or 'once' (a string constant): 'error' "
                           "turns NumPy's warnings into exceptions")
            return None
        return self.generic_visit(node)

    def _item(self, node, item) -> bool:
        """Check one ``with`` item; True for ``warnings.catch_warnings()``."""
        call = item.context_expr
        target = self._resolve(call.func) if isinstance(call, ast.Call) else None
        if target is np.errstate:
            self._errstate(node, call)
        elif target is warnings.catch_warnings:
            if call.args or any(k.arg != "record" or not _false(k.value)
                                for k in call.keywords):
                self._fail(node, "warnings.catch_warnings() with arguments (record=True "
                           "collects warnings compiled code does not emit)")
        else:
            self._fail(node, "only 'with np.errstate(...)' and 'with "
                       "warnings.catch_warnings()' compile (their bodies' results do "
                       "not depend on them)")
        if item.optional_vars is not None:
            v = item.optional_vars
            if not isinstance(v, ast.Name) or sum(
                    isinstance(n, ast.Name) and n.id == v.id
                    for n in ast.walk(self.fnode)) > 1:
                self._fail(node, "a context manager named with 'as' and used")
            item.optional_vars = None
        return target is warnings.catch_warnings

    def _errstate(self, node, call):
        if call.args:
            self._fail(node, "np.errstate() takes keyword arguments only")
        for k in call.keywords:
            if k.arg not in _ERR_KEYS:
                self._fail(node, f"np.errstate({k.arg or '**'}=...): only all=, "
                           "divide=, over=, under= and invalid= compile")
            if not (isinstance(k.value, ast.Constant) and (
                    k.value.value in _MODES or k.value.value is None)):
                self._fail(node, f"np.errstate({k.arg}=...) with a mode other than "
                           "'ignore', 'warn' or 'print' (a string constant): 'raise', "
                           "'call' and 'log' change what the body does")

    def _resolve(self, e):
        """The object of a name or dotted attribute, or None."""
        if isinstance(e, ast.Attribute):
            base = self._resolve(e.value)
            return getattr(base, e.attr, None) if base is not None else None
        if not isinstance(e, ast.Name) or e.id in self.assigned:
            return None
        if e.id in self.imports:
            return self.imports[e.id]
        p = self.b.p
        for scope in (p.closure, p.globals):
            if e.id in scope:
                return scope[e.id]
        return None

    def _fail(self, node, detail):
        self.b.fail(node, _WHAT, detail)


def _false(e) -> bool:
    return isinstance(e, ast.Constant) and e.value in (False, None)


def _leading_imports(fnode) -> dict:
    """Names the leading ``import`` statements bind to modules already imported
    (``frontend/local_imports.py`` binds them at build time)."""
    out = {}
    for s in fnode.body:
        if isinstance(s, ast.Import):
            for a in s.names:
                if a.asname and a.name in sys.modules:
                    out[a.asname] = sys.modules[a.name]
                elif not a.asname and a.name.split(".")[0] in sys.modules:
                    out[a.name.split(".")[0]] = sys.modules[a.name.split(".")[0]]
        elif isinstance(s, ast.ImportFrom):
            module = sys.modules.get(s.module or "")
            for a in s.names:
                if module is not None and not s.level and hasattr(module, a.name):
                    out[a.asname or a.name] = getattr(module, a.name)
        elif not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant)):
            break
    return out

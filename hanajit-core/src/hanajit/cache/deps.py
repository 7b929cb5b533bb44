"""What a compiled function depends on, recorded for the disk cache and re-checked
when an entry is loaded -- without running the frontend.

A compilation reads the source of the entry function and of every jitted function
(or plain Python function) it reaches through its global and closure names, and
freezes the values of the numbers it finds there (``SCALE = 2.0``, ``mod.K``,
default arguments).  :func:`record` writes that down as a graph::

    [(code digest, [(name, value fingerprint, node or -1), ...]), ...]

node 0 being the entry function; a name bound to another function points at that
function's node.  :func:`still_valid` walks the same graph from the live function:
for each node it hashes the current code object, resolves each name in the current
module globals and closure cells and compares fingerprints.  An edit to a helper in
another module, a changed constant or a rebound name therefore invalidates the
entry, and nothing is parsed: the names come from the record.

hanajit's own helpers (``hanajit.lib``) are covered by the compiler fingerprint in
the key instead (see ``hanajit.cache.key``).
"""
from __future__ import annotations

import ast
import builtins
import inspect
import types

from ..frontend.source import attribute_chain
from ..jitted import is_jitted

try:                           # hashlib imports OpenSSL: 2-3 ms on a warm start
    from _blake2 import blake2b
except ImportError:            # pragma: no cover
    from hashlib import blake2b

_MISSING = object()


def code_digest(func) -> str | None:
    """A digest of ``func``'s code object: bytecode, constants, names and line
    table.  It changes with every edit that changes what the function does or the
    lines its messages name, but not with comments or with edits elsewhere in the
    file, and (unlike reading the source back) costs no tokenizing on a warm start."""
    code = getattr(func, "__code__", None)
    if code is None:
        return None
    return blake2b(repr(_code_parts(code)).encode(), digest_size=16).hexdigest()


def _code_parts(code) -> tuple:
    consts = tuple(_code_parts(c) if isinstance(c, types.CodeType) else _const(c)
                   for c in code.co_consts)
    lines = getattr(code, "co_linetable", None) or code.co_lnotab
    return (code.co_code, consts, code.co_names, code.co_varnames, code.co_freevars,
            code.co_cellvars, code.co_argcount, code.co_posonlyargcount,
            code.co_kwonlyargcount, code.co_flags, code.co_firstlineno, lines)


def _const(c):
    if isinstance(c, frozenset):          # ``x in {"a", "b"}``: order varies by hash
        return ("frozenset",) + tuple(sorted(repr(_const(x)) for x in c))
    if isinstance(c, tuple):
        return ("tuple",) + tuple(_const(x) for x in c)
    return (type(c).__name__, repr(c))


def resolve(func, dotted: str):
    """The value ``dotted`` (``"x"``, ``"np.sum"``, ``"helpers.K"``) names inside
    ``func``, looked up as the frontend does: closure cell, module global, builtin."""
    head, *rest = dotted.split(".")
    value = _MISSING
    code = func.__code__
    if head in code.co_freevars and func.__closure__:
        try:
            value = func.__closure__[code.co_freevars.index(head)].cell_contents
        except ValueError:
            value = _MISSING
    if value is _MISSING:
        value = func.__globals__.get(head, _MISSING)
    if value is _MISSING:
        value = getattr(builtins, head, _MISSING)
    for attr in rest:
        if value is _MISSING:
            break
        value = getattr(value, attr, _MISSING)
    return value


def _is_array(value) -> bool:
    mod = type(value).__module__
    if not (isinstance(mod, str) and mod.startswith("numpy")):
        return False
    import numpy as np
    return isinstance(value, np.ndarray)


def _jitted(value):
    return is_jitted(value)


def _python_function(value):
    """The Python function behind ``value`` whose source matters, or None."""
    if _jitted(value):
        return value.py_func
    if isinstance(value, types.FunctionType) and not getattr(
            value, "__module__", "").startswith("hanajit."):
        return value
    return None


def fingerprint(value):
    """A marshal-able value identifying ``value`` across processes."""
    if value is _MISSING:
        return ("missing",)
    if value is None or isinstance(value, (bool, int, float, complex, str)):
        return ("val", type(value).__name__, repr(value))
    if isinstance(value, tuple):
        return ("tuple",) + tuple(fingerprint(v) for v in value)
    if isinstance(value, types.ModuleType):
        return ("module", value.__name__)
    if _jitted(value):
        return ("jit", value.__module__, value.__qualname__,
                repr(sorted((k, repr(v)) for k, v in value.options.items())))
    owner = getattr(value, "__self__", None)
    if isinstance(value, types.BuiltinMethodType) and owner is not None and \
            not isinstance(owner, types.ModuleType):
        # a C method bound to an object (``random.random``, the method of the
        # module's hidden generator): by the object's type, not its address
        return ("method", type(owner).__module__, type(owner).__qualname__,
                value.__name__)
    mod = getattr(value, "__module__", None)
    name = getattr(value, "__qualname__", None) or getattr(value, "__name__", None)
    if isinstance(mod, str) and isinstance(name, str) and (
            callable(value) or isinstance(value, type)):
        return ("object", mod, name)
    # numbers of other types (NumPy scalars), dtypes: the type and the value
    return ("other", type(value).__module__, type(value).__qualname__, repr(value))


def names_used(func) -> list[str]:
    """Global and closure names (and ``a.b.c`` attribute chains on them) the body of
    ``func`` reads: what the frontend resolves and may freeze."""
    try:
        source = inspect.getsource(func)
        import textwrap
        tree = ast.parse(textwrap.dedent(source))
    except (OSError, TypeError, SyntaxError):
        return []
    fdef = next((n for n in tree.body if isinstance(n, ast.FunctionDef)), None)
    if fdef is None:
        return []
    from ..frontend.scopes import assigned_names
    a = fdef.args
    local = {x.arg for x in a.posonlyargs + a.args + a.kwonlyargs}
    local |= assigned_names(fdef)
    out = set()
    for stmt in fdef.body:
        for node in ast.walk(stmt):
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) \
                    and node.id not in local:
                out.add(node.id)
            elif isinstance(node, ast.Attribute):
                chain = attribute_chain(node)
                if chain and chain.split(".")[0] not in local:
                    out.add(chain)
    return sorted(out)




def record(func) -> list | None:
    """The dependency graph of ``func`` (see the module docstring); None when a
    function it reaches is not a Python function (nothing to check it against)."""
    nodes: list = []
    index: dict = {}

    def visit(f) -> int | None:
        if f in index:
            return index[f]
        digest = code_digest(f)
        if digest is None:
            return None
        i = index[f] = len(nodes)
        nodes.append(None)
        names = []
        for name in names_used(f):
            value = resolve(f, name)
            if _is_array(value):
                return None     # (compiled code holds its address: global_arrays)
            child = -1
            inner = _python_function(value)
            if inner is not None:
                child = visit(inner)
                if child is None:
                    return None
            names.append((name, fingerprint(value), child))
        defaults = (f.__defaults__ or (), tuple(sorted((f.__kwdefaults__ or {}).items())))
        names.append(("<defaults>", fingerprint(defaults), -1))
        nodes[i] = (digest, tuple(names))
        return i

    if visit(func) is None:
        return None
    return nodes


def still_valid(func, nodes) -> bool:
    """Does the live ``func`` (and all it reaches) still match the recorded graph?"""
    seen: dict = {}

    def check(f, i) -> bool:
        if i in seen:
            return seen[i] is f
        seen[i] = f
        digest, names = nodes[i]
        if code_digest(f) != digest:
            return False
        for name, fp, child in names:
            if name == "<defaults>":
                value = (f.__defaults__ or (),
                         tuple(sorted((f.__kwdefaults__ or {}).items())))
            else:
                value = resolve(f, name)
            if fingerprint(value) != fp:
                return False
            if child >= 0:
                inner = _python_function(value)
                if inner is None or not check(inner, child):
                    return False
        return True

    try:
        return check(func, 0)
    except Exception:          # a malformed record or a strange object: recompile
        return False

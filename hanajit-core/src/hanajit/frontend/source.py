"""Find and parse a Python function's source (first step of the frontend)."""
from __future__ import annotations

import ast
import inspect
import sys
import types
import textwrap
from dataclasses import dataclass

from ..errors import UnsupportedError


@dataclass
class ParsedFunction:
    """A function's AST with what is needed to resolve its names."""

    pyfunc: object
    node: ast.FunctionDef
    filename: str
    first_line: int
    source: str
    globals: dict
    closure: dict

    @property
    def qualname(self) -> str:
        return getattr(self.pyfunc, "__qualname__", self.node.name)


def _closure_values(pyfunc) -> dict:
    code = pyfunc.__code__
    cells = pyfunc.__closure__ or ()
    out = {}
    for name, cell in zip(code.co_freevars, cells):
        try:
            out[name] = cell.cell_contents
        except ValueError:     # empty cell (defined later in the enclosing scope)
            pass
    return out


# Python function -> its JitFunction while that compiles eagerly (signature=), when
# the decorated name is not bound yet: a recursive ``fib`` then means itself
_eager: dict = {}


class compiling_eagerly:
    """``with compiling_eagerly(py_func, jitfunc):`` -- inside, an undefined name
    equal to ``py_func.__name__`` in ``py_func``'s body resolves to ``jitfunc``."""

    def __init__(self, pyfunc, jitfunc):
        self.pyfunc, self.jitfunc = pyfunc, jitfunc

    def __enter__(self):
        _eager[self.pyfunc] = self.jitfunc

    def __exit__(self, *exc):
        _eager.pop(self.pyfunc, None)


def eager_self(pyfunc, name: str):
    """The JitFunction an undefined ``name`` in ``pyfunc`` stands for, or None."""
    jitfunc = _eager.get(pyfunc)
    if jitfunc is not None and name == getattr(pyfunc, "__name__", None):
        return jitfunc
    return None


def parse_function(pyfunc) -> ParsedFunction:
    """Return the parsed ``def`` of ``pyfunc``.

    Raises :class:`UnsupportedError` when the source cannot be retrieved (functions
    typed at the prompt, ``exec``-created functions, lambdas) or is not a plain
    ``def``.
    """
    name = getattr(pyfunc, "__qualname__", repr(pyfunc))
    code = getattr(pyfunc, "__code__", None)
    if code is None:
        raise UnsupportedError(f"{name}: not a Python function", func=name,
                               construct="non-Python callable")
    if code.co_name == "<lambda>":
        return _parse_lambda(pyfunc, name)
    ours = (getattr(pyfunc, "__module__", None) or "").startswith("hanajit.lib.")
    known = _library.get(pyfunc) if ours else None
    if known is not None and known[0] is code:
        _, node, first, source = known
        return ParsedFunction(pyfunc=pyfunc, node=node, filename=code.co_filename,
                              first_line=first, source=source,
                              globals=pyfunc.__globals__, closure=_closure_values(pyfunc))
    parsed = _parse_def(pyfunc, name, code)
    if ours:
        _library[pyfunc] = (code, parsed.node, parsed.first_line, parsed.source)
    return parsed


# hanajit's own helper (``hanajit.lib``) -> (its code, its ``def``'s AST, first line,
# source): the library's helpers parsed once per process, not once per compilation
# (the frontend reads an AST and never changes it: comprehensions, lambdas and
# prange bodies rewrite copies)
_library: dict = {}


def _parse_def(pyfunc, name, code) -> ParsedFunction:
    try:
        lines, first = inspect.getsourcelines(pyfunc)
    except (OSError, TypeError) as exc:
        raise UnsupportedError(
            f"{name}: source code is not available ({exc}); functions must be "
            "defined in a file", func=name, construct="no source") from None
    source = textwrap.dedent("".join(lines))
    try:
        tree = ast.parse(source)
    except SyntaxError as exc:
        raise UnsupportedError(f"{name}: cannot parse its source ({exc.msg})",
                               func=name, construct="source") from None
    defs = [n for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
    if not defs or isinstance(defs[0], ast.AsyncFunctionDef):
        raise UnsupportedError(f"{name}: only plain 'def' functions compile "
                               "(lambdas and async functions do not)", func=name,
                               line=first, construct="lambda")
    node = defs[0]
    ast.increment_lineno(tree, first - 1)
    return ParsedFunction(pyfunc=pyfunc, node=node, filename=code.co_filename,
                          first_line=first, source=source,
                          globals=pyfunc.__globals__, closure=_closure_values(pyfunc))


# file name -> (its source, its lambdas by line): the files lambdas were last
# compiled from (the library's own, a test module's), parsed once while unchanged
_lambda_files: dict = {}


def _parse_lambda(pyfunc, name) -> ParsedFunction:
    """``jit(lambda ...)``: the lambda found in its whole file's AST
    (``frontend.lambdas``)."""
    import linecache
    from .lambdas import lambda_function_def, lambdas_by_line
    code = pyfunc.__code__
    filename = inspect.getsourcefile(pyfunc) or code.co_filename
    source = "".join(linecache.getlines(filename, pyfunc.__globals__))
    if not source:
        raise UnsupportedError(f"{name}: source code is not available; functions "
                               "must be defined in a file", func=name, construct="no source")
    known = _lambda_files.get(filename)
    if known is not None and known[0] == source:
        by_line = known[1]
    else:
        try:
            by_line = lambdas_by_line(ast.parse(source))
        except SyntaxError as exc:
            raise UnsupportedError(f"{name}: cannot parse its source ({exc.msg})",
                                   func=name, construct="source") from None
        if len(_lambda_files) >= 32:
            _lambda_files.pop(next(iter(_lambda_files)))
        _lambda_files[filename] = (source, by_line)
    node = lambda_function_def(pyfunc, by_line, name)
    return ParsedFunction(pyfunc=pyfunc, node=node, filename=code.co_filename,
                          first_line=node.lineno, source=ast.get_source_segment(
                              source, node.body[0].value) or "",
                          globals=pyfunc.__globals__, closure=_closure_values(pyfunc))


def resolved(node, resolve_global):
    """The object the expression ``name.attr...`` names (``resolve_global(name)``,
    then each attribute), or None when it is not such an expression."""
    chain = attribute_chain(node)
    if chain is None:
        return None
    head, *attrs = chain.split(".")
    obj = resolve_global(head)
    for attr in attrs:
        obj = getattr(obj, attr, None)
    return obj


def attribute_chain(node) -> str | None:
    """``"np.linalg.norm"`` for the expression ``np.linalg.norm``; None unless it
    is a name followed by attributes."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    parts.append(node.id)
    return ".".join(reversed(parts))


# (installed packages: a plain function there is a library's, not the user's)
_LIBRARY_DIRS = ("site-packages", "dist-packages")
_OWN = frozenset({"numpy", "hanajit"} | {f"hanajit_{t}" for t in (
    "cpu", "cuda", "hip", "levelzero", "vulkan", "metal", "wasm", "fpga", "exe")})


def user_function(obj) -> bool:
    """Is ``obj`` a plain Python function of the user's own code -- called by name
    from compiled code, it is compiled for the call as a jitted function is?  Not
    one of the standard library's, NumPy's, hanajit's or an installed package's
    (those are supported by name in the registry, or not at all), nor a
    generator function."""
    if not isinstance(obj, types.FunctionType) or getattr(obj, "__hj_lambda__", False):
        return False
    module = getattr(obj, "__module__", None) or ""
    top = module.partition(".")[0]
    if top in sys.stdlib_module_names or top in _OWN:
        return False
    if obj.__code__.co_flags & 0x20:                    # CO_GENERATOR
        return False
    path = obj.__code__.co_filename.replace("\\", "/")
    return not any(f"/{d}/" in path for d in _LIBRARY_DIRS)

"""CPython's own argument errors for calls a jitted function cannot bind.

``inspect.Signature.bind`` words its errors its own way ("too many positional
arguments", "missing a required argument: 'x'").  The interpreter says
``f() takes 1 positional argument but 2 were given``, ``f() got an unexpected
keyword argument 'y'``, ``f() missing 1 required positional argument: 'x'``.  To
give exactly those, the call is replayed on a *stub*: a function with the same
parameters (names, kinds, which have defaults) and qualified name, whose body is
``pass`` -- so CPython binds it and raises its own TypeError, and the user's code
never runs."""
from __future__ import annotations

import inspect


def _stub_source(sig: inspect.Signature) -> str:
    parts, star_done = [], False
    params = list(sig.parameters.values())
    for i, p in enumerate(params):
        default = "=None" if p.default is not p.empty else ""
        if p.kind == p.VAR_POSITIONAL:
            parts.append(f"*{p.name}")
            star_done = True
        elif p.kind == p.VAR_KEYWORD:
            parts.append(f"**{p.name}")
        elif p.kind == p.KEYWORD_ONLY:
            if not star_done:
                parts.append("*")
                star_done = True
            parts.append(p.name + default)
        else:
            parts.append(p.name + default)
        if p.kind == p.POSITIONAL_ONLY and (i + 1 == len(params)
                                            or params[i + 1].kind != p.POSITIONAL_ONLY):
            parts.append("/")
    return f"def stub({', '.join(parts)}):\n    pass\n"


def make_stub(func, sig: inspect.Signature):
    """A function binding arguments as ``func`` does, with an empty body."""
    ns: dict = {}
    exec(compile(_stub_source(sig), "<hanajit argument binding>", "exec"), ns)  # noqa: S102
    stub = ns["stub"]
    code = getattr(func, "__code__", None)
    name = getattr(func, "__name__", "stub")
    qualname = getattr(code, "co_qualname", None) or getattr(func, "__qualname__", name)
    try:
        stub.__code__ = stub.__code__.replace(co_name=name, co_qualname=qualname)
    except TypeError:           # pragma: no cover - Python < 3.11 has no co_qualname
        stub.__code__ = stub.__code__.replace(co_name=name)
    stub.__name__ = name
    stub.__qualname__ = getattr(func, "__qualname__", qualname)
    return stub


def binding_error(func, sig: inspect.Signature, args: tuple, kwargs: dict):
    """The TypeError CPython raises calling ``func(*args, **kwargs)``, or None
    when CPython would bind the call."""
    try:
        make_stub(func, sig)(*args, **kwargs)
    except TypeError as exc:
        return exc.with_traceback(None)
    return None

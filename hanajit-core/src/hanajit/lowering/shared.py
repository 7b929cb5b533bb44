"""Large callees compiled once and linked, instead of again inside every caller.

hanajit's library algorithms (sorting, selection, pairwise sums, SVD ...) are
Python source compiled by hanajit itself, and each function that calls one used to
carry its own copy through LLVM: ``np.quantile`` costs about 0.5 s of LLVM in
every function that calls it.  A target that links code in the process (the CPU
engine) may instead compile such a callee as a module of its own, once per
process, and have callers call it by symbol.  This module decides what to split
and builds the pieces; :class:`~hanajit.lowering.llvm.ModuleLowering` prints them
(``exports``/``externals``); the target compiles, links and remembers them.

* :func:`roots`: the callees worth it -- reached from the entry through functions
  that stay, and whose own body with everything it calls holds at least
  :data:`MIN_STATEMENTS` statements.  Never the entry, a ``prange`` body or a
  callee that runs ``prange`` loops itself.
* :func:`piece`: the module of one root and the functions it reaches, named
  independently of the caller's compilation (``hjs_root``, ``hjs_1`` ...), so
  every caller of the same helper at the same types prints the same text -- the
  key the target remembers it by.

Raise codes are indices into a module's ``raises``; a piece has its own list, and
a caller translates a failing call's code into its own (``ModuleLowering``), so
the exception raised is the one the piece raised.

A later caller need not even infer and lower the piece's functions again: once the
target has linked a piece whose functions are all hanajit's own (``hanajit.lib``,
whose compiled code depends only on the function, its argument types and the
module's :attr:`~hanajit.ir.nodes.Module.fingerprint`), it :func:`remember` s
it (and whether it draws random numbers: a caller of a piece that draws is not
pure, as when it compiles the piece itself); the pipeline then gives a later specialisation
of the root at the same key an :func:`external` function -- a signature, no body
-- for a target with ``Capabilities.links_code``.  ``HANAJIT_SHARE_HELPERS=0``
turns both off (:func:`enabled`).

A target that keeps linked pieces for later processes (``Target.linked_pieces``)
passes its store: the signatures it remembers are saved there too, and a later
process's :func:`external` finds them there -- provided the target can link the
piece's code at once -- without inferring or lowering the piece at all.
"""
from __future__ import annotations

import os
import threading
from dataclasses import dataclass

from ..ir import nodes as N
from ..lib import registry

# a root's body and everything it calls, in statements: the pairwise sum behind
# np.sum is ~60, sorts and selections a few hundred; small helpers stay inlined
MIN_STATEMENTS = 50
ROOT = "hjs_root"


@dataclass
class Piece:
    """One root's module (``module.entry`` is ``root``) and the names its
    functions print under (``names[f]``; the root's is :data:`ROOT`)."""

    root: str
    module: N.Module
    names: dict


def _parallel_bodies(fn: N.Function) -> set:
    return {s.body[0].value.func for s in N.walk_stmts(fn.body)
            if isinstance(s, N.ParallelFor)}


def roots(module: N.Module, min_statements: int = MIN_STATEMENTS, graph=None) -> list:
    """The callees to compile apart, in the order the entry reaches them
    (``graph``: the module's ``N.call_graph``, when the caller has it)."""
    fns = module.functions
    size = {name: sum(1 for _ in N.walk_stmts(fn.body)) for name, fn in fns.items()}
    graph = N.call_graph(module) if graph is None else graph
    bodies = {name: _parallel_bodies(fn) for name, fn in fns.items()}
    parallel = set().union(*bodies.values())

    def eligible(name: str) -> bool:
        if name == module.entry or name in parallel or fns[name].external is not None:
            return False
        reach = N.reach(module, name, graph=graph)
        if module.entry in reach or any(bodies[f] for f in reach):
            return False
        # (or a helper marked ``hj_share``: small, but called once per call of
        # its caller, where a call costs nothing and a copy costs compile time)
        return (sum(size[f] for f in reach) >= min_statements
                or getattr(fns[name].origin[0] if fns[name].origin else None,
                           "hj_share", False))

    out, seen, todo = [], set(), [module.entry]
    while todo:
        name = todo.pop()
        if name in seen or name not in fns:
            continue
        seen.add(name)
        for callee in graph[name]:
            if callee in seen or callee in out:
                continue
            if eligible(callee):
                out.append(callee)
            else:
                todo.append(callee)
    return out


def piece(module: N.Module, root: str, graph=None) -> Piece:
    reach = N.reach(module, root, graph=graph)
    names = {f: (ROOT if f == root else f"hjs_{i}") for i, f in enumerate(reach)}
    sub = N.Module(entry=root, functions={f: module.functions[f] for f in reach})
    return Piece(root, sub, names)


def kept(module: N.Module, split: list, graph=None) -> set:
    """The functions the caller's module still defines: those the entry reaches
    without passing through a split root."""
    return set(N.reach(module, module.entry, stop=set(split), graph=graph))


# ------------------------------------------------------------ linked pieces
_lock = threading.Lock()
_linked: dict = {}     # (function, argument types, fingerprint) -> Function (external)


def enabled() -> bool:
    return os.environ.get("HANAJIT_SHARE_HELPERS", "1") != "0"


ours, ours_function = registry.ours, registry.ours_function


def draws(fn: N.Function) -> bool:
    """Does ``fn`` draw random numbers, touch a global random state or print (a
    call that has printed is not re-run either)?  (For a remembered piece's root,
    :func:`external`: does the piece?)"""
    if fn.external is not None:
        return fn.draws_random
    # (each statement's expressions depth first, left to right, as N.walk_expr
    # walks them: one explicit stack, this asks it of every function of a module)
    stack = []
    for st in N.walk_stmts(fn.body):
        if isinstance(st, N.ForeignCall) and st.text is not None:     # (print)
            return True
        stack.extend(reversed([e for e in N.stmt_exprs(st) if e is not None]))
        while stack:
            e = stack.pop()
            if isinstance(e, _DRAWS):
                return True
            kids = e.children()
            if kids:
                stack.extend(reversed(kids))
    return False


_DRAWS = (N.RandomBits, N.HostArray)


def remember(module: N.Module, piece: Piece, symbol: str, raises: list,
             store=None) -> None:
    """The target linked ``piece`` as ``symbol``: later specialisations of its root
    at the same key may call it without compiling it (:func:`external`).
    ``store`` (``Target.linked_pieces``): keeps it for later processes too."""
    root = module.functions[piece.root]
    fns = piece.module.functions.values()
    if module.fingerprint is None or not enabled() or not all(ours(fn) for fn in fns):
        return
    stub = N.Function(name="", params=list(root.params), arg_types=root.arg_types,
                      locals={p: root.locals[p] for p in root.params},
                      return_type=root.return_type, pyname=root.pyname,
                      filename=root.filename, can_raise=root.can_raise,
                      level="primitive", origin=root.origin,
                      external=(symbol, tuple(raises)))
    stub.returns_param, stub.numpy_result = root.returns_param, root.numpy_result
    # (a caller whose piece draws is not pure: pipeline._mark_draws asks draws())
    stub.draws_random = any(draws(fn) for fn in fns)
    key = (*root.origin, module.fingerprint)
    with _lock:
        if key in _linked:
            return
        _linked[key] = stub
    if store is not None and not any(host_arrays(fn) for fn in fns):
        store.save(key, stub)


def host_arrays(fn: N.Function) -> bool:
    """Does ``fn`` read an array of the host process (a global NumPy array, whose
    address is baked into the code)?  Such a piece is linked again in this
    process only: in another, the address means nothing."""
    return any(isinstance(sub, N.HostArray)
               for st in N.walk_stmts(fn.body)
               for e in N.stmt_exprs(st) if e is not None for sub in N.walk_expr(e))


def external(pyfunc, arg_types: tuple, fingerprint, name: str,
             store=None) -> N.Function | None:
    """A remembered piece's root for ``pyfunc`` at ``arg_types``, named ``name``
    in the caller's module, or None.  ``store`` (``Target.linked_pieces``): where
    an earlier process may have kept it (its ``load`` links the code first)."""
    if fingerprint is None or not enabled():
        return None
    key = (pyfunc, arg_types, fingerprint)
    with _lock:
        stub = _linked.get(key)
    if stub is None and store is not None and ours_function(pyfunc):
        stub = store.load(key)
        if stub is not None:
            with _lock:
                stub = _linked.setdefault(key, stub)
    if stub is None:
        return None
    fn = N.Function(**{f: getattr(stub, f) for f in (
        "params", "arg_types", "return_type", "pyname", "filename", "can_raise",
        "level", "origin", "external")}, name=name, locals=dict(stub.locals))
    fn.returns_param, fn.numpy_result = stub.returns_param, stub.numpy_result
    fn.draws_random = stub.draws_random
    return fn

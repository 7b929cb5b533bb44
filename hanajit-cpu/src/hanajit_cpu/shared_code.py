"""Large callees compiled once per process and linked by symbol.

``hanajit.lowering.shared`` picks the callees of a module worth compiling apart
(the library's sorts, selections, pairwise sums ...) and builds each one's module,
named independently of the caller.  Here each such piece is compiled by the
engine and linked into a JIT library of its own the first time its text (and
raise table) is seen in the process, then only called: a second function calling
``np.quantile`` at the same types costs no LLVM time for the quantile.  Pieces are
never freed (like the runtimes), and each caller's object imports their
addresses.  The object is also kept on disk for later processes
(``library_cache``).  A linked piece is also remembered in core (``shared.remember``), so a
later caller's pipeline gives its root as a ``Function.external`` (a signature
only) and this module just adds its address.

Not used where the object must stand alone: ``cache=True`` (the disk cache loads
it in another process), ``c_exports`` (``f.specialize``'s C symbols), and
``f.evolve()``'s compilations (their loop hints count the loops of the whole
module).  ``HANAJIT_SHARE_HELPERS=0`` turns it off.
"""
from __future__ import annotations

import hashlib
import re
import threading

from hanajit.ir import nodes as N
from hanajit.lowering import shared

from . import library_cache

_lock = threading.Lock()
_linked: dict = {}          # key -> (symbol, raises, address, keepalive)
_addresses: dict = {}       # symbol -> address


def wanted(module, options: dict) -> bool:
    return (shared.enabled() and not options.get("cache") and not options.get("c_exports")
            and getattr(module, "strategy", None) is None)


def _linked_imports(functions) -> dict:
    """The addresses of functions the pipeline gave as linked already
    (``Function.external``: pieces this module linked for earlier callers)."""
    return {fn.external[0]: _addresses[fn.external[0]] for fn in functions
            if fn.external is not None}


def link_symbol(symbol: str) -> bool:
    """Link the piece ``symbol`` (``hjs_<key>``) from the library cache, and the
    pieces it calls, unless linked already; False when an entry is missing or
    damaged (``library_cache.Signatures``: the caller is then compiled with the
    piece's functions, as without the cache)."""
    from .engine import get_engine
    key = symbol[len("hjs_"):]
    with _lock:
        if key in _linked:
            return True
    compiled = library_cache.load(key)
    if compiled is None:
        return False
    optimized, obj, raises = compiled
    eng = get_engine()
    needs = eng.imports_for(optimized)
    for other in sorted(set(re.findall(r'^declare [^@\n]*@"?(hjs_[0-9a-f]+)"?\(',
                                       optimized, re.M))):
        if not link_symbol(other):
            return False
        needs[other] = _addresses[other]
    with _lock:
        if key not in _linked:
            keepalive, addresses = eng.link(obj, [symbol], imports=needs)
            _linked[key] = (symbol, raises, addresses[symbol], keepalive)
            _addresses[symbol] = addresses[symbol]
    return True


def _compiled(eng, key, text, raises):
    """``(optimised IR, object)`` of a piece: from the library cache, or compiled
    (and kept there) -- by one process at a time (``library_cache.compiling``)."""
    if not library_cache.enabled():
        return eng.compile_object(text)
    compiled = library_cache.load(key)
    if compiled is None:
        with library_cache.compiling(key):
            compiled = library_cache.load(key)          # (written meanwhile)
            if compiled is None:
                optimized, obj = eng.compile_object(text)
                library_cache.save(key, str(optimized), obj, raises)
                return optimized, obj
    return compiled[:2]


def split(module, info, eng, share: bool = True) -> tuple[dict, dict, set | None]:
    """``(externals, imports, only)`` for ``ModuleLowering`` and the link: the
    split roots as ``name -> (symbol, raises)``, the addresses of every function
    compiled apart by symbol, and the functions the caller's module still defines
    (None: all, nothing split).  Without ``share`` only the functions the pipeline
    gave as linked already are."""
    from hanajit.lowering.llvm import ModuleLowering
    from hanajit.lowering.llvm_release import release
    from hanajit.lowering.llvm_text import module_text
    imports = _linked_imports(module.functions.values())
    # (one call graph for the roots, each piece and what the caller keeps: lowering
    # the pieces changes no body)
    graph = N.call_graph(module) if share else None
    roots = shared.roots(module, graph=graph) if share else []
    if not roots:
        return {}, imports, None
    externals = {}
    for root in roots:
        piece = shared.piece(module, root, graph=graph)
        llmod = ModuleLowering(piece.module, info, names=piece.names,
                               exports=frozenset({root})).lower()
        text = module_text(llmod)       # (str(llmod), faster)
        release(llmod)            # (freed at once, not by the cyclic collector)
        raises = list(piece.module.raises)
        key = hashlib.blake2b((text + repr(raises)).encode(), digest_size=16).hexdigest()
        with _lock:
            done = _linked.get(key)
            if done is None:
                symbol = f"hjs_{key}"
                text = re.sub(rf'@"?{shared.ROOT}"?(?![\w.$])', "@" + symbol, text)
                optimized, obj = _compiled(eng, key, text, raises)
                needs = eng.imports_for(optimized)
                needs.update(_linked_imports(piece.module.functions.values()))
                keepalive, addresses = eng.link(obj, [symbol], imports=needs)
                done = _linked[key] = (symbol, raises, addresses[symbol], keepalive)
                _addresses[symbol] = addresses[symbol]
        symbol, raises, address, _ = done
        shared.remember(module, piece, symbol, raises, store=library_cache.SIGNATURES)
        externals[root] = (symbol, raises)
        imports[symbol] = address
    return externals, imports, shared.kept(module, roots, graph=graph)

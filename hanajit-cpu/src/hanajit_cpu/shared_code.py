"""Large callees compiled once per process and linked by symbol.

``hanajit.lowering.shared`` picks the callees of a module worth compiling apart
(the library's sorts, selections, pairwise sums ...) and builds each one's module,
named independently of the caller.  Here each such piece is compiled by the
engine and linked into a JIT library of its own the first time its text (and
raise table) is seen in the process, then only called: a second function calling
``np.quantile`` at the same types costs no LLVM time for the quantile.  Pieces are
never freed (like the runtimes), and each caller's object imports their
addresses.

Not used where the object must stand alone: ``cache=True`` (the disk cache loads
it in another process), ``c_exports`` (``f.specialize``'s C symbols), and
``f.evolve()``'s compilations (their loop hints count the loops of the whole
module).  ``HANAJIT_SHARE_HELPERS=0`` turns it off.
"""
from __future__ import annotations

import hashlib
import os
import re
import threading

from hanajit.lowering import shared

_lock = threading.Lock()
_linked: dict = {}          # key -> (symbol, raises, address, keepalive)


def wanted(module, options: dict) -> bool:
    return (os.environ.get("HANAJIT_SHARE_HELPERS", "1") != "0"
            and not options.get("cache") and not options.get("c_exports")
            and getattr(module, "strategy", None) is None)


def split(module, info, eng) -> tuple[dict, dict, set | None]:
    """``(externals, imports, only)`` for ``ModuleLowering`` and the link: the
    split roots as ``name -> (symbol, raises)``, their addresses by symbol, and
    the functions the caller's module still defines (None: all, nothing split)."""
    from hanajit.lowering.llvm import ModuleLowering
    roots = shared.roots(module)
    if not roots:
        return {}, {}, None
    externals, imports = {}, {}
    for root in roots:
        piece = shared.piece(module, root)
        text = str(ModuleLowering(piece.module, info, names=piece.names,
                                  exports=frozenset({root})).lower())
        raises = list(piece.module.raises)
        key = hashlib.blake2b((text + repr(raises)).encode(), digest_size=16).hexdigest()
        with _lock:
            done = _linked.get(key)
            if done is None:
                symbol = f"hjs_{key}"
                text = re.sub(rf'@"?{shared.ROOT}"?(?![\w.$])', "@" + symbol, text)
                optimized, obj = eng.compile_object(text)
                keepalive, addresses = eng.link(obj, [symbol],
                                                imports=eng.imports_for(optimized))
                done = _linked[key] = (symbol, raises, addresses[symbol], keepalive)
        symbol, raises, address, _ = done
        externals[root] = (symbol, raises)
        imports[symbol] = address
    return externals, imports, shared.kept(module, roots)

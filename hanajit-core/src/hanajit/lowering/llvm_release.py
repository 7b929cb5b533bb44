"""Taking apart an llvmlite module once its text is made.

llvmlite's IR is one web of cycles -- the module holds its functions and each
function points back at it (``parent``), a function its blocks and arguments, a
block its instructions -- so a module dropped after ``str(module)`` waits for
Python's cyclic garbage collector, which walks every one of its objects (and all
the longer-lived ones the compilation keeps, each time a generation fills).
Cutting the containers from the top down leaves only back pointers: reference
counting frees the whole module as soon as its last name goes."""
from __future__ import annotations

from llvmlite import ir


def release(llmod: ir.Module) -> None:
    """Empty ``llmod`` (its text already made): its functions' blocks, arguments
    and return values, its globals and metadata.  ``llmod`` is unusable after."""
    for g in llmod.globals.values():
        if isinstance(g, ir.Function):
            for block in g.blocks:
                block.instructions.clear()
                block.terminator = None
            g.blocks.clear()
            g.args = ()
            g.return_value = None
    llmod.globals.clear()
    llmod.metadata.clear()
    llmod.namedmetadata.clear()
    llmod._metadatacache.clear()
    llmod.__dict__.pop("hj_weights", None)      # (llvm_types.set_weights)

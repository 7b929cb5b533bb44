"""One compiled specialisation of a jitted function, as its dispatcher keeps it."""
from __future__ import annotations


class Specialization:
    """A compiled specialisation: the IR module, the target artifact, the runner.

    A specialisation the dispatcher compiled for a call keeps no IR: its module is
    built again only when someone asks for it (``inspect_ir``, ``narrow``), by
    ``rebuild`` -- the IR of a library-heavy function is a few hundred kB of
    Python objects that running it never reads (``benchmarks/bench_memory.py``).
    The disk cache's ``CachedSpecialization`` does the same."""

    def __init__(self, arg_types, module, artifact, runner, rebuild=None, linked=None):
        self.arg_types = arg_types
        self._module = module
        self._rebuild = rebuild
        self.artifact = artifact
        self.runner = runner
        # the functions its module took as compiled apart (``Function.external``:
        # the library's pieces linked for an earlier caller), as compiled -- a
        # module rebuilt later may link more
        self.linked = linked if linked is not None else tuple(
            name for name, fn in module.functions.items()
            if fn.external is not None) if module is not None else ()

    @property
    def module(self):
        if self._module is None and self._rebuild is not None:
            self._module = self._rebuild()
        return self._module


def accepts(spec_types, arg_types, eager=False) -> bool:
    """Can a specialisation compiled for ``spec_types`` run ``arg_types``?  Only
    array layouts widen: an any-layout ("A") array specialisation takes C- and
    F-contiguous arrays of the same dtype, ndim and writeability; and for a
    function compiled eagerly (``signature=``), a signature's type takes an
    omitted argument's default (``DefaultArg``) of that type."""
    from ..ir.types import ArrayType, DefaultArg
    if len(spec_types) != len(arg_types):
        return False
    for s, a in zip(spec_types, arg_types):
        if s == a or eager and isinstance(a, DefaultArg) and s == a.base:
            continue
        if not (isinstance(s, ArrayType) and isinstance(a, ArrayType) and s.layout == "A"
                and s.dtype == a.dtype and s.ndim == a.ndim and s.readonly == a.readonly):
            return False
    return True

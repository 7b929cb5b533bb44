"""The text of an llvmlite module, as ``str(module)`` gives it, printed faster.

llvmlite prints an instruction through two string caches: ``str(instr)`` and each
value's ``get_reference()`` look up an attribute that is missing the first time, so
each instruction of a module printed once costs two caught ``AttributeError``\\ s
and a ``format`` call besides its own text (printing was 5-8% of the CPU time of
the test files that compile the most, as much as building the IR).  Here the
bodies of the module's functions are joined from each instruction's
``_to_string()`` with its reference set first; everything else -- the header,
declarations, globals, function prototypes, metadata -- is llvmlite's own
printing.  The text is the same, character for character
(``test_cpu_llvm_text.py``); where llvmlite lacks what this relies on,
``str(module)`` is used."""
from __future__ import annotations

from llvmlite import ir

# the attribute llvmlite's ``_StringReferenceCaching.get_reference`` caches in
_REF = "_StringReferenceCaching__cached_refstr"
_VOID = ir.VoidType


def _usable() -> bool:
    from llvmlite.ir import _utils, values
    return (hasattr(values.Function, "descr_prototype") and hasattr(ir.Block, "_format_name")
            and hasattr(ir.Module, "_get_metadata_lines")
            and hasattr(_utils._StringReferenceCaching, "get_reference")
            and "_StringReferenceCaching__cached_refstr"
            in _utils._StringReferenceCaching.get_reference.__code__.co_names)


USABLE = _usable()


def module_text(m: ir.Module) -> str:
    """``str(m)``."""
    if not USABLE:
        return str(m)
    lines = ['; ModuleID = "%s"' % (m.name,), 'target triple = "%s"' % (m.triple,),
             'target datalayout = "%s"' % (m.data_layout,), '']
    lines += [it.get_declaration() for it in m.get_identified_types().values()]
    for v in m.globals.values():
        lines.append(_function_text(v) if type(v) is ir.Function and v.blocks else str(v))
    lines += m._get_metadata_lines()
    return "\n".join(lines)


def _function_text(fn: ir.Function) -> str:
    """``str(fn)`` of a function with a body (``Function.descr``)."""
    buf: list = []
    fn.descr_prototype(buf)
    buf.append("{\n")
    append = buf.append
    for blk in fn.blocks:
        append(blk._format_name() + ":\n")
        for ins in blk.instructions:
            if _plain(type(ins)):
                # (NamedValue._to_string, its reference kept as get_reference keeps it)
                d = ins.__dict__
                ref = d.get(_REF)
                if ref is None:
                    ref = d[_REF] = ins._get_reference()
                line = ["  ", ref, " = "] if not isinstance(ins.type, _VOID) else ["  "]
                ins.descr(line)
                append("".join(line).rstrip() + "\n")
            else:
                append("  " + str(ins) + "\n")
    buf.append("}\n")
    return "".join(buf)


_PLAIN: dict = {}


def _plain(cls) -> bool:
    """Does an instruction of ``cls`` print and name itself as a ``NamedValue``,
    through llvmlite's two caches (``str`` is the cached ``_to_string()``,
    ``get_reference`` the cached ``_get_reference()``)?"""
    ok = _PLAIN.get(cls)
    if ok is None:
        from llvmlite.ir import _utils
        from llvmlite.ir import values
        ok = _PLAIN[cls] = (cls.__str__ is _utils._StrCaching.__str__
                            and cls.get_reference is _utils._StringReferenceCaching.get_reference
                            and cls._get_reference is values.NamedValue._get_reference
                            and cls._to_string is values.NamedValue._to_string)
    return ok

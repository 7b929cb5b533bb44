"""Load a relocatable x86-64 ELF object (what the engine emits) without LLVM.

A warm start from the disk cache should not pay for importing llvmlite's binding
(about 40 ms: a 170 MB shared library and its Python wrappers) just to link a few
kilobytes of code, so this module does what ORC's linker does for the objects
hanajit produces: it lays the allocated sections out in one private mapping, gives
every external symbol a GOT slot and a jump stub, applies the relocations, and
makes the code pages read+execute (writable sections, such as the error word of
the C export, get pages of their own that stay read+write).  The code is freed when the returned keepalive is
garbage-collected.

Only what LLVM emits for ``reloc=pic`` on x86-64 Linux is handled (``R_X86_64_64``,
``PC32``, ``PLT32``, ``PC64``, ``GOTPCREL``, ``GOTPCRELX``, ``REX_GOTPCRELX``);
anything else raises :class:`Unsupported` and the caller links through ORC instead.
"""
from __future__ import annotations

import ctypes
import mmap
import os
import struct
import sys


class Unsupported(Exception):
    """This object (or this host) needs the LLVM linker."""


_R_64, _R_PC32, _R_PLT32, _R_GOTPCREL, _R_PC64 = 1, 2, 4, 9, 24
_R_GOTPCRELX, _R_REX_GOTPCRELX = 41, 42
_SHF_WRITE, _SHF_ALLOC, _SHT_NOBITS, _SHT_RELA, _SHT_SYMTAB = 0x1, 0x2, 8, 4, 2
_STUB = 16                         # jmp *slot(%rip); padding
_libc = None


def available() -> bool:
    return sys.platform.startswith("linux") and os.uname().machine == "x86_64"


def _process_symbol(name: str) -> int:
    global _libc
    if _libc is None:
        _libc = ctypes.CDLL(None)
    try:
        return ctypes.cast(getattr(_libc, name), ctypes.c_void_p).value
    except AttributeError:
        raise Unsupported(f"undefined symbol {name}") from None


class Image:
    """A loaded object: its mapping (freed with this object) and symbol addresses."""

    def __init__(self, mapping, size):
        self._map = mapping
        self.size = size


def link(obj: bytes, exports: list, imports: dict | None = None):
    """Load ``obj``; return ``(keepalive, {name: address})`` for ``exports``."""
    if not available():
        raise Unsupported("not x86-64 Linux")
    if obj[:4] != b"\x7fELF" or obj[4] != 2 or obj[5] != 1 or \
            struct.unpack_from("<H", obj, 18)[0] != 62:
        raise Unsupported("not a little-endian x86-64 ELF64 object")
    shoff, = struct.unpack_from("<Q", obj, 0x28)
    shentsize, shnum = struct.unpack_from("<HH", obj, 0x3A)
    secs = [struct.unpack_from("<IIQQQQIIQQ", obj, shoff + i * shentsize)
            for i in range(shnum)]
    # (name, type, flags, addr, offset, size, link, info, addralign, entsize)

    # 1. symbols
    symtab = next((s for s in secs if s[1] == _SHT_SYMTAB), None)
    if symtab is None:
        raise Unsupported("no symbol table")
    strtab = secs[symtab[6]]
    syms = []
    for k in range(symtab[5] // 24):
        name_off, info, _other, shndx, value, _size = struct.unpack_from(
            "<IBBHQQ", obj, symtab[4] + k * 24)
        end = obj.index(b"\0", strtab[4] + name_off)
        syms.append((obj[strtab[4] + name_off:end].decode(), info, shndx, value))

    # 2. relocations of loaded sections; GOT slots (every symbol a GOT relocation
    #    names) and jump stubs (external call targets)
    loaded = {i for i, s in enumerate(secs) if s[2] & _SHF_ALLOC and s[5]}
    relocs = []
    slots: dict = {}
    stubs_of: dict = {}
    for r in secs:
        if r[1] != _SHT_RELA or r[7] not in loaded:
            continue
        for k in range(r[5] // 24):
            off, info, addend = struct.unpack_from("<QQq", obj, r[4] + k * 24)
            kind, si = info & 0xFFFFFFFF, info >> 32
            relocs.append((r[7], off, kind, si, addend))
            external = syms[si][2] == 0
            if kind in (_R_GOTPCREL, _R_GOTPCRELX, _R_REX_GOTPCRELX) or (
                    external and kind in (_R_PLT32, _R_64)):
                slots.setdefault(si, len(slots))
            if external and kind == _R_PLT32:
                stubs_of.setdefault(si, len(stubs_of))

    # 3. layout: code and read-only data, the GOT and the stubs (made read+execute),
    #    then, from the next page on, writable sections (.data, .bss: stay read+write)
    base_of: dict = {}

    def place(pos, writable):
        for i in sorted(loaded):
            s = secs[i]
            if bool(s[2] & _SHF_WRITE) == writable:
                align = max(s[8], 1)
                pos = (pos + align - 1) // align * align
                base_of[i] = pos
                pos += s[5]
        return pos

    got = (place(0, False) + 15) // 16 * 16
    stubs = got + 8 * len(slots)
    rx_size = _pages(stubs + _STUB * len(stubs_of))
    size = _pages(place(rx_size, True))
    mapping = mmap.mmap(-1, size, prot=mmap.PROT_READ | mmap.PROT_WRITE)
    view = (ctypes.c_char * size).from_buffer(mapping)
    base = ctypes.addressof(view)
    for i, off in base_of.items():
        s = secs[i]
        if s[1] != _SHT_NOBITS:
            mapping[off:off + s[5]] = obj[s[4]:s[4] + s[5]]

    imports = imports or {}

    def address(si):
        name, _info, shndx, value = syms[si]
        if shndx == 0:
            return imports.get(name) or _process_symbol(name)
        if shndx not in base_of:
            raise Unsupported(f"symbol {name!r} in a section that is not loaded")
        return base + base_of[shndx] + value

    for si, k in slots.items():
        struct.pack_into("<Q", mapping, got + 8 * k, address(si))
    for si, k in stubs_of.items():
        # jmp *[rip + disp32], the displacement counted from the next instruction
        disp = (got + 8 * slots[si]) - (stubs + _STUB * k + 6)
        struct.pack_into("<BBi", mapping, stubs + _STUB * k, 0xFF, 0x25, disp)

    # 4. relocations
    for sec, off, kind, si, addend in relocs:
        where = base_of[sec] + off
        p = base + where
        if kind in (_R_GOTPCREL, _R_GOTPCRELX, _R_REX_GOTPCRELX):
            _put32(mapping, where, base + got + 8 * slots[si] + addend - p)
        elif kind == _R_PLT32 and si in stubs_of:
            _put32(mapping, where, base + stubs + _STUB * stubs_of[si] + addend - p)
        elif kind in (_R_PC32, _R_PLT32):
            _put32(mapping, where, address(si) + addend - p)
        elif kind == _R_64:
            struct.pack_into("<Q", mapping, where, (address(si) + addend) % 2**64)
        elif kind == _R_PC64:
            struct.pack_into("<q", mapping, where, address(si) + addend - p)
        else:
            raise Unsupported(f"relocation type {kind}")

    out = {}
    by_name = {syms[i][0]: i for i in range(len(syms)) if syms[i][2] != 0}
    for name in exports:
        if name not in by_name:
            raise Unsupported(f"{name} is not defined")
        out[name] = address(by_name[name])
    libc = ctypes.CDLL(None, use_errno=True)
    prot = mmap.PROT_READ | mmap.PROT_EXEC
    if libc.mprotect(ctypes.c_void_p(base), ctypes.c_size_t(rx_size), prot) != 0:
        raise Unsupported(f"mprotect failed (errno {ctypes.get_errno()})")
    image = Image(mapping, size)
    image._view = view
    return image, out


def _pages(n: int) -> int:
    return max((n + mmap.PAGESIZE - 1) // mmap.PAGESIZE, 1) * mmap.PAGESIZE


def _put32(mapping, where, value):
    if not -2**31 <= value < 2**31:
        raise Unsupported("a 32-bit displacement does not fit")
    struct.pack_into("<i", mapping, where, value)


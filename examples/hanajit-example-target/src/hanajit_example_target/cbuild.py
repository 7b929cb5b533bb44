"""Primitive IR -> C99 -> a shared library -> a ctypes callable.

This is the whole backend of the ``example`` target, and the template for a
third-party one that prints source code:

1. :func:`hanajit.toolkit.c_family.emit_c_source` prints the primitive IR module as
   C99 (every Python semantic is already explicit in the IR: the emitter only
   spells primitive operations);
2. :func:`export_wrapper` adds one exported function with a flat ABI that ctypes can
   call: scalars by value, each array as ``data, shape[], strides[]``, the result's
   leaves written to an ``int64_t`` and a ``double`` buffer;
3. :func:`build` runs the C compiler into a shared library;
4. :func:`make_runner` loads it with ctypes and turns Python arguments into the
   flat ABI and the leaves back into Python values (raise codes into exceptions).
"""
from __future__ import annotations

import ctypes
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import numpy as np

from hanajit.errors import UnsupportedError
from hanajit.ir import types as T
from hanajit.toolkit.c_family import C99, c_identifier, emit_c_source

EXPORT = "hj_example_entry"


def find_cc() -> str | None:
    """The C compiler: ``$CC``, else ``cc``, ``gcc`` or ``clang`` on ``PATH``."""
    for name in (os.environ.get("CC"), "cc", "gcc", "clang"):
        if name and shutil.which(name):
            return shutil.which(name)
    return None


def leaves(t: T.Type) -> list:
    """(C member path, scalar type) of each leaf of a result type."""
    if isinstance(t, T.TupleType):
        return [(f".f{i}{p}", s) for i, it in enumerate(t.items) for p, s in leaves(it)]
    if t == T.NONE:
        return []
    if isinstance(t, T.Scalar):
        return [("", t)]
    raise UnsupportedError(f"results of type {t} are outside the example target "
                           "(it returns scalars and tuples of them)",
                           construct=f"return type {t}")


def export_wrapper(module, src) -> str:
    """C99 text of ``int32_t hj_example_entry(int64_t *err, int64_t *iout,
    double *fout, <flat arguments>)``: calls the entry, returns 1 when it raised
    (``err[0]`` the raise code, ``err[1..3]`` the integers its message formats)."""
    fn = module.functions[module.entry]
    params, setup, call = [], [], []
    for k, (p, t) in enumerate(zip(fn.params, fn.arg_types)):
        name = f"a{k}"
        if isinstance(t, T.ArrayType):
            elem = C99.type_name(t.dtype.kind, t.dtype.bits)
            params += [f"{elem} *{name}", f"const int64_t *{name}_shape",
                       f"const int64_t *{name}_strides"]
            shape = ", ".join(f"{name}_shape[{d}]" for d in range(t.ndim))
            strides = ", ".join(f"{name}_strides[{d}]" for d in range(t.ndim))
            setup.append(f"    {src.array_types[(t.dtype, t.ndim)]} {name}_arr = "
                         f"{{{name}, {{{shape}}}, {{{strides}}}}};")
            call.append(f"{name}_arr")
        else:
            params.append(f"{C99.type_name(t.kind, t.bits)} {name}")
            call.append(name)
    entry = c_identifier(module.entry)
    rt = fn.return_type
    slot = "uint8_t" if rt == T.NONE else _ctype(rt, src)
    head = ["int64_t *err", "int64_t *iout", "double *fout"] + params
    lines = [f"int32_t {EXPORT}({', '.join(head)}) {{", *setup, f"    {slot} value = {{0}};"]
    if fn.can_raise:
        lines.append(f"    if ({entry}({', '.join(['err', '&value'] + call)})) return 1;")
    elif rt != T.NONE:
        lines.append(f"    value = {entry}({', '.join(call)});")
    else:
        lines.append(f"    {entry}({', '.join(call)});")
    ints = floats = 0
    for path, t in leaves(rt):
        if t.is_float:
            lines.append(f"    fout[{floats}] = (double)value{path};")
            floats += 1
        else:
            lines.append(f"    iout[{ints}] = (int64_t)value{path};")
            ints += 1
    lines += ["    (void)value;", "    return 0;", "}", ""]
    return "\n".join(lines)


def _ctype(t, src) -> str:
    if isinstance(t, T.TupleType):
        return src.tuple_types[t]
    return C99.type_name(t.kind, t.bits)


def c_source(module) -> str:
    """The C99 translation unit: the emitted module plus the exported wrapper."""
    fn = module.functions[module.entry]
    leaves(fn.return_type)          # refuse array results before printing anything
    src = emit_c_source(module, C99)
    return src.text + "\n" + export_wrapper(module, src)


def build(text: str) -> bytes:
    """Compile C99 ``text`` into a shared library; return its bytes."""
    cc = find_cc()
    if cc is None:
        raise UnsupportedError("the example target needs a C compiler (cc, gcc, clang "
                               "or $CC)", construct="C compiler")
    with tempfile.TemporaryDirectory(prefix="hanajit-example-") as tmp:
        return _build_in(cc, text, Path(tmp))


def _build_in(cc: str, text: str, workdir: Path) -> bytes:
    c_file, so_file = workdir / "kernel.c", workdir / "kernel.so"
    c_file.write_text(text, encoding="utf-8")
    # -ffp-contract=off: no fused multiply-add, Python rounds every operation
    proc = subprocess.run([cc, "-std=c99", "-O1", "-ffp-contract=off", "-fPIC", "-shared",
                           "-o", str(so_file), str(c_file), "-lm"],
                          capture_output=True, text=True, timeout=120)
    if proc.returncode:
        raise RuntimeError(f"the C compiler failed:\n{proc.stderr}\n{text}")
    return so_file.read_bytes()


def load_library(image: bytes) -> ctypes.CDLL:
    """Load a shared library from its bytes (written to a temporary file that is
    removed once loaded: the mapping stays)."""
    with tempfile.TemporaryDirectory(prefix="hanajit-example-") as tmp:
        path = Path(tmp) / "kernel.so"
        path.write_bytes(image)
        return ctypes.CDLL(str(path))


_CTYPES = {("b", 1): ctypes.c_bool, ("f", 32): ctypes.c_float, ("f", 64): ctypes.c_double,
           **{(k, b): getattr(ctypes, f"c_{'u' if k == 'u' else ''}int{b}")
              for k in "iu" for b in (8, 16, 32, 64)}}


def make_runner(image: bytes, fn, raises: list, fallback):
    """A Python callable running the exported wrapper of the library ``image``."""
    lib = load_library(image)
    cfunc = getattr(lib, EXPORT)
    argtypes = [ctypes.POINTER(ctypes.c_int64), ctypes.POINTER(ctypes.c_int64),
                ctypes.POINTER(ctypes.c_double)]
    for t in fn.arg_types:
        if isinstance(t, T.ArrayType):
            argtypes += [ctypes.c_void_p] * 3
        else:
            argtypes.append(_CTYPES[(t.kind, t.bits)])
    cfunc.argtypes = argtypes
    cfunc.restype = ctypes.c_int32
    outs = leaves(fn.return_type)
    writes = any(isinstance(t, T.ArrayType) and not t.readonly for t in fn.arg_types)

    def flat(args, keep):
        out = []
        for v, t in zip(args, fn.arg_types):
            if isinstance(t, T.ArrayType):
                shape = np.array(v.shape, dtype=np.int64)
                strides = np.array(v.strides, dtype=np.int64)
                keep += [shape, strides]
                out += [v.ctypes.data, shape.ctypes.data, strides.ctypes.data]
            elif t.is_bool:
                out.append(bool(v))
            elif t.is_int:
                out.append(int(v))
            else:
                out.append(float(v))
        return out

    def box(iout, fout):
        ints, floats, values = iter(iout), iter(fout), []
        for _, t in outs:
            if t.is_float:
                values.append(next(floats))
            elif t.is_bool:
                values.append(bool(next(ints)))
            else:
                v = next(ints)
                values.append(v + (1 << 64) if not t.is_signed and v < 0 else v)
        return _unflatten(fn.return_type, iter(values))

    def run(*args):
        keep: list = []
        err = (ctypes.c_int64 * 4)()
        iout = (ctypes.c_int64 * max(1, len(outs)))()
        fout = (ctypes.c_double * max(1, len(outs)))()
        if cfunc(err, iout, fout, *flat(args, keep)):
            return _raise(raises[err[0] - 1], tuple(err[1:]), fallback, args, writes)
        return box(iout, fout)

    run.library = lib
    return run


def _unflatten(t, values):
    if isinstance(t, T.TupleType):
        return tuple(_unflatten(it, values) for it in t.items)
    if t == T.NONE:
        return None
    return next(values)


def _raise(entry, ints, fallback, args, writes):
    from hanajit.errors import RERUN, kernel_exception
    from hanajit.lib.python.helpers import Deopt
    exc, message, deopt = entry
    if deopt == RERUN and not writes:     # the interpreter's own
        return fallback(*args)
    if deopt is True or exc is Deopt:
        if writes:
            raise UnsupportedError(f"{getattr(fallback, '__qualname__', fallback)}: "
                                   f"the compiled code cannot represent Python's result "
                                   f"({message}) and the function writes to its "
                                   "arguments, so it cannot be re-run in the interpreter")
        # Python's answer is outside what the compiled code represents (an int
        # beyond 64 bits ...): the call is pure, so the interpreter gives it
        return fallback(*args)
    raise kernel_exception(exc, message, ints)

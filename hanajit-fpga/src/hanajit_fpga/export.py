"""``f.export_fpga(prefix, sig=None, part=None, clock_ns=None, samples=None,
depth=None)``.

Files, for ``prefix="out/saxpy"``: ``saxpy_hls.cpp``, ``saxpy_tb.cpp``,
``saxpy_hls.tcl`` and ``saxpy.ll``.  The testbench's expected values come from
running the same specialisation on the CPU JIT now; samples where CPython's answer
cannot be represented (a deoptimisation) are left out.

A kernel outside the HLS C++ subset (complex numbers, arrays it allocates or
returns) still gets ``saxpy.ll`` and a TCL stub saying why there is no C++; the
result's ``cpp`` and ``tb`` are None and a :class:`HanaJitFallbackWarning` names
the function and the refused construct with its line.
"""
from __future__ import annotations

import itertools
import warnings
from pathlib import Path
from typing import NamedTuple

from hanajit.errors import HanaJitFallbackWarning, UnsupportedError
from hanajit.ir import types as T

DEFAULT_SAMPLES = {"b": [True, False, True], "i": [3, -7, 10, 0, 1],
                   "u": [3, 7, 10, 0, 1], "f": [1.5, -2.25, 0.5, 3.0, 0.0],
                   "c": [1.5 + 0.5j, -2.0 + 1.0j, 0.5 - 0.25j, 0j]}
N_DEFAULT_SAMPLES = 4


class FpgaExport(NamedTuple):
    """What ``export_fpga`` wrote (``cpp`` and ``tb`` are None for a kernel outside
    the HLS C++ subset: then ``tcl`` is a stub and ``ll`` the only source)."""

    ll: Path
    tcl: Path
    cpp: Path | None
    tb: Path | None


DEFAULT_SHAPES = {1: (5,), 2: (3, 4), 3: (2, 2, 3)}


def _default_array(t: T.ArrayType, k: int):
    """A small array of the per-type values (shape by ``ndim``; 4 each way else)."""
    import numpy as np
    values = DEFAULT_SAMPLES[t.dtype.kind]
    shape = DEFAULT_SHAPES.get(t.ndim, (2,) * t.ndim)
    n = int(np.prod(shape))
    flat = [values[(k + j) % len(values)] for j in range(n)]
    order = "F" if t.layout == "F" else "C"
    return np.array(flat, dtype=_np_dtype(t.dtype)).reshape(shape, order=order)


def _np_dtype(t: T.Scalar):
    import numpy as np
    return np.dtype(np.bool_ if t.is_bool else f"{t.kind}{t.bits // 8}")


def default_samples(arg_types) -> list:
    """Sensible inputs per type, staggered so arguments differ across samples."""
    out = []
    for k in range(N_DEFAULT_SAMPLES):
        out.append(tuple(_default_array(t, k + i) if isinstance(t, T.ArrayType) else
                         DEFAULT_SAMPLES[t.kind][(k + i) % len(DEFAULT_SAMPLES[t.kind])]
                         for i, t in enumerate(arg_types)))
    return out


class _Deopt(Exception):
    pass


def port_depths(fn, samples, depth) -> dict:
    """``{array argument: m_axi depth}`` from ``depth`` (None, an int, or a dict
    by argument name) and the samples."""
    import numpy as np
    arrays = [p for p, t in zip(fn.params, fn.arg_types) if isinstance(t, T.ArrayType)]
    given = depth if isinstance(depth, dict) else \
        dict.fromkeys(arrays, depth) if depth is not None else {}
    unknown = set(given) - set(arrays)
    if unknown:
        raise ValueError(f"depth names {sorted(unknown)}, which are not array "
                         f"arguments of {fn.pyname or fn.name} ({arrays})")
    out = {}
    for p in arrays:
        d = given.get(p)
        if d is None:
            k = fn.params.index(p)
            d = max((int(np.size(s[k])) for s in samples if k < len(s)), default=1)
        if isinstance(d, bool) or not isinstance(d, (int, np.integer)) or d < 1:
            raise ValueError(f"depth for {p!r} must be a positive int, not {d!r}")
        out[p] = max(int(d), 1)
    return out


def reference_cases(jitfunc, sig, module, samples) -> list:
    """(args, code, expected leaves) for each sample, from the CPU JIT."""
    from hanajit import plugins
    cpu = plugins.get_target("cpu")
    ref_module = jitfunc.ir_module(sig, allocation=False)   # the kit's semantics
    artifact = cpu.compile(ref_module, dict(getattr(jitfunc, "options", {})))

    def deopt(*args):
        raise _Deopt

    run = cpu.load(artifact, deopt)
    fn = module.functions[module.entry]
    cases = []
    for args in samples:
        args = tuple(_dense(a, t) for a, t in zip(args, fn.arg_types))
        work = tuple(a.copy(order="K") if isinstance(t, T.ArrayType) else a
                     for a, t in zip(args, fn.arg_types))
        after = [w if isinstance(t, T.ArrayType) else None
                 for w, t in zip(work, fn.arg_types)]
        try:
            value = run(*work)
        except _Deopt:
            continue
        except Exception as exc:
            code = _code_of(module, exc)
            if code is not None:
                cases.append((args, code, [], after))
            continue
        cases.append((args, 0, _flatten(value, fn.return_type), after))
    return cases


def _dense(value, t):
    """An array sample as the dense array of the port's dtype and order."""
    if not isinstance(t, T.ArrayType):
        return value
    import numpy as np
    a = np.asarray(value)
    if a.dtype != _np_dtype(t.dtype) or a.ndim != t.ndim:
        raise TypeError(f"sample array of dtype {a.dtype} and {a.ndim} dimension(s) "
                        f"does not fit {t}")
    return np.array(a, order="F" if t.layout == "F" else "C")


def _code_of(module, exc):
    """The raise code whose class and message (a template where the IR formats
    run-time values into ``{}``) match ``exc``."""
    import re

    from hanajit.errors import Field, kernel_message_parts
    for i, (cls, message, deopt) in enumerate(module.raises):
        pattern = "".join(".*?" if isinstance(part, Field) else re.escape(part)
                          for part in kernel_message_parts(message))
        if type(exc) is cls and deopt is not True and re.fullmatch(pattern, str(exc)):
            return i + 1
    return None


def _flatten(value, t):
    if isinstance(t, T.TupleType):
        return list(itertools.chain.from_iterable(
            _flatten(v, it) for v, it in zip(value, t.items)))
    if t == T.NONE:
        return []
    return [value]


def export_fpga(jitfunc, prefix, sig=None, part=None, clock_ns=None,
                samples=None, depth=None) -> FpgaExport:
    """Exporter ``fpga``: write a Vitis HLS kit for a function of scalars and
    arrays (``m_axi`` ports).

    ``part`` defaults to ``xcu250-figd2104-2L-e`` (Alveo U250) and ``clock_ns`` to
    3.3.  ``samples`` is a list of argument tuples for the testbench (default:
    four per-type samples; NumPy arrays for array arguments).  For a kernel
    outside the transpilable subset only ``<prefix>.ll`` and a TCL stub saying
    why are written, ``cpp`` and ``tb`` are None, and a HanaJitFallbackWarning
    gives the function and the refused construct (with its line).

    ``depth`` is the ``depth=`` of each ``m_axi`` pragma: the number of elements
    HLS co-simulation allocates for the port.  One int for every array argument,
    or a dict by argument name; by default (and for names a dict leaves out) the
    largest element count of that argument among the samples."""
    from hanajit import plugins
    # one copy of each loop nest: in hardware a second copy is area, not speed;
    # nothing allocated (HLS C++ has no heap)
    module = jitfunc.ir_module(sig, general_copies=True, allocation=False)
    target = plugins.get_target("fpga")
    name = getattr(jitfunc, "__name__", None) or module.entry
    fn = module.functions[module.entry]
    if samples is None:
        samples = default_samples(fn.arg_types)
    depths = port_depths(fn, samples, depth)
    try:
        artifact = target.compile(module, {"name": name, "depth": depths})
    except UnsupportedError as exc:
        # the IR flows (Vitis HLS's LLVM front end, CIRCT) take what C++ cannot say
        paths = target.export(target.ir_artifact(module, name, str(exc)), prefix,
                              part=part, clock_ns=clock_ns)
        warnings.warn(f"export_fpga: {name} is outside the HLS C++ subset, so only "
                      f"{paths.ll.name} and a TCL stub were written: {exc}",
                      HanaJitFallbackWarning, stacklevel=3)
        return paths
    cases = reference_cases(jitfunc, sig, module, samples)
    return target.export(artifact, prefix, cases=cases, part=part, clock_ns=clock_ns)

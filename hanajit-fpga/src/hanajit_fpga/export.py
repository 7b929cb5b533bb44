"""``f.export_fpga(prefix, sig=None, part=None, clock_ns=None, samples=None)``.

Files, for ``prefix="out/saxpy"``: ``saxpy_hls.cpp``, ``saxpy_tb.cpp``,
``saxpy_hls.tcl`` and ``saxpy.ll``.  The testbench's expected values come from
running the same specialisation on the CPU JIT now; samples where CPython's answer
cannot be represented (a deoptimisation) are left out.
"""
from __future__ import annotations

import itertools
from pathlib import Path
from typing import NamedTuple

from hanajit.ir import types as T

DEFAULT_SAMPLES = {"b": [True, False, True], "i": [3, -7, 10, 0, 1],
                   "u": [3, 7, 10, 0, 1], "f": [1.5, -2.25, 0.5, 3.0, 0.0]}
N_DEFAULT_SAMPLES = 4


class FpgaExport(NamedTuple):
    """What ``export_fpga`` wrote."""

    ll: Path
    tcl: Path
    cpp: Path
    tb: Path


def default_samples(arg_types) -> list:
    """Sensible inputs per type, staggered so arguments differ across samples."""
    out = []
    for k in range(N_DEFAULT_SAMPLES):
        out.append(tuple(DEFAULT_SAMPLES[t.kind][(k + i) % len(DEFAULT_SAMPLES[t.kind])]
                         for i, t in enumerate(arg_types)))
    return out


class _Deopt(Exception):
    pass


def reference_cases(jitfunc, sig, module, samples) -> list:
    """(args, code, expected leaves) for each sample, from the CPU JIT."""
    from hanajit import plugins
    cpu = plugins.get_target("cpu")
    ref_module = jitfunc.ir_module(sig)
    artifact = cpu.compile(ref_module, dict(getattr(jitfunc, "options", {})))

    def deopt(*args):
        raise _Deopt

    run = cpu.load(artifact, deopt)
    fn = module.functions[module.entry]
    cases = []
    for args in samples:
        args = tuple(args)
        try:
            value = run(*args)
        except _Deopt:
            continue
        except Exception as exc:
            code = _code_of(module, exc)
            if code is not None:
                cases.append((args, code, []))
            continue
        cases.append((args, 0, _flatten(value, fn.return_type)))
    return cases


def _code_of(module, exc):
    for i, (cls, message, deopt) in enumerate(module.raises):
        if type(exc) is cls and str(exc) == message and not deopt:
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
                samples=None) -> FpgaExport:
    """Exporter ``fpga``: write a Vitis HLS kit for a scalar function.

    ``part`` defaults to ``xcu250-figd2104-2L-e`` (Alveo U250) and ``clock_ns`` to
    3.3.  ``samples`` is a list of argument tuples for the testbench (default:
    four per-type samples).  A kernel outside the transpilable subset raises
    UnsupportedError naming the construct, before any file is written."""
    from hanajit import plugins
    module = jitfunc.ir_module(sig)
    target = plugins.get_target("fpga")
    name = getattr(jitfunc, "__name__", None) or module.entry
    artifact = target.compile(module, {"name": name})
    fn = module.functions[module.entry]
    if samples is None:
        samples = default_samples(fn.arg_types)
    cases = reference_cases(jitfunc, sig, module, samples)
    return target.export(artifact, prefix, cases=cases, part=part, clock_ns=clock_ns)

"""Which CPU the host target generates code for.

By default the host's own CPU: LLVM's name for it and its exact feature list.
``HANAJIT_CPU_NAME`` and ``HANAJIT_CPU_FEATURES`` choose another, as Numba's
``NUMBA_CPU_NAME`` / ``NUMBA_CPU_FEATURES`` do: a baseline such as ``x86-64-v2`` or
``x86-64-v3`` gives machine code -- and disk cache entries, whose key then names the
chosen CPU instead of the host's -- that every machine of a mixed cluster can run,
and lets the test suite check what it asserts on a CPU other than the host's.

* ``HANAJIT_CPU_NAME``: an LLVM CPU name (``x86-64``, ``x86-64-v2``, ``x86-64-v3``,
  ``x86-64-v4``, ``skylake-avx512``, ``znver4`` ...) or ``host``.  Set alone, the
  features are that CPU's own.
* ``HANAJIT_CPU_FEATURES``: an LLVM feature string (``+avx2,+fma,-avx512f``) added to
  the chosen CPU's; set alone, it modifies the host CPU's.

Code for a CPU with vector instructions this host lacks compiles (``inspect_llvm``,
``inspect_asm``) but stops the process with an illegal instruction when it runs;
hanajit warns once when the choice needs such instructions.
"""
from __future__ import annotations

import os
import re
import warnings

# vector ISA -> (an IR probe, the instruction its assembly holds only when the
# chosen CPU has the ISA: AVX without AVX2 still returns <8 x i32> in a ymm
# register, but adds it as two xmm halves)
_PROBES = {
    "avx512f": ("define <8 x double> @p(<8 x double> %a, <8 x double> %b) {\n"
                "  %c = fadd <8 x double> %a, %b\n  ret <8 x double> %c\n}\n",
                r"vaddpd\s[^\n]*%zmm"),
    "avx2": ("define <8 x i32> @p(<8 x i32> %a, <8 x i32> %b) {\n"
             "  %c = add <8 x i32> %a, %b\n  ret <8 x i32> %c\n}\n",
             r"vpaddd\s[^\n]*%ymm"),
    "sse2": ("define <2 x double> @p(<2 x double> %a, <2 x double> %b) {\n"
             "  %c = fadd <2 x double> %a, %b\n  ret <2 x double> %c\n}\n",
             r"addpd\s[^\n]*%xmm"),
}


def requested() -> tuple[str, str] | None:
    """``(name, features)`` from the environment, or None for the host's own CPU.
    An empty name means the host's; empty features mean the named CPU's own."""
    name = os.environ.get("HANAJIT_CPU_NAME", "").strip()
    features = os.environ.get("HANAJIT_CPU_FEATURES", "").strip()
    if name.lower() == "host":
        name = ""
    if not name and not features:
        return None
    return name, features


# Tuning, not instructions: separate loads and stores instead of AVX-512/AVX2
# gathers and scatters where the vectorisers would use them for lanes with a
# run-time stride (``x[::3]``, a column, ``a[:, ::2]``).  LLVM's cost model takes
# them on CPUs without its own "prefer-no-gather" tuning (znver4, Sapphire
# Rapids), where they measured 3-12x slower: ``x[::3].sum()`` of 10**6 values
# 1,440 -> 118 us, ``x[::3] * 2.0 + 1.0`` 1,174 -> 125 us (NumPy 117 and 226).
X86_TUNING = "+prefer-no-gather,+prefer-no-scatter"


def choose(llvm) -> tuple[str, str]:
    """``(cpu, features)`` to create target machines with: the host's or the
    environment's choice, after :data:`X86_TUNING` on x86 (so features named in
    ``HANAJIT_CPU_FEATURES`` may undo it)."""
    host_cpu = llvm.get_host_cpu_name()
    host_features = llvm.get_host_cpu_features().flatten()
    tuning = X86_TUNING if re.match(r"(x86_64|i\d86)", llvm.get_process_triple()) else ""
    req = requested()
    if req is None:
        return host_cpu, _join(host_features, tuning)
    name, features = req
    if not name:                     # features alone modify the host CPU's
        return host_cpu, _join(host_features, tuning, features)
    return name, _join(tuning, features)


def _join(*features: str) -> str:
    return ",".join(f for f in features if f)


def vector_isas(llvm, target, cpu: str, features: str) -> set[str]:
    """The vector ISAs of ``_PROBES`` that code for ``cpu``/``features`` may use,
    read from the assembly LLVM emits for a probe (so any CPU name LLVM knows is
    answered, with no table of CPUs here)."""
    have = set()
    tm = target.create_target_machine(cpu=cpu, features=features, opt=2)
    for isa, (text, instruction) in _PROBES.items():
        mod = llvm.parse_assembly(text)
        try:
            if re.search(instruction, tm.emit_assembly(mod)):
                have.add(isa)
        finally:
            mod.close()
    return have


def isa_features(llvm, target, cpu: str, features: str) -> str:
    """A feature string naming the vector ISAs the chosen CPU has, for the choice of
    vector math variants (``vecmath.host_isas``): the features themselves for the
    host's own CPU, the probed ISAs for a choice made in the environment (where
    ``-avx512f`` may take away what the named CPU has)."""
    if requested() is None:
        return features
    chosen = vector_isas(llvm, target, cpu, features)
    host = vector_isas(llvm, target, llvm.get_host_cpu_name(),
                       llvm.get_host_cpu_features().flatten())
    missing = sorted(chosen - host)
    if missing:
        warnings.warn(f"the CPU chosen by HANAJIT_CPU_NAME/HANAJIT_CPU_FEATURES ({cpu or 'host'}{', ' + features if features else ''}) uses {', '.join(missing)}, which this "
                      "host's CPU lacks: compiled code stops the process with an "
                      "illegal instruction when it runs", RuntimeWarning, stacklevel=2)
    return ",".join("+" + isa for isa in sorted(chosen))


def cache_identity() -> tuple | None:
    """What the disk cache key records about a CPU chosen in the environment: None
    for the host's own; the CPU name and features when one is named (the host's
    identity then stays out of the key, so machines sharing the choice share
    entries); the added features alone when only features are given."""
    req = requested()
    return None if req is None else ("chosen-cpu",) + req

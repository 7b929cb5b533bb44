"""What a compiled specialisation keeps once it runs: no IR (rebuilt on request),
the entry function's signature without its body, the optimised LLVM text packed.
``benchmarks/bench_memory.py`` measures the resident memory this saves."""
import numpy as np

from hanajit import jit
from hanajit.target import Stages


def kernel(a):
    return np.sort(np.sqrt(a) * 2.0)[a.shape[0] // 2] + np.sum(a * a)


def test_a_kept_specialisation_holds_no_ir_until_asked():
    f = jit(kernel)
    a = np.arange(100.0)
    assert f(a) == kernel(a)
    spec = next(iter(f._compiled.values()))
    assert spec._module is None                 # nothing of the IR kept
    fn = spec.artifact.metadata["fn"]
    assert fn.body == [] and fn.locals == {}    # the signature only
    assert fn.arg_types == spec.arg_types
    text = f.inspect_ir()                       # rebuilt on request
    assert text.startswith("def hj_kernel") and "raise ValueError" in text
    assert spec._module is not None
    assert f(a) == kernel(a)


def test_the_llvm_text_is_packed_and_reads_back():
    f = jit(kernel)
    a = np.arange(10.0)
    f(a)
    spec = next(iter(f._compiled.values()))
    stages = spec.artifact.stages
    assert isinstance(stages, Stages)
    packed = dict.__getitem__(stages, "llvm")
    text = f.inspect_llvm()
    assert isinstance(text, str) and "define" in text
    assert len(packed) < len(text) / 2
    assert stages.get("llvm") == text == dict(stages.items())["llvm"]
    assert text in stages.values()
    assert ".text" in f.inspect_asm()          # the assembly, from the unpacked text


def test_stages_pack_only_text():
    s = Stages({"llvm": "x" * 1000, "obj": b"\x7fELF"})
    s.pack("llvm")
    s.pack("obj")                               # bytes stay as they are
    assert s["llvm"] == "x" * 1000 and s["obj"] == b"\x7fELF"
    assert s.get("missing", 3) == 3

"""The GPU kernel case list on HIP: launched and compared with the interpreter on
a machine with an AMD device; elsewhere each kernel's code objects (every
architecture) are read back by ``llvm-readelf --notes`` -- target id, code
object v5, the kernel descriptor, argument metadata of the kernel entry -- and
disassembled by ``llvm-objdump`` (or the case skips with the reason: no device
and no LLVM 15+ tools)."""
from __future__ import annotations

import re

from hanajit.testing.conformance import KernelConformance
from hanajit_hip import code_object


class TestHipKernelConformance(KernelConformance):
    target = "hip"

    def validate(self, assembly: str) -> bool:
        sections = re.split(r"^; AMDGPU code object for (\w+): \d+ bytes$", assembly,
                            flags=re.M)[1:]
        assert sections, assembly[:500]
        for arch, text in zip(sections[::2], sections[1::2]):
            if "; llvm-readelf --notes" not in text or "; llvm-objdump -d" not in text:
                return False            # LLVM IR only: the tools are missing
            meta = code_object.parse_notes(text.split("; llvm-objdump -d", 1)[0])
            assert meta["target"] == f"amdgcn-amd-amdhsa--{arch}"
            assert meta["version"] == [1, 2]                  # code object v5
            kernel = meta["kernels"]["hj_kernel"]
            assert kernel["symbol"] == "hj_kernel.kd"
            # the error record, the output array, then what the case passes:
            # every slot 8 bytes, in order, arrays as global buffers
            kinds = ["ptr" if a["kind"] == "global_buffer" else "i64"
                     for a in kernel["args"][1:]]
            assert kernel["args"] == code_object.expected_args(kinds)
            assert kinds[:1] == ["ptr"] and kinds[-1] == "i64"
            asm = text.split("; llvm-objdump -d", 1)[1]
            assert "<hj_kernel>:" in asm and "s_endpgm" in asm
        return True

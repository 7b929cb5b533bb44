"""The GPU kernel case list on CUDA: launched and compared with the interpreter on a
machine with a device; elsewhere each kernel's PTX is assembled by ptxas (or the
case skips with the reason: no device and no ptxas)."""
from __future__ import annotations

import subprocess
import tempfile
from pathlib import Path

from hanajit.testing.conformance import KernelConformance
from hanajit_cuda import toolchain


class TestCudaKernelConformance(KernelConformance):
    target = "cuda"

    def validate(self, assembly: str) -> bool:
        ptxas = toolchain.find_ptxas()
        if ptxas is None:
            return False
        with tempfile.TemporaryDirectory() as tmp:
            ptx = Path(tmp) / "kernel.ptx"
            ptx.write_text(assembly)
            arch = next(line.split()[1] for line in assembly.splitlines()
                        if line.startswith(".target"))
            proc = subprocess.run([ptxas, f"-arch={arch}", str(ptx), "-o",
                                   str(Path(tmp) / "kernel.cubin")],
                                  capture_output=True, text=True, timeout=60)
        assert proc.returncode == 0, proc.stderr
        return True

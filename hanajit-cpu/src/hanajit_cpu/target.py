"""The host CPU target (placeholder until codegen lands)."""
from hanajit.target import Target


class CpuTarget(Target):
    name = "cpu"
    description = "host CPU through LLVM (ORC JIT)"
    stages = ("llvm", "obj")

"""The ``example`` target: primitive IR printed as C99, built with the C compiler,
called through ctypes (:mod:`.cbuild`); plus a text-listing exporter."""
from __future__ import annotations

import os
from pathlib import Path

from hanajit.target import Artifact, Capabilities, Target


class ExampleTarget(Target):
    """Runs functions in this process through C99 source and a shared library."""

    name = "example"
    description = "example third-party target: prints C99, builds it with cc, calls it"
    stages = ("c", "so")
    kind = "host"
    # what the generated C can do: the C math library, nothing beyond computing
    # (no calls back into Python, no threads, no GPU kernel model, and no complex
    # numbers: the C-family emitter prints none)
    capabilities = Capabilities(c_math=True, complex=False)

    def status(self) -> tuple[bool, str]:
        from .cbuild import find_cc
        cc = find_cc()
        return (True, f"C compiler {cc}") if cc else (False, "no C compiler (cc, gcc, "
                                                            "clang or $CC)")

    def doctor(self, report) -> None:
        ok, reason = self.status()
        report.check("example available", ok, reason)
        import tempfile     # imported here: plugin discovery must stay cheap
        tmp = tempfile.gettempdir()
        writable = os.access(tmp, os.W_OK)
        report.check("example temp dir writable", writable, tmp)

    def compile(self, module, options) -> Artifact:
        """Stage ``c``: the C99 text of the primitive IR ``module``; stage ``so``:
        the bytes of the shared library built from it."""
        from .cbuild import build, c_source
        text = c_source(module)
        return Artifact(target=self.name, entry=module.entry,
                        stages={"c": text, "so": build(text)},
                        metadata={"raises": list(module.raises),
                                  "fn": module.functions[module.entry]})

    def load(self, artifact: Artifact, fallback):
        from .cbuild import make_runner
        return make_runner(artifact.stages["so"], artifact.metadata["fn"],
                           artifact.metadata["raises"], fallback)

    def assembly(self, artifact: Artifact) -> str:
        """The C99 source (this target's lowest readable stage)."""
        return artifact.stages["c"]


def write_listing(jitfunc, path: str | os.PathLike) -> Path:
    """Exporter ``example_listing``: write the function's name (and source file,
    when known) to ``path``; return the path written."""
    func = getattr(jitfunc, "py_func", jitfunc)
    name = getattr(jitfunc, "__name__", None) or func.__name__
    code = getattr(func, "__code__", None)
    lines = [f"function: {name}"]
    if code is not None:
        lines.append(f"defined at: {code.co_filename}:{code.co_firstlineno}")
        lines.append(f"arguments: {', '.join(code.co_varnames[:code.co_argcount])}")
    out = Path(path)
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return out

"""The ``example`` target: an export-only target that writes a text listing."""
from __future__ import annotations

import os

from hanajit.target import Target


class ExampleTarget(Target):
    """Writes a plain-text listing of a function instead of machine code."""

    name = "example"
    description = "example third-party target: writes a text listing of a function"
    stages = ("listing",)
    kind = "export"

    def status(self) -> tuple[bool, str]:
        return True, "pure Python, no device needed"

    def doctor(self, report) -> None:
        ok, reason = self.status()
        report.check("example available", ok, reason)
        import tempfile     # imported here: plugin discovery must stay cheap
        tmp = tempfile.gettempdir()
        writable = os.access(tmp, os.W_OK)
        report.check("example temp dir writable", writable, tmp)


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
    from pathlib import Path
    out = Path(path)
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return out

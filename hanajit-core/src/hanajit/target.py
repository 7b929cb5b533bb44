"""The Target base class that every target plugin subclasses.

A target turns hanajit's typed IR (:class:`hanajit.ir.nodes.Module`) into artifacts
through named stages (``"llvm" -> "obj"`` for the CPU, ``"llvm" -> "ptx"`` for CUDA),
loads or launches them, exports them, and checks its own health for
``hanajit doctor``.  Codegen is split from running: :meth:`compile` never needs the
device, :meth:`load` / :meth:`launch` do.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, ClassVar


@dataclass
class Artifact:
    """What :meth:`Target.compile` returns: every stage's output, by stage name."""

    target: str
    entry: str                       # symbol of the entry function
    stages: dict[str, Any] = field(default_factory=dict)
    metadata: dict[str, Any] = field(default_factory=dict)


class Target:
    """Base class of a hanajit target.  Subclass it and register it from a plugin.

    Class attributes:

    * ``name`` -- the one word used everywhere: ``@jit(target=name)``, the entry
      point, the distribution ``hanajit-<name>``.
    * ``description`` -- one line for ``hanajit targets``.
    * ``stages`` -- the ordered codegen stage names; stage name = artifact name =
      cache-key part.
    * ``kind`` -- ``"host"`` (runs in this process: calling the function runs it),
      ``"gpu"`` (runs through :meth:`launch`) or ``"export"`` (only writes files).
    """

    name: ClassVar[str] = ""
    description: ClassVar[str] = ""
    stages: ClassVar[tuple[str, ...]] = ()
    kind: ClassVar[str] = "host"

    # -- status and doctor -------------------------------------------------------
    def status(self) -> tuple[bool, str]:
        """Return ``(available, reason)``: can this target compile and run here?"""
        return True, "ok"

    def doctor(self, report) -> None:
        """Add this target's checks to ``report`` (``report.check(name, ok, detail)``)."""
        ok, reason = self.status()
        report.check(f"{self.name} available", ok, reason)

    # -- codegen -------------------------------------------------------------------
    def compile(self, module, options) -> Artifact:
        """Run every codegen stage on a typed, lowered IR module."""
        raise NotImplementedError(f"target {self.name!r} does not compile")

    # -- running ---------------------------------------------------------------------
    def load(self, artifact: Artifact, fallback: Callable[..., Any]) -> Callable[..., Any]:
        """Host targets: return a callable that runs the artifact on Python arguments.

        ``fallback`` is the Python function: the callable runs it instead when the
        compiled code deoptimises (see ``ir.nodes.Raise``)."""
        raise NotImplementedError(f"target {self.name!r} cannot run in this process")

    def launch(self, artifact: Artifact, args, **launch_options) -> Any:
        """GPU targets: run the artifact on the device (grid, block, stream, sync)."""
        raise NotImplementedError(f"target {self.name!r} has no launch")

    def assembly(self, artifact: Artifact) -> str:
        """Host or device assembly text of an artifact (``inspect_asm``)."""
        raise NotImplementedError(f"target {self.name!r} has no assembly stage")

    def export(self, artifact: Artifact, output, **options) -> Any:
        """Export targets: write files for the artifact and return what was written."""
        raise NotImplementedError(f"target {self.name!r} has no export")

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name!r}>"

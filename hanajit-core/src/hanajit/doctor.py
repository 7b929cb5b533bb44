"""``hanajit doctor``: health checks of the installation, grouped by target and plugin.

:func:`run_doctor` collects core checks (Python, llvmlite/LLVM, NumPy, plugins that
failed to load), then every registered target's :meth:`Target.doctor`, then each
plugin's ``hanajit_doctor`` hook.  A check that raises becomes a failed check; the
doctor itself never crashes on a broken plugin.
"""
from __future__ import annotations

import contextlib
import json
import platform
import sys
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field


@dataclass
class Check:
    """One line of the report.  ``ok`` is True, False, or None (skipped)."""

    name: str
    ok: bool | None
    detail: str = ""


@dataclass
class Group:
    """The checks of one subject: ``core``, a target, or a plugin."""

    kind: str          # "core", "target" or "plugin"
    name: str
    source: str = ""   # the plugin / distribution that provides it
    checks: list[Check] = field(default_factory=list)


class Report:
    """Collects checks; ``check()`` adds to the group that is current."""

    def __init__(self) -> None:
        self.groups: dict[tuple[str, str], Group] = {}
        self._current = self._group("core", "core")

    def _group(self, kind: str, name: str, source: str = "") -> Group:
        key = (kind, name)
        if key not in self.groups:
            self.groups[key] = Group(kind, name, source)
        return self.groups[key]

    @contextlib.contextmanager
    def group(self, kind: str, name: str, source: str = "") -> Iterator[Group]:
        """Attribute the checks made inside the ``with`` block to ``kind``/``name``."""
        previous = self._current
        self._current = self._group(kind, name, source)
        try:
            yield self._current
        finally:
            self._current = previous

    def check(self, name: str, ok: bool | None, detail: str = "") -> None:
        """Record a check: ``ok`` True (passed), False (failed) or None (skipped)."""
        if ok is not None:
            ok = bool(ok)
        self._current.checks.append(Check(str(name), ok, str(detail)))

    @property
    def failed(self) -> list[tuple[Group, Check]]:
        """Every failed check with its group."""
        return [(g, c) for g in self.groups.values() for c in g.checks if c.ok is False]

    @property
    def ok(self) -> bool:
        """True unless some check failed (skipped checks do not count)."""
        return not self.failed

    def to_dict(self) -> dict:
        return {
            "ok": self.ok,
            "groups": [
                {"kind": g.kind, "name": g.name, "source": g.source,
                 "checks": [asdict(c) for c in g.checks]}
                for g in self.groups.values()
            ],
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=2)

    def to_markdown(self) -> str:
        lines = ["# hanajit doctor", ""]
        for g in self.groups.values():
            title = g.name if g.kind == "core" else f"{g.kind} `{g.name}`"
            if g.source:
                title += f" ({g.source})"
            lines += [f"## {title}", ""]
            if not g.checks:
                lines += ["(no checks)", ""]
                continue
            lines += ["| check | status | detail |", "| --- | --- | --- |"]
            for c in g.checks:
                status = {True: "ok", False: "FAILED", None: "skipped"}[c.ok]
                lines.append(f"| {_cell(c.name)} | {status} | {_cell(c.detail)} |")
            lines.append("")
        n = len(self.failed)
        lines.append("All checks passed." if n == 0 else f"{n} check(s) failed.")
        return "\n".join(lines) + "\n"


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def run_doctor() -> Report:
    """Run every check and return the report."""
    from . import plugins

    report = Report()
    _core_checks(report)
    try:
        plugins.get_plugin_manager()
    except Exception as exc:      # a misdeclared plugin: report it, check the rest
        report.check("plugin discovery", False, f"{type(exc).__name__}: {exc}")
        return report
    for failed in plugins.failed_plugins():
        source = failed["distribution"] or failed["module"]
        report.check(f"plugin {failed['name']} loads", False,
                     f"{source}: {failed['reason']}")
    if not plugins.failed_plugins():
        names = ", ".join(p["name"] for p in plugins.plugin_info())
        report.check("plugins load", True, names or "no plugins installed")

    for name in plugins.target_classes():
        owner = plugins.target_owner(name)
        source = f"plugin {owner['name']}"
        if owner["distribution"]:
            source += f", {owner['distribution']} {owner['version']}"
        with report.group("target", name, source):
            try:
                plugins.get_target(name).doctor(report)
            except Exception as exc:
                report.check(f"{name} doctor", False,
                             f"raised {type(exc).__name__}: {exc}")

    sources = {p["name"]: f"{p['distribution']} {p['version']}"
               for p in plugins.plugin_info() if p["distribution"]}
    for plugin_name, function, argnames in plugins.plugin_hookimpls("hanajit_doctor"):
        with report.group("plugin", plugin_name, sources.get(plugin_name, "")):
            try:
                function(*[{"report": report}[a] for a in argnames])
            except Exception as exc:
                report.check("hanajit_doctor", False,
                             f"raised {type(exc).__name__}: {exc}")
    return report


def _core_checks(report: Report) -> None:
    from . import __version__

    report.check("hanajit", True, __version__)
    py = sys.version_info
    report.check("Python", py >= (3, 10),
                 f"{platform.python_version()} ({platform.python_implementation()},"
                 f" {sys.executable})")
    try:
        import llvmlite
        import llvmlite.binding as llvm

        llvm_version = ".".join(map(str, llvm.llvm_version_info))
        report.check("llvmlite", True, f"{llvmlite.__version__} (LLVM {llvm_version})")
    except Exception as exc:
        report.check("llvmlite", False, f"{type(exc).__name__}: {exc}")
    try:
        import numpy

        report.check("NumPy", True, numpy.__version__)
    except Exception as exc:
        report.check("NumPy", False, f"{type(exc).__name__}: {exc}")

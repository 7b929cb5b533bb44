"""``hanajit doctor`` / ``python -m hanajit.doctor``: health checks of the
installation, grouped by target and plugin.

:func:`run_doctor` collects core checks (Python, llvmlite/LLVM, NumPy, plugins that
failed to load), the host runtime (a host target installed, the native
dispatcher, the thread pool, the disk cache: :mod:`hanajit.doctor_checks`), then
every registered target's :meth:`Target.doctor`, then each plugin's
``hanajit_doctor`` hook.  A check that raises becomes a failed check; the doctor
itself never crashes on a broken plugin.  :func:`main` prints the report, writes
it to ``hanajit_report_<platform>.md`` (or ``--output``) and exits 1 when a check
failed.
"""
from __future__ import annotations

import argparse
import contextlib
import json
import os
import platform
import sys
import warnings
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
    _runtime_checks(report)

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


def _runtime_checks(report: Report) -> None:
    from . import doctor_checks as dc
    with report.group("core", "host runtime"):
        if not _guarded(report, "host target", dc.host_target):
            return
        for name, check in (("native dispatcher", dc.native_dispatch),
                            ("thread pool", dc.thread_pool),
                            ("disk cache", dc.disk_cache)):
            _guarded(report, name, check)


def _guarded(report: Report, name: str, check):
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return check(report)
    except Exception as exc:
        report.check(name, False, f"raised {type(exc).__name__}: {exc}")
        return False


def report_name() -> str:
    """``hanajit_report_<platform>.md``: linux, macos, windows, or the system name."""
    system = platform.system().lower() or sys.platform
    return f"hanajit_report_{ {'darwin': 'macos'}.get(system, system)}.md"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true", help="JSON instead of Markdown")
    parser.add_argument("--output", metavar="FILE",
                        help=f"write the report to FILE (default: {report_name()} "
                             "in the current directory)")


def run(args: argparse.Namespace) -> int:
    """Print the report, write it to a file, say where; 1 if a check failed."""
    report = run_doctor()
    text = report.to_json() + "\n" if args.json else report.to_markdown()
    sys.stdout.write(text)
    path = os.path.abspath(args.output or report_name())
    try:
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(text)
    except OSError as exc:
        print(f"hanajit doctor: cannot write {path}: {exc}", file=sys.stderr)
        return 1
    status = "all checks passed" if report.ok else f"{len(report.failed)} check(s) failed"
    print(f"hanajit doctor: report written to {path} ({status})", file=sys.stderr)
    return 0 if report.ok else 1


def main(argv=None) -> int:
    """``python -m hanajit.doctor [--json] [--output FILE]``."""
    parser = argparse.ArgumentParser(prog="python -m hanajit.doctor",
                                     description="check the installation (exit 1 "
                                                 "if a check fails)")
    add_arguments(parser)
    return run(parser.parse_args(argv))


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


if __name__ == "__main__":
    sys.exit(main())

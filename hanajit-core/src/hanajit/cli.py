"""The ``hanajit`` command line: plugins, targets, doctor, demo.

Each subcommand imports what it needs when it runs, so ``hanajit --version`` and
``hanajit plugins`` never load LLVM.
"""
from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from . import __version__
from .errors import HanaJitError


def _cmd_plugins(args: argparse.Namespace) -> int:
    from . import plugins

    info = plugins.plugin_info()
    if args.failed:
        info = {"loaded": info, "failed": plugins.failed_plugins()}
    print(json.dumps(info, indent=2))
    return 0


def _target_rows() -> list[dict[str, str]]:
    from . import plugins

    rows = []
    for name in plugins.target_classes():
        cls = plugins.target_classes()[name]
        owner = plugins.target_owner(name)
        try:
            ok, reason = plugins.get_target(name).status()
        except Exception as exc:
            ok, reason = False, f"status() raised {type(exc).__name__}: {exc}"
        rows.append({
            "name": name,
            "kind": cls.kind,
            "status": "available" if ok else "unavailable",
            "reason": str(reason),
            "distribution": owner["distribution"] or f"(in-process: {owner['module']})",
        })
    return rows


def _format_table(rows: list[dict[str, str]], columns: Sequence[str]) -> str:
    widths = {c: max([len(c)] + [len(r[c]) for r in rows]) for c in columns}
    lines = ["  ".join(c.ljust(widths[c]) for c in columns).rstrip(),
             "  ".join("-" * widths[c] for c in columns)]
    lines += ["  ".join(r[c].ljust(widths[c]) for c in columns).rstrip()
              for r in rows]
    return "\n".join(lines)


def _cmd_targets(args: argparse.Namespace) -> int:
    from . import plugins

    rows = _target_rows()
    failed = plugins.failed_plugins()
    if args.json:
        print(json.dumps({"targets": rows, "failed_plugins": failed}, indent=2))
        return 0
    print(_format_table(rows, ("name", "kind", "status", "reason", "distribution")))
    for f in failed:
        print(f"\nplugin {f['name']!r} ({f['distribution'] or f['module']}) failed "
              f"to load: {f['reason']}")
    return 0


def _cmd_doctor(args: argparse.Namespace) -> int:
    from . import doctor

    return doctor.run(args)


def _cmd_demo(args: argparse.Namespace) -> int:
    from . import demo

    return demo.main(args.demo_args)


def version_text() -> str:
    """``hanajit --version``: hanajit-core, then every distribution that provides
    plugins (entry points of group ``hanajit``) with its version and plugin names,
    read from the installed metadata without importing the plugins."""
    import platform

    from . import entrypoints
    plugins: dict = {}
    for ep in entrypoints.entry_points(group="hanajit"):
        dist = (ep.dist.name, ep.dist.version) if ep.dist is not None and ep.dist.name \
            else (f"(module {ep.value})", "")
        plugins.setdefault(dist, []).append(ep.name)
    rows = [("hanajit-core", __version__, "")]
    rows += [(name, version, "plugins: " + ", ".join(sorted(names)))
             for (name, version), names in sorted(plugins.items())]
    width = max(len(r[0]) for r in rows)
    vwidth = max(len(r[1]) for r in rows)
    lines = [f"hanajit {__version__} (Python {platform.python_version()})"]
    lines += [f"  {n.ljust(width)}  {v.ljust(vwidth)}  {p}".rstrip() for n, v, p in rows]
    return "\n".join(lines)


class _VersionAction(argparse.Action):
    def __init__(self, option_strings, dest, **kwargs):
        super().__init__(option_strings, dest, nargs=0,
                         help="show hanajit's version and each plugin's, and exit")

    def __call__(self, parser, namespace, values, option_string=None):
        print(version_text())
        parser.exit()


def _doctor_arguments(p: argparse.ArgumentParser) -> None:
    from .doctor import add_arguments    # no LLVM: the doctor loads it when it runs
    add_arguments(p)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="hanajit",
        description="hanajit: a JIT compiler for numeric Python on LLVM.")
    parser.add_argument("--version", action=_VersionAction)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True

    p = sub.add_parser("plugins", help="list the loaded plugins as JSON")
    p.add_argument("--failed", action="store_true",
                   help="also list plugins that failed to load")
    p.set_defaults(func=_cmd_plugins)

    p = sub.add_parser("targets", help="table of targets and whether they run here")
    p.add_argument("--json", action="store_true", help="print JSON instead")
    p.set_defaults(func=_cmd_targets)

    p = sub.add_parser("doctor", help="check the installation, write "
                       "hanajit_report_<platform>.md (exit 1 if a check fails)")
    _doctor_arguments(p)
    p.set_defaults(func=_cmd_doctor)

    # The demo parses its own options (hanajit.demo.main), so it gets the rest.
    p = sub.add_parser("demo", help="compile sample kernels, check and time them "
                       "(--quick: small sizes)", add_help=False)
    p.set_defaults(func=_cmd_demo)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status."""
    parser = build_parser()
    args, extra = parser.parse_known_args(argv)
    if args.command == "demo":
        args.demo_args = extra
    elif extra:
        parser.error(f"unrecognized arguments: {' '.join(extra)}")
    try:
        return args.func(args)
    except HanaJitError as exc:
        print(f"hanajit: error: {exc}", file=sys.stderr)
        return 2

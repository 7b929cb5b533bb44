"""The ``hanajit`` command line, run as ``python -m hanajit`` in a subprocess."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import hanajit

ENV_VARS = ("HANAJIT_DISABLE_PLUGINS", "HANAJIT_LOAD_PLUGINS", "HANAJIT_TARGET")


def hanajit_cli(*args: str, **env: str) -> subprocess.CompletedProcess:
    environ = {k: v for k, v in os.environ.items() if k not in ENV_VARS}
    environ.update(env)
    return subprocess.run([sys.executable, "-m", "hanajit", *args],
                          capture_output=True, text=True, env=environ, timeout=120)


def test_version_lists_core_and_every_plugin():
    proc = hanajit_cli("--version")
    assert proc.returncode == 0
    lines = proc.stdout.splitlines()
    assert lines[0].startswith(f"hanajit {hanajit.__version__} (Python ")
    rows = {line.split()[0]: line.split()[1:] for line in lines[1:]}
    assert rows["hanajit-core"] == [hanajit.__version__]
    assert rows["hanajit-cpu"] == [hanajit.__version__, "plugins:", "cpu"]
    assert rows["hanajit-example-target"][1:] == ["plugins:", "example"]
    # every installed plugin distribution is listed, with its version
    from hanajit import entrypoints
    for ep in entrypoints.entry_points(group="hanajit"):
        assert rows[ep.dist.name][0] == ep.dist.version
        assert ep.name in " ".join(rows[ep.dist.name])


def test_version_does_not_import_plugins_or_llvm():
    proc = subprocess.run(
        [sys.executable, "-c", "import sys\nfrom hanajit.cli import main\n"
         "try:\n    main(['--version'])\nexcept SystemExit:\n    pass\n"
         "print(sorted(m for m in sys.modules if m.startswith(('llvmlite', "
         "'hanajit_'))))"], capture_output=True, text=True, timeout=120)
    assert proc.stdout.splitlines()[-1] == "[]", proc.stdout + proc.stderr


def test_plugins_is_json_listing_cpu_and_example():
    proc = hanajit_cli("plugins")
    assert proc.returncode == 0, proc.stderr
    info = json.loads(proc.stdout)
    by_name = {p["name"]: p for p in info}
    assert {"cpu", "example"} <= set(by_name)
    assert by_name["cpu"]["distribution"] == "hanajit-cpu"
    assert by_name["cpu"]["module"] == "hanajit_cpu.plugin"
    assert "hanajit_register_target" in by_name["cpu"]["hooks"]
    for entry in info:
        assert {"name", "distribution", "version", "module", "hooks"} <= set(entry)


def test_targets_table():
    proc = hanajit_cli("targets")
    assert proc.returncode == 0, proc.stderr
    header, rule, *rows = proc.stdout.splitlines()
    assert header.split() == ["name", "kind", "status", "reason", "distribution"]
    assert set(rule) <= {"-", " "}
    cells = {row.split()[0]: row.split() for row in rows if row.strip()}
    assert cells["cpu"][1:3] == ["host", "available"]
    assert cells["cpu"][-1] == "hanajit-cpu"


def test_targets_respects_disable_plugins():
    proc = hanajit_cli("targets", "--json", HANAJIT_DISABLE_PLUGINS="example")
    assert proc.returncode == 0, proc.stderr
    names = [t["name"] for t in json.loads(proc.stdout)["targets"]]
    assert "example" not in names and "cpu" in names


def test_unknown_subcommand_argument_is_a_usage_error():
    proc = hanajit_cli("targets", "--bogus")
    assert proc.returncode == 2
    assert "unrecognized arguments: --bogus" in proc.stderr


def test_demo_quick_checks_and_prints_a_table():
    proc = hanajit_cli("demo", "--quick", "--repeats", "1")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0].split() == ["kernel", "python", "numpy", "hanajit", "speedup",
                                "vs", "python"]
    kernels = [line.split()[0] for line in lines[2:7]]
    assert kernels == ["sum_squares", "fib", "collatz_steps", "pi_series",
                       "mandelbrot"]

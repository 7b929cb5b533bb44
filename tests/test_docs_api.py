"""docs/api.md and help(hanajit.jit) match the code: every public name and every
method of a jitted function is documented, and every documented one exists."""
from __future__ import annotations

import pathlib
import re

import hanajit
from hanajit.api import _OPTION_DEFAULTS, PyJitFunction

DOC = (pathlib.Path(__file__).resolve().parents[1] / "docs" / "api.md").read_text()


def _section(title: str) -> str:
    return DOC.split(f"## {title}")[1].split("\n## ")[0]


def test_every_public_name_is_documented_and_exists():
    first_cells = re.findall(r"(?m)^\| ([^|]+) \|", _section("`hanajit`"))
    documented = {n for cell in first_cells for n in re.findall(r"`(\w+)", cell)}
    documented -= {"name"}
    assert set(hanajit.__all__) <= documented
    assert all(hasattr(hanajit, n) for n in documented), documented


def test_every_method_of_a_jitted_function_is_documented_and_exists():
    table = _section("A jitted function")
    documented = set(re.findall(r"`(\w+)[(`]", table)) - {"f", "export_"}
    public = {n for n in dir(PyJitFunction) if not n.startswith("_")}
    assert public <= documented, public - documented
    assert documented <= public | {"export_executable", "export_wasm", "export_fpga",
                                   "jit", "py_func", "sig", "array"}


def test_help_of_jit_names_every_option():
    doc = hanajit.jit.__doc__
    for name in _OPTION_DEFAULTS:
        assert f"``{name}``" in doc, name
    api = _section("`hanajit`")
    for name in _OPTION_DEFAULTS:
        assert f"`{name}`" in api, name

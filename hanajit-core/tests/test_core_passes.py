"""Each pass's own output, in the style of mypyc's ``.test`` files.

A file ``passes/<name>.test`` holds cases::

    [case a_name]
    # after: lower_semantics          (the pass whose output is checked)
    # signature: i64, f64[::1]        (the argument types, as for signature=)
    # options: {"reduce_reassoc": True}     (optional jit options)
    def f(a, b):
        ...
    [out]
    the IR printed after that pass (HANAJIT_DUMP=after:<pass>), every function

The function compiled is the last ``def`` of the case.  After a deliberate change
to a pass, ``HANAJIT_UPDATE_TESTS=1 pytest hanajit-core/tests/test_core_passes.py``
rewrites the expected outputs; review the diff like code.  Compilation uses a
target no plugin registers, so only core runs: default ``Capabilities``.
The outputs hold the messages of CPython 3.11 and 3.12 (``x % 0``'s text changed
in 3.11, a float's in 3.13): on other versions the cases that print them are
skipped.
"""
import ast
import importlib.util
import os
import pathlib
import re
import sys

import pytest
from hanajit.pipeline import compile_ir
from hanajit.signature import parse_signature

HERE = pathlib.Path(__file__).parent / "passes"
_CASE = re.compile(r"^\[case (\w+)\]\n(.*?)^\[out\]\n(.*?)(?=^\[case |\Z)", re.M | re.S)


def _cases():
    for path in sorted(HERE.glob("*.test")):
        for m in _CASE.finditer(path.read_text()):
            yield pytest.param(path, m.group(1), m.group(2), m.group(3), id=f"{path.stem}-{m.group(1)}")


def _header(source: str, key: str, default=None):
    m = re.search(rf"^# {key}: (.*)$", source, re.M)
    return m.group(1).strip() if m else default


def _compiled_output(tmp_path, name, source, capsys, monkeypatch) -> str:
    after = _header(source, "after")
    sig = parse_signature(_header(source, "signature", ""))[0] if _header(
        source, "signature") else ()
    options = ast.literal_eval(_header(source, "options", "{}"))
    caps = ast.literal_eval(_header(source, "capabilities", "{}"))
    if caps:                    # passes that run by a capability (stack_check)
        from hanajit import plugins
        from hanajit.target import Capabilities
        monkeypatch.setattr(plugins, "capabilities_of", lambda name: Capabilities(**caps))
    path = tmp_path / f"passcase_{name}.py"
    path.write_text(source)
    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    last = [n.name for n in ast.parse(source).body if isinstance(n, ast.FunctionDef)][-1]
    monkeypatch.setenv("HANAJIT_DUMP", f"after:{after}")
    capsys.readouterr()
    compile_ir(getattr(module, last), tuple(sig), dict({"target": "core-tests"}, **options))
    err = capsys.readouterr().err
    blocks = re.split(rf"^--- after {after} ---\n", err, flags=re.M)[1:]
    assert blocks, f"the pass {after!r} did not run"
    return "".join(blocks).rstrip() + "\n"


@pytest.mark.parametrize("path, name, source, expected", list(_cases()))
def test_pass_output(path, name, source, expected, tmp_path, capsys, monkeypatch):
    if ("integer modulo by zero" in expected or "float modulo" in expected) \
            and not (3, 11) <= sys.version_info < (3, 13):
        pytest.skip("the expected messages are CPython 3.11's and 3.12's")
    got = _compiled_output(tmp_path, name, source, capsys, monkeypatch)
    if os.environ.get("HANAJIT_UPDATE_TESTS"):
        text = path.read_text()
        start = text.index(f"[case {name}]\n")
        out_at = text.index("[out]\n", start) + len("[out]\n")
        end = text.find("\n[case ", out_at)
        end = len(text) if end == -1 else end + 1
        path.write_text(text[:out_at] + got + ("\n" if end < len(text) else "") + text[end:])
        return
    assert got == expected.rstrip() + "\n"


def test_every_pass_has_cases():
    from hanajit.pipeline import PASSES
    covered = set()
    for _, name, source, _ in (p.values for p in _cases()):
        covered.add(_header(source, "after"))
    # interchange needs an evolve genome, fastmath only sets flags and random_draws
    # needs a Generator argument: hanajit-cpu's evolve, fastmath and random tests
    # cover them
    missing = {p.name for p in PASSES} - covered - {"interchange", "fastmath",
                                                    "random_draws"}
    assert not missing, f"passes without a .test case: {sorted(missing)}"

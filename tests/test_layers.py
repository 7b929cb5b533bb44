"""The layers of hanajit-core hold: ``lint-imports`` checks the contracts of the
workspace ``pyproject.toml`` (``[tool.importlinter]``; docs/architecture.md,
"Layers"), counting imports inside functions too; and no module uses another
module's private (underscore) names."""
import ast
import os
import pathlib
import shutil
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]


def _lint_imports() -> str:
    here = pathlib.Path(sys.executable).parent / "lint-imports"
    found = str(here) if here.exists() else shutil.which("lint-imports")
    assert found, "lint-imports is not installed (pip install import-linter)"
    return found


def test_lint_imports_keeps_every_contract():
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [str(ROOT / "hanajit-core" / "src"), os.environ.get("PYTHONPATH", "")]))
    run = subprocess.run([_lint_imports(), "--no-cache"], cwd=ROOT, env=env,
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout + run.stderr


def _private_uses(path: pathlib.Path):
    """``from hanajit... import _name`` and ``module_alias._name`` in one file."""
    tree = ast.parse(path.read_text())
    modules = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (
                node.level or (node.module or "").startswith("hanajit")):
            for a in node.names:
                if a.name.startswith("_") and not a.name.startswith("__"):
                    yield node.lineno, f"import of {a.name}"
                else:
                    modules.add(a.asname or a.name)
        elif isinstance(node, ast.Import):
            modules |= {(a.asname or a.name).split(".")[0] for a in node.names
                        if a.name.startswith("hanajit")}
    for node in ast.walk(tree):
        if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                and node.value.id in modules and node.attr.startswith("_")
                and not node.attr.startswith("__")):
            yield node.lineno, f"{node.value.id}.{node.attr}"


def test_no_module_uses_another_modules_private_names():
    src = ROOT / "hanajit-core" / "src"
    found = [f"{path.relative_to(src)}:{line}: {what}"
             for path in sorted((src / "hanajit").rglob("*.py"))
             for line, what in _private_uses(path)]
    assert not found, "\n".join(found)

"""`pip install hanajit-core hanajit-cuda` gives a working CPU JIT: the wheels are
built from this tree, installed into a fresh virtual environment (their other
dependencies from the package index pip is configured with), and a kernel runs
there compiled, outside the source tree."""
from __future__ import annotations

import pathlib
import subprocess
import sys
import zipfile

import pytest

import hanajit

ROOT = pathlib.Path(__file__).resolve().parent.parent
SMOKE = '''
import warnings
warnings.simplefilter("error")
import hanajit

@hanajit.jit(fallback=False)
def sum_squares(n):
    s = 0
    for i in range(n):
        s += i * i
    return s

assert sum_squares(100) == 328350
print(hanajit.__file__)
'''


def _pip(*args, cwd):
    return subprocess.run([sys.executable, "-m", "pip", *args], capture_output=True,
                          text=True, cwd=cwd, timeout=900)


@pytest.fixture(scope="module")
def wheels(tmp_path_factory):
    out = tmp_path_factory.mktemp("wheels")
    proc = _pip("wheel", "-q", "--no-deps", "-w", str(out), "./hanajit-core",
                "./hanajit-cpu", "./hanajit-cuda", "./hanajit-metal", "./hanajit-meta",
                cwd=ROOT)
    if proc.returncode != 0:     # no package index for the build backend (hatchling)
        pytest.skip("cannot build wheels here: "
                    + (proc.stderr.strip().splitlines() or ["pip wheel failed"])[-1])
    return out


def _metadata(wheel: pathlib.Path) -> tuple[str, list]:
    with zipfile.ZipFile(wheel) as z:
        meta = next(n for n in z.namelist() if n.endswith(".dist-info/METADATA"))
        return z.read(meta).decode(), z.namelist()


def test_wheel_metadata(wheels):
    v = hanajit.__version__
    core, names = _metadata(next(wheels.glob("hanajit_core-*.whl")))
    assert f"Version: {v}\n" in core
    assert f"Requires-Dist: hanajit-cpu=={v}" in core
    assert any(n.endswith("licenses/LICENSE") for n in names)
    meta, _ = _metadata(next(wheels.glob("hanajit-*.whl")))
    assert "Name: hanajit\n" in meta
    assert f"Requires-Dist: hanajit-cuda[launch]=={v}; extra == 'cuda'" in meta
    assert f"Requires-Dist: hanajit-metal[launch]=={v}; extra == 'metal'" in meta
    # PyObjC only on macOS; the simulation's headers travel in the wheel
    metal, names = _metadata(next(wheels.glob("hanajit_metal-*.whl")))
    assert ("Requires-Dist: pyobjc-framework-metal>=10; (sys_platform == 'darwin') "
            "and extra == 'launch'") in metal
    assert {"hanajit_metal/sim/metal_sim.h", "hanajit_metal/sim/metal_stdlib",
            "hanajit_metal/sim/metal_strict.h"} <= set(names)


def test_core_and_cuda_install_a_working_cpu_jit(wheels, tmp_path):
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300)
    python = venv / "bin" / "python"
    if not python.exists():                              # pragma: no cover - Windows
        python = venv / "Scripts" / "python.exe"
    proc = subprocess.run([str(python), "-m", "pip", "install", "-q", "--find-links",
                           str(wheels), "hanajit-core", "hanajit-cuda"],
                          capture_output=True, text=True, cwd=tmp_path, timeout=900)
    assert proc.returncode == 0, proc.stderr[-3000:]
    (tmp_path / "smoke.py").write_text(SMOKE)
    run = subprocess.run([str(python), "smoke.py"], capture_output=True, text=True,
                         cwd=tmp_path, timeout=600)
    assert run.returncode == 0, run.stderr[-3000:]
    assert str(venv) in run.stdout                    # not this source tree
    listed = subprocess.run([str(python), "-m", "hanajit", "--version"],
                            capture_output=True, text=True, cwd=tmp_path, timeout=300)
    assert "hanajit-cpu" in listed.stdout and "hanajit-cuda" in listed.stdout

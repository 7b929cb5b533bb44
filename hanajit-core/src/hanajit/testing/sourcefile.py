"""Turn generated source text into a real module (hanajit reads function source
with ``inspect.getsource``, so generated functions must live in a ``.py`` file)."""
from __future__ import annotations

import atexit
import importlib.util
import itertools
import os
import shutil
import sys
import tempfile

_dir = None
_counter = itertools.count()


def _tmpdir() -> str:
    global _dir
    if _dir is None:
        _dir = tempfile.mkdtemp(prefix="hanajit-testing-")
        atexit.register(shutil.rmtree, _dir, True)
    return _dir


def load_module(source: str, stem: str = "generated"):
    """Write ``source`` to a fresh ``.py`` file in a temporary folder and import it
    (the module is not left in ``sys.modules``)."""
    name = f"_hj_{stem}_{os.getpid()}_{next(_counter)}"
    path = os.path.join(_tmpdir(), name + ".py")
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(source)
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module          # dataclasses/inspect look the module up
    try:
        spec.loader.exec_module(module)
    finally:
        sys.modules.pop(name, None)
    return module


def load_sibling(test_file: str, filename: str, name: str):
    """Import ``filename`` beside ``test_file`` (a test's kernels module) once, as
    ``name`` in ``sys.modules``, so that every test file sharing it shares the
    jitted functions in it."""
    from pathlib import Path
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(
            name, Path(test_file).with_name(filename))
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]


def run_twice_cached(tmp_path, source: str, name: str, compiler_id: str,
                     timeout: float = 240) -> list:
    """Write ``source`` as ``name.py`` in ``tmp_path`` and import it in two fresh
    processes sharing a disk cache there (``HANAJIT_CACHE_DIR``; fallbacks are
    errors): the first compiles and writes, the second loads.  Returns the last
    line each printed; the cache files are under ``tmp_path / "cache"``."""
    import subprocess
    env = {k: v for k, v in os.environ.items() if not k.startswith("HANAJIT_")}
    env["HANAJIT_CACHE_DIR"] = str(tmp_path / "cache")
    env["HANAJIT_CACHE_COMPILER_ID"] = compiler_id
    env["PYTHONWARNINGS"] = "error::hanajit.HanaJitFallbackWarning"
    env["PYTHONPATH"] = os.pathsep.join([str(tmp_path), env.get("PYTHONPATH", "")])
    (tmp_path / f"{name}.py").write_text(source)
    lines = []
    for _ in range(2):
        proc = subprocess.run([sys.executable, "-c", f"import {name}"], env=env,
                              cwd=tmp_path, capture_output=True, text=True,
                              timeout=timeout)
        assert proc.returncode == 0, proc.stdout + proc.stderr
        lines.append(proc.stdout.strip().splitlines()[-1])
    return lines

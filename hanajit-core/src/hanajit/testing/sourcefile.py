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

"""One version for every first-party distribution, a license and a changelog.

``hanajit-core/src/hanajit/_version.py`` is the source: hanajit-core reads it
(hatch's dynamic version), ``scripts/set_version.py`` writes the others, and these
tests check that they agree.
"""
from __future__ import annotations

import importlib.util
import pathlib
import re
import shutil
import sys

import hanajit

if sys.version_info >= (3, 11):
    import tomllib
else:                                  # pragma: no cover - Python 3.10
    tomllib = None

ROOT = pathlib.Path(__file__).resolve().parent.parent
FIRST_PARTY = ("hanajit-core", "hanajit-cpu", "hanajit-cuda", "hanajit-hip",
               "hanajit-levelzero",
               "hanajit-exe", "hanajit-wasm", "hanajit-fpga", "hanajit-metal",
               "hanajit-vulkan", "hanajit-meta")


def _load_set_version(root=ROOT):
    spec = importlib.util.spec_from_file_location("set_version",
                                                  root / "scripts" / "set_version.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _project(folder: str) -> str:
    return (ROOT / folder / "pyproject.toml").read_text(encoding="utf-8")


def _version_line(text: str):
    m = re.search(r'(?m)^version = "([^"]*)"$', text)
    return m.group(1) if m else None


def test_core_reads_its_version_from_version_py():
    text = _project("hanajit-core")
    assert _version_line(text) is None and 'dynamic = ["version"]' in text
    assert 'path = "src/hanajit/_version.py"' in text
    if tomllib is not None:
        data = tomllib.loads(text)
        assert data["tool"]["hatch"]["version"]["path"] == "src/hanajit/_version.py"


def test_every_first_party_distribution_has_the_one_version():
    version = hanajit.__version__
    set_version = _load_set_version()
    assert set(set_version.DISTRIBUTIONS) == set(FIRST_PARTY) - {"hanajit-core"}
    for folder in FIRST_PARTY:
        text = _project(folder)
        if folder == "hanajit-core":
            assert _version_line(text) is None
            continue
        assert _version_line(text) == version, folder

    for folder in FIRST_PARTY:
        text = _project(folder)
        # pins on each other name the same version
        for name, pinned in re.findall(r'"(hanajit-[a-z]+)(?:\[[^\]]*\])?==([^"]*)"', text):
            assert pinned == version, (folder, name, pinned)


def test_installed_metadata_agrees():
    from importlib import metadata
    for dist in FIRST_PARTY:
        try:
            assert metadata.version(dist) == hanajit.__version__, dist
        except metadata.PackageNotFoundError:
            continue               # not installed in this environment


def test_set_version_rewrites_all_of_them(tmp_path):
    for folder in FIRST_PARTY:
        (tmp_path / folder).mkdir()
        shutil.copy(ROOT / folder / "pyproject.toml", tmp_path / folder)
    (tmp_path / "scripts").mkdir()
    shutil.copy(ROOT / "scripts" / "set_version.py", tmp_path / "scripts")
    version_file = tmp_path / "hanajit-core" / "src" / "hanajit" / "_version.py"
    version_file.parent.mkdir(parents=True)
    version_file.write_text('__version__ = "0.1.0"\n')
    _load_set_version(tmp_path).set_version("7.8.9")
    assert version_file.read_text() == '__version__ = "7.8.9"\n'
    for folder in FIRST_PARTY[1:]:
        text = (tmp_path / folder / "pyproject.toml").read_text()
        assert _version_line(text) == "7.8.9"
        assert "==0.1.0" not in text and "hanajit-core==7.8.9" in text
    core = (tmp_path / "hanajit-core" / "pyproject.toml").read_text()
    assert '"hanajit-cpu==7.8.9"' in core and _version_line(core) is None
    assert core.replace("7.8.9", hanajit.__version__) == _project("hanajit-core")


def test_license_is_apache_2_in_the_repository_and_every_distribution():
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert "Apache License" in text and "Version 2.0, January 2004" in text
    assert "END OF TERMS AND CONDITIONS" in text
    for folder in FIRST_PARTY:
        assert (ROOT / folder / "LICENSE").read_text(encoding="utf-8") == text, folder
        assert 'license = "Apache-2.0"' in _project(folder)


def test_changelog_names_the_version_source():
    text = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    assert text.startswith("# Changelog")
    assert "scripts/set_version.py" in text
    assert f"## {hanajit.__version__}" in text


def _dependencies(folder):
    text = _project(folder)
    block = re.search(r"(?ms)^dependencies = \[(.*?)\]$", text).group(1)
    return re.findall(r'"([^"]+)"', block)


def test_core_brings_the_cpu_target():
    # pip install hanajit-core (hanajit-cuda ...) gives a working CPU JIT
    assert f"hanajit-cpu=={hanajit.__version__}" in _dependencies("hanajit-core")
    assert f"hanajit-core=={hanajit.__version__}" in _dependencies("hanajit-cpu")


def test_the_hanajit_distribution_and_its_extras():
    text = _project("hanajit-meta")
    assert re.search(r'(?m)^name = "hanajit"$', text)
    v = hanajit.__version__
    assert set(_dependencies("hanajit-meta")) == {f"hanajit-core=={v}", f"hanajit-cpu=={v}"}
    extras = dict(re.findall(r'(?m)^([a-z-]+) = \[(.*)\]$',
                             text.split("[project.optional-dependencies]")[1]
                             .split("[tool.")[0]))
    assert {"cuda", "cuda-math", "hip", "metal", "vulkan", "levelzero", "exe", "wasm",
            "fpga", "scipy", "all", "test", "bench"} <= set(extras)
    for target in ("cuda", "hip", "metal", "vulkan", "levelzero", "exe", "wasm",
                   "fpga"):
        assert f"hanajit-{target}" in extras[target]
    assert all(name in extras["all"]
               for name in ("cuda", "hip", "metal", "vulkan", "levelzero", "exe",
                            "wasm", "fpga"))
    if tomllib is not None:
        data = tomllib.loads(text)["project"]
        assert data["optional-dependencies"]["all"] == [
            "hanajit[cuda,cuda-math,hip,metal,vulkan,levelzero,exe,wasm,fpga,scipy]"]

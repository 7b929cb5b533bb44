"""Set the version of every first-party distribution: ``python scripts/set_version.py 0.2.0``.

The one source is ``hanajit-core/src/hanajit/_version.py`` (hanajit-core reads it
through hatch's dynamic version); the other distributions' ``version`` and their
``hanajit-*==`` pins on each other are rewritten to match.
``tests/test_versions.py`` checks that they agree.
"""
from __future__ import annotations

import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
VERSION_FILE = ROOT / "hanajit-core" / "src" / "hanajit" / "_version.py"
# the first-party distributions released together (hanajit-core's version is
# dynamic: only its pins are rewritten); hanajit-meta is the `hanajit` distribution
DISTRIBUTIONS = ("hanajit-cpu", "hanajit-cuda", "hanajit-hip", "hanajit-exe",
                 "hanajit-wasm", "hanajit-fpga", "hanajit-metal", "hanajit-vulkan",
                 "hanajit-levelzero", "hanajit-meta")
_PIN = re.compile(r'"(hanajit-[a-z]+)(\[[^\]]*\])?==[^"]*"')


def pyprojects(root: pathlib.Path = ROOT) -> list[pathlib.Path]:
    return [root / d / "pyproject.toml" for d in ("hanajit-core",) + DISTRIBUTIONS]


def set_version(version: str) -> None:
    if not re.fullmatch(r"\d+\.\d+\.\d+([ab]|rc)?\d*", version):
        raise SystemExit(f"not a release version: {version!r}")
    VERSION_FILE.write_text(f'__version__ = "{version}"\n', encoding="utf-8")
    for path in pyprojects(ROOT):
        text = path.read_text(encoding="utf-8")
        text = re.sub(r'(?m)^version = "[^"]*"$', f'version = "{version}"', text, count=1)
        text = _PIN.sub(lambda m: f'"{m.group(1)}{m.group(2) or ""}=={version}"', text)
        path.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        raise SystemExit(__doc__.splitlines()[0])
    set_version(sys.argv[1])

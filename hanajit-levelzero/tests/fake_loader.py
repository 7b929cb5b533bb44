"""The fake Level Zero loader (``fake_ze_loader.c``), built once per test session
with gcc, and a :class:`FakeLoader` handle: its call log, its configuration and
the kernel hook, which emulates a kernel in Python over the argument slots."""
from __future__ import annotations

import ctypes
import shutil
import subprocess
from pathlib import Path

_U32P, _U64P = ctypes.POINTER(ctypes.c_uint32), ctypes.POINTER(ctypes.c_uint64)
HOOK = ctypes.CFUNCTYPE(None, ctypes.c_char_p, _U32P, _U32P, _U64P, ctypes.c_uint32)


def build(out_dir: Path) -> Path | None:
    """``libfake_ze.so`` in ``out_dir``, or None without gcc."""
    gcc = shutil.which("gcc")
    if gcc is None:
        return None
    src = Path(__file__).with_name("fake_ze_loader.c")
    lib = out_dir / "libfake_ze.so"
    subprocess.run([gcc, "-shared", "-fPIC", "-O1", "-Wall", "-Werror", "-o", str(lib),
                    str(src)], check=True, capture_output=True, text=True, timeout=120)
    return lib


class FakeLoader:
    def __init__(self, path: Path):
        self.path = str(path)
        self.lib = ctypes.CDLL(self.path)
        self.lib.fake_log.restype = ctypes.c_char_p
        self.launches: list = []
        self.emulate = None              # emulate(name, grid, block, args)
        self._hook = HOOK(self._on_launch)
        self.lib.fake_set_hook(self._hook)

    def configure(self, devices=1, flags=0x6, build_fails=False, init_fails=False):
        self.lib.fake_config(devices, flags, int(build_fails), int(init_fails))
        self.lib.fake_clear()
        self.launches.clear()

    def log(self) -> list[str]:
        return self.lib.fake_log().decode().splitlines()

    def _on_launch(self, name, count, group, args, nargs):
        grid = tuple(count[i] for i in range(3))
        block = tuple(group[i] for i in range(3))
        values = [args[i] for i in range(nargs)]
        self.launches.append((name.decode(), grid, block, values))
        if self.emulate is not None:
            self.emulate(name.decode(), grid, block, values)

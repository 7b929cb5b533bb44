""":class:`GpuTarget`: the launching half of a GPU target, written once.

Every GPU target launches through core's :class:`~.launcher.Launcher`; what differs
is the driver.  A subclass gives :meth:`GpuTarget.make_driver` (called on the first
launch, so a machine without the vendor runtime still imports and compiles) and,
when its device arrays have a foreign protocol, :attr:`GpuTarget.typeof`;
``launch``, ``to_device`` and ``synchronize`` are these.
"""
from __future__ import annotations

from ..target import Target


class GpuTarget(Target):
    kind = "gpu"

    def __init__(self):
        self._launcher = None
        self._typeof = None

    def status(self):
        """Ready when the driver loads; the reason it does not, else the device."""
        try:
            driver = self.make_driver()
        except Exception as exc:            # noqa: BLE001 - any failure to load
            return False, f"cannot launch: {exc}"
        return True, self.describe(driver)

    def describe(self, driver) -> str:
        """The device in a few words, for ``hanajit targets`` and the doctor."""
        return getattr(driver, "name", self.name)

    def make_driver(self):
        """The driver of :mod:`hanajit.launch.launcher`'s protocol (loads the vendor
        runtime; raises :class:`~hanajit.errors.TargetError` without one)."""
        raise NotImplementedError

    def launcher(self):
        if self._launcher is None:
            from .launcher import Launcher      # NumPy: loaded at the first launch
            self._launcher = Launcher(self.make_driver())
        return self._launcher

    @property
    def typeof(self):
        """The IR type of a launch argument (a NumPy or device array, a scalar): a
        plain function, which ``launch`` keeps and calls once per argument."""
        if self._typeof is None:
            from .launcher import make_typeof
            self._typeof = make_typeof()
        return self._typeof

    def launch(self, artifact, args, grid=None, block=None, stream=None, sync=True):
        launcher = self._launcher or self.launcher()
        return launcher.launch(artifact, args, grid, block, stream, sync)

    def to_device(self, array, stream=None):
        return self.launcher().to_device(array, stream)

    def synchronize(self):
        if self._launcher is not None:      # else nothing can have been launched
            self._launcher.synchronize()

"""The helpers every conformance case uses: compile for ``self.target``, compare
with CPython, run grids of edge values; :func:`requires` ties a case to the
capabilities it needs, so that a target's case list is chosen by what the target
declares (a case its target cannot run is not collected, rather than skipped)."""
from __future__ import annotations

import itertools

import pytest
from hypothesis import HealthCheck, settings

from .reference import check

#: hypothesis settings of the property tests: no deadline (the first example
#: compiles), no example database written into the working tree; one case runs
#: for each target's subclass in the same session (differing executors, on purpose)
PROPERTY = settings(max_examples=40, deadline=None, database=None,
                    suppress_health_check=[HealthCheck.too_slow,
                                           HealthCheck.filter_too_much,
                                           HealthCheck.differing_executors])


def requires(*capabilities: str):
    """Mark a case as needing these :class:`~hanajit.target.Capabilities` fields."""
    def mark(case):
        case.requires = capabilities
        return case
    return mark


def capabilities_of(target: str):
    """The declared capabilities of ``target`` (loading only its plugin when it is
    named like the target); the defaults for a target that cannot be loaded, whose
    cases then skip with the reason."""
    from .. import plugins
    from ..target import Capabilities
    try:
        return plugins.get_target(target).capabilities
    except Exception:                  # noqa: BLE001 - unknown or broken target
        return Capabilities()


class ConformanceBase:
    """Compile-and-compare helpers; ``target`` names the target under test.

    A subclass gets the cases its target's declared capabilities allow: the
    others (marked with :func:`requires`) are removed from the class."""

    target = "cpu"
    _jitted: dict = {}

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        if "target" not in cls.__dict__:   # a case mix-in, not a target's list
            return
        caps = capabilities_of(cls.target)
        for name in dir(cls):
            case = getattr(cls, name, None)
            needed = getattr(case, "requires", ())
            if name.startswith("test") and any(not getattr(caps, c) for c in needed):
                setattr(cls, name, None)       # not collected: outside the target

    def target_status(self) -> tuple[bool, str]:
        """The target's ``status()``; an unknown or broken target is not ok."""
        from .. import plugins
        try:
            return plugins.get_target(self.target).status()
        except Exception as exc:           # noqa: BLE001 - unknown or broken target
            return False, str(exc)

    @pytest.fixture(autouse=True)
    def _target_available(self):
        ok, reason = self.target_status()
        if not ok:
            pytest.skip(f"target {self.target!r} is not available: {reason}")

    def jit(self, func, **options):
        """``func`` jitted for this target with ``fallback=False`` (cached)."""
        from ..api import jit
        key = (self.target, func, tuple(sorted(options.items())))
        jf = self._jitted.get(key)
        if jf is None:
            jf = self._jitted[key] = jit(func, target=self.target, fallback=False,
                                         **options)
        return jf

    def check(self, func, *args, kwargs=None, **how):
        """Assert the compiled ``func(*args)`` matches CPython (see
        :func:`hanajit.testing.reference.check` for ``how``)."""
        return check(self.jit(func), args, kwargs, **how)

    def check_grid(self, func, *columns, limit=8, **how):
        """Check ``func`` on every combination of values from ``columns``; report up
        to ``limit`` mismatches together."""
        jf = self.jit(func)
        errors = []
        for args in itertools.product(*columns):
            try:
                check(jf, args, **how)
            except AssertionError as exc:
                errors.append(str(exc))
        if errors:
            shown = "\n".join(errors[:limit])
            raise AssertionError(f"{len(errors)} mismatches, first ones:\n{shown}")

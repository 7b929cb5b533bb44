"""Plugin discovery: find, load and register every hanajit plugin (pluggy).

A plugin is a module named by an entry point in the ``hanajit`` group, or an object
passed to :func:`register_plugin`.  The first call that needs a target
(:func:`target_classes`, :func:`exporters`, ``hanajit targets`` ...) loads them
all, once, under a lock.  :func:`get_target` -- what compiling and loading from
the disk cache need -- first loads only the entry point named like the target,
and everything else only if that one does not provide it.

Each entry point is loaded and registered inside its own ``try``/``except``, and the
two kinds of failure are treated differently on purpose:

* **A broken plugin warns.**  If the module fails to import (a missing vendor
  library, a syntax error) or its ``hanajit_register_target`` /
  ``hanajit_register_exporters`` hook raises, hanajit gives one
  :class:`~hanajit.errors.HanaJitPluginWarning` naming the plugin and the error,
  rolls back whatever that plugin registered, lists it in :func:`failed_plugins`
  and ``hanajit doctor``, and every other plugin keeps working.  Such failures
  depend on the machine, so one plugin must never take the CPU target down.
* **A misdeclared plugin raises.**  A misspelt hook (``hanajit_register_targt``,
  caught by ``pm.check_pending()`` after each plugin), a ``hanajit_*`` function
  without ``@hookimpl``, a hook with wrong argument names, a ``register()`` call
  with something that is not a named :class:`~hanajit.target.Target` subclass, or
  two plugins registering the same target or exporter name raise
  :class:`~hanajit.errors.PluginError` naming the plugin(s).  These are bugs in the
  plugin that would otherwise be silently ignored; they must be fixed, not warned
  about.  ``HANAJIT_DISABLE_PLUGINS=<name>`` is the way around one meanwhile.

Environment variables, read when the plugins are loaded:

* ``HANAJIT_DISABLE_PLUGINS=name1,name2`` -- do not load these entry points.
* ``HANAJIT_LOAD_PLUGINS=name1,name2`` -- if set, load only these entry points.
* ``HANAJIT_TARGET=name`` -- the target :func:`select_target` returns for
  ``@jit(target="auto")``.

This module is imported cheaply: no llvmlite or numpy at module level.
"""
from __future__ import annotations

from . import entrypoints
import inspect
import os
import threading
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pluggy

from . import hookspecs
from .errors import HanaJitPluginWarning, PluginError, TargetError
from .target import Capabilities, Target

__all__ = [
    "get_plugin_manager", "reset", "register_plugin", "target_classes", "get_target",
    "exporters", "plugin_info", "failed_plugins", "select_target", "target_owner",
    "plugin_hookimpls", "plugin_passes", "installed_key", "PassSpec",
]

GROUP = "hanajit"
# plugins that add passes also name their module in this group: they are loaded
# before the first compilation, the others only when something needs them
PASSES_GROUP = "hanajit.passes"
DEFAULT_TARGET = "cpu"
_REGISTRATION_HOOKS = ("hanajit_register_target", "hanajit_register_exporters",
                       "hanajit_register_passes")


@dataclass
class _PluginRecord:
    """What we know about one registered or failed plugin."""

    name: str
    module: str
    distribution: str | None = None
    version: str | None = None
    error: str = ""


@dataclass
class _Registry:
    """Everything discovery produced; replaced wholesale by :func:`reset`."""

    pm: pluggy.PluginManager
    plugins: dict[str, _PluginRecord] = field(default_factory=dict)
    failed: dict[str, _PluginRecord] = field(default_factory=dict)
    disabled: set[str] = field(default_factory=set)
    targets: dict[str, tuple[type[Target], str]] = field(default_factory=dict)
    target_instances: dict[str, Target] = field(default_factory=dict)
    exporters: dict[str, tuple[Callable[..., Any], str]] = field(default_factory=dict)
    # passes from hanajit_register_passes, in registration order: (spec, plugin)
    passes: list[tuple[PassSpec, str]] = field(default_factory=list)
    installed: tuple[str, ...] = ()   # "name=distribution version" of each entry point
    pass_plugins: tuple[str, ...] = ()   # names declared in the hanajit.passes group


@dataclass(frozen=True)
class PassSpec:
    """A pass a plugin registered (``hanajit_register_passes``); the pipeline turns
    it into a :class:`hanajit.pipeline.Pass` placed after ``after``."""

    name: str
    run: Callable[..., Any]
    after: str
    scope: str = "function"
    when: Callable[..., bool] | None = None
    doc: str = ""


_lock = threading.RLock()
_registry: _Registry | None = None
_loading: _Registry | None = None   # set while loading, seen only by the lock holder
# Before the full load: the registry that get_target() filled with just the entry
# point named like the target it was asked for, and the entry points still to load.
_partial: _Registry | None = None
_pending: list = []


# -- public API ------------------------------------------------------------------------
def get_plugin_manager() -> pluggy.PluginManager:
    """Return the pluggy manager, loading every plugin on the first call."""
    return _get_registry().pm


def reset() -> None:
    """Forget every plugin, target and exporter; the next call loads them again.

    For tests.  In-process plugins from :func:`register_plugin` are forgotten too.
    """
    global _registry, _partial
    with _lock:
        _registry = _partial = None
        _pending.clear()


def register_plugin(plugin: Any, name: str) -> None:
    """Register an in-process plugin (a module, class or object with hookimpls).

    Entry-point plugins are loaded first.  Unlike an entry point, an in-process
    plugin whose registration hook raises is not turned into a warning: the
    exception propagates (as :class:`PluginError`) and nothing of it stays
    registered.  ``HANAJIT_DISABLE_PLUGINS`` does not apply to it.
    """
    with _lock:
        reg = _get_registry()
        module = getattr(plugin, "__name__", None) or type(plugin).__module__
        record = _PluginRecord(name=name, module=module)
        try:
            _register_one(reg, plugin, record)
        except PluginError:
            raise
        except Exception as exc:
            raise PluginError(
                f"hanajit plugin {name!r} failed to register: "
                f"{type(exc).__name__}: {exc}"
            ) from exc


def target_classes() -> dict[str, type[Target]]:
    """Return every registered target class by name, in registration order."""
    return {name: cls for name, (cls, _) in _get_registry().targets.items()}


def capabilities_of(name: str) -> Capabilities:
    """The declared capabilities of the target called ``name`` (the defaults of
    :class:`~hanajit.target.Capabilities` for a name no plugin registers).  Like
    :func:`get_target`, it loads only the plugin named like the target when that
    provides it (every compile asks, and loading all plugins costs milliseconds)."""
    reg = _registry if _registry is not None else _registry_with_target(name)
    cls = reg.targets.get(_canonical_name(reg, name), (None,))[0]
    return cls.capabilities if cls is not None else Capabilities()


def get_target(name: str) -> Target:
    """Return the target called ``name``, instantiated once and cached.

    An unknown name is a :class:`TargetError` that lists the available targets and
    says which distribution would provide it (or why its plugin did not load).
    """
    reg = _registry if _registry is not None else _registry_with_target(name)
    target = reg.target_instances.get(name)
    if target is not None:
        return target
    with _lock:
        name = _canonical_name(reg, name)
        target = reg.target_instances.get(name)
        if target is None:
            if name not in reg.targets:
                raise TargetError(_unknown_target_message(reg, name))
            target = reg.targets[name][0]()
            reg.target_instances[name] = target
        return target


def _canonical_name(reg: _Registry, name: str) -> str:
    """``name``, or the name of the target that lists it in ``Target.aliases``."""
    if name in reg.targets:
        return name
    return next((tname for tname, (cls, _) in reg.targets.items()
                 if name in cls.aliases), name)


def exporters() -> dict[str, Callable[..., Any]]:
    """Return every registered exporter function by name."""
    return {name: fn for name, (fn, _) in _get_registry().exporters.items()}


def plugin_passes() -> list[tuple[PassSpec, str]]:
    """Every pass plugins registered, with the registering plugin's name, in
    registration order.  Loads the plugins of the ``hanajit.passes`` group (not
    every plugin: the first compilation stays cheap)."""
    with _lock:
        reg = _registry
        if reg is None:
            reg = _partial_registry()
            for ep in [ep for ep in _pending if ep.name in reg.pass_plugins]:
                _load_pending(reg, ep)
        return list(reg.passes)


def _load_pending(reg: _Registry, ep: entrypoints.EntryPoint) -> None:
    """Load one entry point still pending into the partial registry ``reg``."""
    global _loading
    _pending.remove(ep)
    _loading = reg
    try:
        _load_entry_point(reg, ep)
    finally:
        _loading = None


def _partial_registry() -> _Registry:
    global _partial
    if _partial is None:
        _partial = _new_registry()
    return _partial


def installed_key() -> str:
    """Which plugins this process may load: the entry points of group ``hanajit``
    with their distributions' versions, plus in-process plugins.  Part of the disk
    cache key (a plugin's passes change the code) without loading any plugin."""
    with _lock:
        reg = _registry or _partial_registry()
        from_entry_points = {item.split("=")[0] for item in reg.installed}
        inproc = sorted(n for n in reg.plugins if n not in from_entry_points)
        return ",".join(reg.installed + tuple("inproc:" + n for n in inproc)
                        + tuple("passes:" + n for n in reg.pass_plugins))


def plugin_info() -> list[dict[str, Any]]:
    """Describe each loaded plugin: name, distribution, version, module, hooks.

    ``hooks`` are the hook names the plugin implements; ``targets`` and
    ``exporters`` are the names it registered.  Plugins that failed to load are
    in :func:`failed_plugins` instead.
    """
    reg = _get_registry()
    info = []
    for name, record in reg.plugins.items():
        plugin = reg.pm.get_plugin(name)
        callers = reg.pm.get_hookcallers(plugin) or []
        info.append({
            "name": name,
            "distribution": record.distribution,
            "version": record.version,
            "module": record.module,
            "hooks": sorted(caller.name for caller in callers),
            "targets": [t for t, (_, owner) in reg.targets.items() if owner == name],
            "exporters": [e for e, (_, owner) in reg.exporters.items()
                          if owner == name],
        })
    return info


def failed_plugins() -> list[dict[str, Any]]:
    """List the plugins that failed to load: name, distribution, version, module,
    reason."""
    return [
        {"name": r.name, "distribution": r.distribution, "version": r.version,
         "module": r.module, "reason": r.error}
        for r in _get_registry().failed.values()
    ]


def select_target(function: Any = None) -> str:
    """Return the target name for ``@jit(target="auto")``.

    ``HANAJIT_TARGET`` wins if set (it must name a registered target).  Otherwise
    the ``hanajit_select_target(candidates, function)`` hook chooses among the
    available targets that can run code (kind ``"host"`` or ``"gpu"``); the first
    plugin returning a name wins, and with no answer the default is ``"cpu"``.
    """
    reg = _get_registry()
    forced = os.environ.get("HANAJIT_TARGET", "").strip()
    if forced:
        forced = _canonical_name(reg, forced)       # an alias names its target
        if forced not in reg.targets:
            raise TargetError("HANAJIT_TARGET: " + _unknown_target_message(reg, forced))
        return forced
    candidates = [name for name, (cls, _) in reg.targets.items()
                  if cls.kind != "export" and _is_available(name)]
    choice = reg.pm.hook.hanajit_select_target(candidates=candidates,
                                               function=function)
    if choice is None:
        if DEFAULT_TARGET not in reg.targets:
            raise TargetError(_unknown_target_message(reg, DEFAULT_TARGET))
        return DEFAULT_TARGET
    if choice not in candidates:
        owners = [impl.plugin_name for impl in
                  reg.pm.hook.hanajit_select_target.get_hookimpls()]
        raise PluginError(
            f"hanajit_select_target returned {choice!r}, which is not one of the "
            f"candidates {candidates}; implemented by plugin(s) {owners}"
        )
    return choice


# -- loading ---------------------------------------------------------------------------
def _get_registry() -> _Registry:
    reg = _registry
    if reg is not None:
        return reg
    with _lock:
        if _registry is not None:
            return _registry
        if _loading is not None:     # a plugin's hook called back into us
            return _loading
        return _load()


def _load() -> _Registry:
    """Load every entry point (those get_target() has not loaded yet); called
    once, with the lock held."""
    global _registry, _loading, _partial
    reg = _partial if _partial is not None else _new_registry()
    _loading = reg
    try:
        while _pending:
            _load_entry_point(reg, _pending.pop(0))
    finally:
        _loading = None
    _registry, _partial = reg, None
    return reg


def _new_registry() -> _Registry:
    pm = pluggy.PluginManager(GROUP)
    pm.add_hookspecs(hookspecs)
    reg = _Registry(pm)
    _pending[:] = _selected_entry_points(reg)
    reg.installed = tuple(
        f"{ep.name}={_dist_of(ep)}" for ep in sorted(_pending, key=lambda e: e.name))
    return reg


def _dist_of(ep: entrypoints.EntryPoint) -> str:
    dist = getattr(ep, "dist", None)
    return f"{dist.metadata['Name']} {dist.version}" if dist is not None else ep.value


def _registry_with_target(name: str) -> _Registry:
    """A registry holding target ``name``, loading as little as possible.

    A warm start from the disk cache needs one target and nothing else, and
    importing every plugin costs tens of milliseconds.  So when the entry point
    named like the target (``cpu = "hanajit_cpu.plugin"``) provides it, only that
    plugin is loaded; everything else (another target, exporters, the plugin
    list, hooks) loads the rest first, and a clash between plugins is reported
    then.
    """
    with _lock:
        if _registry is not None:
            return _registry
        if _loading is not None:     # a plugin's hook called back into us
            return _loading
        reg = _partial_registry()
        if name not in reg.targets:
            ep = next((ep for ep in _pending if ep.name == name), None)
            if ep is not None:
                _load_pending(reg, ep)
        return reg if name in reg.targets else _load()


def _env_names(var: str) -> set[str] | None:
    value = os.environ.get(var)
    if value is None or not value.strip():
        return None
    return {part.strip() for part in value.split(",") if part.strip()}


def _selected_entry_points(reg: _Registry) -> list[entrypoints.EntryPoint]:
    """The entry points of group ``hanajit`` that the env vars let through."""
    disabled = _env_names("HANAJIT_DISABLE_PLUGINS") or set()
    only = _env_names("HANAJIT_LOAD_PLUGINS")
    groups = entrypoints.entry_points_of(GROUP, PASSES_GROUP)
    found = list(groups[GROUP])
    reg.pass_plugins = tuple(sorted(ep.name for ep in groups[PASSES_GROUP]))
    if only is not None:
        missing = only - {ep.name for ep in found}
        if missing:
            warnings.warn(
                f"HANAJIT_LOAD_PLUGINS names {sorted(missing)}, which no installed "
                f"distribution provides (installed: {sorted(ep.name for ep in found)})",
                HanaJitPluginWarning, stacklevel=4,
            )
    selected = []
    for ep in found:
        if ep.name in disabled or (only is not None and ep.name not in only):
            reg.disabled.add(ep.name)
        else:
            selected.append(ep)
    return selected


def _load_entry_point(reg: _Registry, ep: entrypoints.EntryPoint) -> None:
    dist = getattr(ep, "dist", None)
    record = _PluginRecord(
        name=ep.name, module=ep.value,
        distribution=dist.metadata["Name"] if dist is not None else None,
        version=dist.version if dist is not None else None,
    )
    try:
        plugin = ep.load()
        _register_one(reg, plugin, record)
    except PluginError:
        raise
    except Exception as exc:
        record.error = f"{type(exc).__name__}: {exc}"
        reg.failed[ep.name] = record
        where = f" (from {record.distribution} {record.version})" if dist else ""
        warnings.warn(
            f"hanajit plugin {ep.name!r}{where} failed to load and is disabled: "
            f"{record.error}",
            HanaJitPluginWarning, stacklevel=5,
        )


def _register_one(reg: _Registry, plugin: Any, record: _PluginRecord) -> None:
    """Register one plugin with pluggy and run its registration hooks.

    Misdeclarations raise :class:`PluginError`; any other exception leaves nothing
    of the plugin registered and propagates for the caller to turn into a warning.
    """
    name = record.name
    pm = reg.pm
    try:
        pm.register(plugin, name=name)
    except pluggy.PluginValidationError as exc:
        raise PluginError(f"hanajit plugin {name!r} ({record.module}): {exc}") from exc
    except ValueError as exc:
        other = reg.plugins.get(name) or reg.failed.get(name)
        by = f" by {other.distribution or other.module}" if other else ""
        raise PluginError(
            f"hanajit plugin {name!r} ({record.distribution or record.module}) "
            f"is already registered{by}: {exc}"
        ) from exc
    try:
        _check_hooks(pm, plugin, record)
        targets, exports, passes = _run_registration_hooks(reg, plugin, record)
    except BaseException:
        pm.unregister(plugin, name=name)
        raise
    reg.targets.update((t, (cls, name)) for t, cls in targets.items())
    reg.exporters.update((e, (fn, name)) for e, fn in exports.items())
    reg.passes += [(p, name) for p in passes]
    reg.plugins[name] = record


def _check_hooks(pm: pluggy.PluginManager, plugin: Any, record: _PluginRecord) -> None:
    """Fail loudly on a misspelt hook or a ``hanajit_*`` function without @hookimpl."""
    try:
        pm.check_pending()
    except pluggy.PluginValidationError as exc:
        raise PluginError(
            f"hanajit plugin {record.name!r} ({record.module}): {exc}; the hooks are "
            f"{_hook_names(pm)}"
        ) from exc
    for attr in dir(plugin):
        if not attr.startswith("hanajit_"):
            continue
        value = inspect.getattr_static(plugin, attr, None)
        func = getattr(value, "__func__", value)
        if not callable(func) or _is_marked(value) or _is_marked(func):
            continue
        known = attr in _hook_names(pm)
        raise PluginError(
            f"hanajit plugin {record.name!r} ({record.module}) defines {attr!r} "
            + ("without @hanajit.hookimpl, so it would never run" if known else
               f"which is not a hanajit hook; the hooks are {_hook_names(pm)}")
        )


def _is_marked(obj: Any) -> bool:
    return getattr(obj, GROUP + "_impl", None) is not None


def _hook_names(pm: pluggy.PluginManager) -> list[str]:
    return sorted(n for n in vars(pm.hook) if n.startswith("hanajit_")
                  and getattr(pm.hook, n).has_spec())


def _run_registration_hooks(reg: _Registry, plugin: Any, record: _PluginRecord):
    """Call this plugin's own registration hookimpls, collecting what it registers."""
    targets: dict[str, type[Target]] = {}
    exports: dict[str, Callable[..., Any]] = {}
    name = record.name

    def register_target(cls: type) -> None:
        if not (isinstance(cls, type) and issubclass(cls, Target)):
            raise PluginError(
                f"hanajit plugin {name!r} registered {cls!r}, which is not a "
                f"subclass of hanajit.target.Target"
            )
        tname = getattr(cls, "name", "")
        if not isinstance(tname, str) or not tname:
            raise PluginError(
                f"hanajit plugin {name!r} registered {cls.__qualname__} without a "
                f"name; set the class attribute name = '<target>'"
            )
        if tname in reg.targets or tname in targets:
            owner = reg.targets[tname][1] if tname in reg.targets else name
            raise PluginError(
                f"target {tname!r} is registered by two plugins: {owner!r} and "
                f"{name!r}; uninstall one, or set HANAJIT_DISABLE_PLUGINS"
            )
        targets[tname] = cls

    def register_exporter(ename: str, function: Callable[..., Any]) -> None:
        if not isinstance(ename, str) or not ename.isidentifier():
            raise PluginError(
                f"hanajit plugin {name!r} registered an exporter named {ename!r}; "
                f"the name must be a Python identifier"
            )
        if not callable(function):
            raise PluginError(
                f"hanajit plugin {name!r} registered exporter {ename!r} with "
                f"{function!r}, which is not callable"
            )
        if ename in reg.exporters or ename in exports:
            owner = reg.exporters[ename][1] if ename in reg.exporters else name
            raise PluginError(
                f"exporter {ename!r} is registered by two plugins: {owner!r} and "
                f"{name!r}"
            )
        exports[ename] = function

    passes: list[PassSpec] = []

    def register_pass(pname: str, run: Callable[..., Any], *, after: str,
                      scope: str = "function", when: Callable[..., bool] | None = None,
                      doc: str = "") -> None:
        if not isinstance(pname, str) or not pname.isidentifier():
            raise PluginError(f"hanajit plugin {name!r} registered a pass named "
                              f"{pname!r}; the name must be a Python identifier")
        if not callable(run) or (when is not None and not callable(when)):
            raise PluginError(f"hanajit plugin {name!r} registered pass {pname!r} "
                              f"with run={run!r}, when={when!r}: both must be callable")
        if scope not in ("function", "module"):
            raise PluginError(f"hanajit plugin {name!r} registered pass {pname!r} "
                              f"with scope={scope!r}; use 'function' or 'module'")
        from_entry_points = {item.split("=")[0] for item in reg.installed}
        if name in from_entry_points and name not in reg.pass_plugins:
            raise PluginError(
                f"hanajit plugin {name!r} registers pass {pname!r} but is not in the "
                f"{PASSES_GROUP!r} entry point group, so its passes would apply only "
                f"once something loads every plugin; declare it there too "
                f"({name} = \"{record.module}\")")
        taken = {p.name for p, _ in reg.passes} | {p.name for p in passes}
        if pname in taken:
            raise PluginError(f"pass {pname!r} is registered twice (plugin {name!r})")
        passes.append(PassSpec(pname, run, after, scope, when, doc))

    callbacks = {"hanajit_register_target": register_target,
                 "hanajit_register_exporters": register_exporter,
                 "hanajit_register_passes": register_pass}
    for impl in _own_hookimpls(reg.pm, plugin, _REGISTRATION_HOOKS):
        kwargs = {"register": callbacks[impl.hook_name]}
        impl.function(*[kwargs[arg] for arg in impl.argnames])
    return targets, exports, passes


class _OwnImpl:
    __slots__ = ("hook_name", "function", "argnames")

    def __init__(self, hook_name: str, impl: Any):
        self.hook_name = hook_name
        self.function = impl.function
        self.argnames = impl.argnames


def _own_hookimpls(pm: pluggy.PluginManager, plugin: Any, hook_names) -> list[_OwnImpl]:
    """This plugin's implementations of the given hooks, in ``hook_names`` order."""
    found = []
    for hook_name in hook_names:
        for impl in getattr(pm.hook, hook_name).get_hookimpls():
            if impl.plugin is plugin:
                found.append(_OwnImpl(hook_name, impl))
    return found


def plugin_hookimpls(hook_name: str) -> list[tuple[str, Callable[..., Any], tuple]]:
    """Return ``(plugin_name, function, argnames)`` for each plugin implementing
    ``hook_name``, in registration order; used by ``hanajit doctor`` to call each
    plugin's hook separately and attribute its checks."""
    reg = _get_registry()
    out = []
    for name in reg.plugins:
        plugin = reg.pm.get_plugin(name)
        for impl in _own_hookimpls(reg.pm, plugin, (hook_name,)):
            out.append((name, impl.function, impl.argnames))
    return out


# -- messages and helpers --------------------------------------------------------------
def _is_available(name: str) -> bool:
    try:
        return bool(get_target(name).status()[0])
    except Exception:
        return False


def target_owner(name: str) -> dict[str, Any]:
    """Return the plugin record (name, distribution, version, module) that
    registered target ``name``."""
    reg = _get_registry()
    if name not in reg.targets:
        raise TargetError(_unknown_target_message(reg, name))
    record = reg.plugins[reg.targets[name][1]]
    return {"name": record.name, "distribution": record.distribution,
            "version": record.version, "module": record.module}


def _unknown_target_message(reg: _Registry, name: str) -> str:
    available = ", ".join(reg.targets) or "none"
    msg = f"unknown target {name!r}; available targets: {available}."
    if name in reg.failed:
        msg += (f" The plugin {name!r} is installed but failed to load: "
                f"{reg.failed[name].error}")
    elif name in reg.disabled:
        msg += (f" The plugin {name!r} is installed but disabled by "
                f"HANAJIT_DISABLE_PLUGINS / HANAJIT_LOAD_PLUGINS.")
    else:
        msg += f" To add it, install its plugin: pip install hanajit-{name}"
    return msg

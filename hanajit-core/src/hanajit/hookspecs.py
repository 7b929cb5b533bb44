"""The hooks a hanajit plugin may implement.

A plugin is a module named by an entry point in the ``hanajit`` group (or registered
with :func:`hanajit.plugins.register_plugin`).  It implements any of the hooks below,
marked with :data:`hanajit.hookimpl`.  Hooks are looked up by name; a misspelt hook
name in a plugin is an error when the plugin is loaded.
"""
from __future__ import annotations

import pluggy

hookspec = pluggy.HookspecMarker("hanajit")


@hookspec
def hanajit_register_target(register):
    """Register target classes.

    Runs once, when the plugins are first loaded (on the first compilation, or on
    ``hanajit targets``).  Call ``register(TargetSubclass)`` for each
    :class:`hanajit.target.Target` the plugin provides; ``TargetSubclass.name`` is
    the word users pass as ``@jit(target=...)``.  Two plugins registering the same
    name is a :class:`hanajit.errors.PluginError` naming both.
    """


@hookspec
def hanajit_register_exporters(register):
    """Register exporters: ``register(name, function)``.

    Runs when plugins are loaded.  ``function(jitfunc, *args, **kwargs)`` becomes
    available as ``jitfunc.export_<name>(*args, **kwargs)`` on every jitted
    function (for example ``export_executable``, ``export_wasm``).
    """


@hookspec
def hanajit_register_passes(register):
    """Add passes to the compiler pipeline (:data:`hanajit.pipeline.PASSES`).

    Runs when plugins are loaded.  Call
    ``register(name, run, *, after, scope="function", when=None, doc="")``: the
    pass ``name`` runs right after the pass ``after`` (a name in
    ``PASSES`` or an earlier registered pass), as ``run(fn, ctx)`` on each function
    (``scope="function"``) or ``run(module, ctx)`` once (``"module"``), whenever
    ``when(ctx, spec, entry)`` is true (default: always; read the target's
    ``ctx.capabilities`` or ``ctx.options`` there, never its name).  A pass placed
    after ``lower_semantics`` sees primitive IR and must leave valid primitive IR:
    ``HANAJIT_VERIFY=passes`` checks it after the pass (``=1``, the test suite's,
    after the passes), and ``HANAJIT_DUMP=after:<name>``
    prints it.  A plugin implementing this hook names its module in the
    ``hanajit.passes`` entry point group as well as in ``hanajit``: those plugins
    are loaded before the first compilation (the others only when needed), so a
    pass applies from the first compile on.  The disk cache key names the installed
    plugins, so installing one recompiles.
    """


@hookspec
def hanajit_doctor(report):
    """Add plugin-wide checks to ``hanajit doctor``.

    Runs on ``hanajit doctor``, after each registered target's own
    :meth:`Target.doctor`.  Call ``report.check(name, ok, detail)`` for each check;
    ``ok`` is True, False or None (skipped / not applicable).
    """


@hookspec(firstresult=True)
def hanajit_select_target(candidates, function):
    """Choose the target for ``@jit(target="auto")``.

    Runs when an ``auto`` function is first compiled, unless ``HANAJIT_TARGET`` is
    set.  ``candidates`` lists the names of available targets in registration
    order; return one of them, or None to leave the choice to the next plugin (the
    default is ``"cpu"``).
    """

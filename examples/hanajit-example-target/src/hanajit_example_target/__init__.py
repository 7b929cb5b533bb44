"""hanajit-example-target: a minimal third-party plugin (entry point ``example``).

It shows the whole plugin surface in a few lines: a :class:`~hanajit.target.Target`
subclass with a doctor check, an exporter, and a plugin-wide doctor hook.
"""

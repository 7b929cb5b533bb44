"""hanajit-example-target: a minimal third-party plugin (entry point ``example``).

It shows the whole plugin surface in a few files: a :class:`~hanajit.target.Target`
subclass that compiles hanajit's primitive IR for real (C99 through the toolkit's
C-family emitter, a shared library built with the C compiler, called through
ctypes: :mod:`.cbuild`), an exporter, and a plugin-wide doctor hook.
"""

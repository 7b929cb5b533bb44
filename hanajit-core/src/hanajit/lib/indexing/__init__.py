"""Indexing: element access, basic views, advanced (fancy) indexing, ``take``, ``put``
and ``nonzero``."""

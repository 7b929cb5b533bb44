"""Parallel regions (``prange``): their typing and lowering, and the runtime calls
their generated code makes."""

"""Entry point of the ``hip`` target plugin (also reachable as ``"amd"``)."""
from hanajit import hookimpl

from .target import HipTarget


@hookimpl
def hanajit_register_target(register):
    register(HipTarget)


@hookimpl
def hanajit_select_target(candidates, function):
    """``target="auto"``: a function using the GPU kernel model (``thread_id()``,
    ``shared_array()`` ...) goes to ``hip`` when a HIP device is available (the
    target is a candidate only then)."""
    if "hip" in candidates and uses_gpu_model(function):
        return "hip"
    return None


def uses_gpu_model(function) -> bool:
    """Does ``function``'s code name one of ``hanajit.gpu``'s functions?"""
    from hanajit import gpu
    code = getattr(function, "__code__", None)
    return code is not None and not set(code.co_names).isdisjoint(gpu.__all__)

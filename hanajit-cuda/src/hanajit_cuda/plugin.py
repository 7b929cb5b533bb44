"""Entry point of the ``cuda`` target plugin."""
from hanajit import hookimpl

from .target import CudaTarget


@hookimpl
def hanajit_register_target(register):
    register(CudaTarget)


@hookimpl
def hanajit_select_target(candidates, function):
    """``target="auto"``: a function using the GPU kernel model (``thread_id()``,
    ``shared_array()`` ...) goes to ``cuda`` when a CUDA device is available."""
    if "cuda" in candidates and uses_gpu_model(function):
        return "cuda"
    return None


def uses_gpu_model(function) -> bool:
    """Does ``function``'s code name one of ``hanajit.gpu``'s functions?"""
    from hanajit import gpu
    code = getattr(function, "__code__", None)
    return code is not None and not set(code.co_names).isdisjoint(gpu.__all__)

"""hanajit.pmap on threads, on a process pool and on a Dask cluster."""
import os
import sys
from concurrent.futures import ProcessPoolExecutor

import numpy as np
import pytest

import hanajit

# the kernels live in a module worker processes can import by name
_HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, _HERE)
os.environ["PYTHONPATH"] = os.pathsep.join(
    [_HERE] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p])
from pmap_kernels import batch, checked_div, norm2, psum  # noqa: E402


def _expect(args):
    return [float(np.dot(x, x)) for (x,) in args]


def test_threads_in_order():
    args = batch(23)
    got = hanajit.pmap(norm2, args)
    np.testing.assert_allclose(got, _expect(args), rtol=1e-12)
    assert hanajit.pmap(norm2, args, workers=1) == got
    assert hanajit.pmap(norm2, []) == []
    assert hanajit.pmap(checked_div, [(7, 2), (9, 3)]) == [3, 3]
    assert hanajit.pmap(psum, [(np.arange(n),) for n in range(5)]) == [0, 0, 1, 3, 6]


def test_original_exception_surfaces():
    with pytest.raises(ZeroDivisionError):
        hanajit.pmap(checked_div, [(1, 1), (1, 0), (2, 1)])


def test_process_pool():
    args = batch(8, seed=1)
    with ProcessPoolExecutor(2) as ex:
        got = hanajit.pmap(norm2, args, executor=ex)
        np.testing.assert_allclose(got, _expect(args), rtol=1e-12)
        with pytest.raises(ZeroDivisionError):
            hanajit.pmap(checked_div, [(1, 0)], executor=ex)


def test_dask_local_cluster():
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        args = batch(10, seed=2)
        got = hanajit.pmap(norm2, args, executor=client.get_executor())
        np.testing.assert_allclose(got, _expect(args), rtol=1e-12)
        # the work ran in the worker processes, compiled there
        pids = client.run(lambda: __import__("os").getpid())
        assert len(pids) == 2
        with pytest.raises(ZeroDivisionError):
            hanajit.pmap(checked_div, [(3, 0)], executor=client.get_executor())


def _unaligned(n):
    buf = np.zeros(n * 8 + 1, dtype=np.uint8)
    a = np.frombuffer(buf.data, dtype=np.float64, count=n, offset=1)
    assert not a.flags.aligned
    return a


def test_unaligned_arrays_run_compiled():
    """As Dask delivers them: compiled (no fallback warning), same answers."""
    import warnings

    from hanajit.errors import HanaJitFallbackWarning
    args = []
    for (x,) in batch(4, size=100, seed=3):
        u = _unaligned(len(x))
        u[...] = x
        args.append((u,))
    with warnings.catch_warnings():
        warnings.simplefilter("error", HanaJitFallbackWarning)
        got = hanajit.pmap(norm2, args, workers=2)
    np.testing.assert_allclose(got, _expect(args), rtol=1e-12)

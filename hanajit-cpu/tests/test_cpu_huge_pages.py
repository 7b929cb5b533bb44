"""Large arrays ask for transparent huge pages on Linux, as NumPy's allocator
does (``hanajit.lowering.nrt``): the runtime the CPU target compiles calls
``madvise(MADV_HUGEPAGE)`` for allocations of 4 MiB or more, on the page-aligned
part of the block, and allocations of every size around the threshold keep
their values."""
from __future__ import annotations

import sys

import llvmlite.binding as llvm
import numpy as np
import pytest
from hanajit import jit
from hanajit.lowering import nrt
from hanajit_cpu import runtimes


@pytest.mark.parametrize("huge", [False, True])
def test_both_runtimes_verify(huge):
    text = nrt.runtime_ir(huge_pages=huge)
    llvm.parse_assembly(text).verify()
    assert ("@madvise" in text) is huge


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="huge pages: Linux only")
def test_the_cpu_runtime_advises_on_linux():
    assert "call i32 @madvise" in runtimes._source("nrt")[0]


def filled(n, v):
    a = np.empty(n, np.uint8)
    a[:] = v
    return a


@pytest.mark.parametrize("n", [nrt.HUGE_PAGES - 65, nrt.HUGE_PAGES - 64, nrt.HUGE_PAGES,
                               nrt.HUGE_PAGES + 4095, 2 * nrt.HUGE_PAGES + 123])
def test_sizes_around_the_threshold(n):
    a = jit(filled, fallback=False)(n, 7)
    assert a.shape == (n,) and a.dtype == np.uint8
    assert int(a.sum(dtype=np.int64)) == 7 * n

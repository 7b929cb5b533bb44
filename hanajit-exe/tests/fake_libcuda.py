"""A fake ``libcuda.so.1`` for the executables' CUDA tests, built with gcc.

Every driver entry point the generated ``main`` resolves exists.  ``HJ_FAKE``
picks the behaviour:

* ``noinit``: ``cuInit`` returns 100 (CUDA_ERROR_NO_DEVICE), as on a machine with a
  driver but no usable GPU;
* ``badptx``: ``cuModuleLoadData`` returns 218 (CUDA_ERROR_INVALID_PTX);
* ``launchfail``: ``cuLaunchKernel`` returns 719 (CUDA_ERROR_LAUNCH_FAILED);
* ``run``: a "device" whose memory is host memory and whose ``cuLaunchKernel``
  runs the one-thread kernel itself: the LLVM IR that ``hanajit_cuda.single_thread``
  hands to the NVPTX backend (kernel entry, C-ABI wrapper, the function), compiled
  for this host instead and linked into the fake.  That exercises the kernel
  wrapper and the program's whole host side -- parameter packing, uploads, the
  raise record, copies back -- everything but NVPTX code generation (which ptxas
  checks).

``HJ_FAKE_PTX`` names a file the PTX given to ``cuModuleLoadData`` is written to;
``HJ_FAKE_LOG`` one that gets a line per launch (grid, block, parameter count).
"""
from __future__ import annotations

import re
import subprocess
from pathlib import Path

_SOURCE = r"""
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

KERNEL_DECL

static const char *mode(void) {
    const char *m = getenv("HJ_FAKE");
    return m ? m : "noinit";
}

int cuInit(unsigned flags) {
    (void)flags;
    return strcmp(mode(), "noinit") ? 0 : 100;
}
int cuDeviceGetCount(int *n) { *n = 1; return 0; }
int cuDeviceGet(int *d, int i) { *d = i; return 0; }
int cuDevicePrimaryCtxRetain(void **c, int d) { (void)d; *c = (void *)16; return 0; }
int cuCtxSetCurrent(void *c) { (void)c; return 0; }
int cuModuleLoadData(void **m, const void *ptx) {
    const char *path = getenv("HJ_FAKE_PTX");
    if (path) {
        FILE *f = fopen(path, "w");
        fputs((const char *)ptx, f);
        fclose(f);
    }
    *m = (void *)32;
    return strcmp(mode(), "badptx") ? 0 : 218;
}
int cuModuleGetFunction(void **f, void *m, const char *name) {
    (void)m;
    *f = (void *)48;
    return strcmp(name, "hj_kernel") ? 500 : 0;
}
int cuMemAlloc_v2(unsigned long long *p, size_t n) {
    *p = (unsigned long long)(uintptr_t)malloc(n);
    memset((void *)(uintptr_t)*p, 0xAB, n);     /* garbage, as device memory is */
    return 0;
}
int cuMemFree_v2(unsigned long long p) { free((void *)(uintptr_t)p); return 0; }
int cuMemcpyHtoD_v2(unsigned long long d, const void *h, size_t n) {
    memcpy((void *)(uintptr_t)d, h, n);
    return 0;
}
int cuMemcpyDtoH_v2(void *h, unsigned long long d, size_t n) {
    memcpy(h, (const void *)(uintptr_t)d, n);
    return 0;
}
int cuCtxSynchronize(void) { return 0; }
int cuGetErrorName(int r, const char **name) {
    switch (r) {
    case 100: *name = "CUDA_ERROR_NO_DEVICE"; return 0;
    case 218: *name = "CUDA_ERROR_INVALID_PTX"; return 0;
    case 719: *name = "CUDA_ERROR_LAUNCH_FAILED"; return 0;
    }
    return 1;
}

int cuLaunchKernel(void *f, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                   unsigned by, unsigned bz, unsigned shared, void *stream,
                   void **params, void **extra) {
    const char *log = getenv("HJ_FAKE_LOG");
    void *buf;
    (void)f; (void)shared; (void)stream; (void)extra;
    if (log) {
        FILE *fl = fopen(log, "a");
        fprintf(fl, "grid %u %u %u block %u %u %u params %d\n", gx, gy, gz, bx, by,
                bz, NPARAMS);
        fclose(fl);
    }
    if (!strcmp(mode(), "launchfail")) return 719;
    buf = (void *)(uintptr_t)*(unsigned long long *)params[0];
    CALL_KERNEL;
    return 0;
}
"""


def kernel_object(folder: Path, module) -> Path:
    """The one-thread kernel's LLVM IR, as given to the NVPTX backend, compiled for
    this host (x86-64 Linux): only the kernel entry stays external."""
    import llvmlite.binding as llvm

    from hanajit_cuda.ptx import KERNEL, TRIPLE
    from hanajit_cuda.single_thread import lower_single_thread
    from hanajit_exe.target import LINUX_TRIPLE

    text, uses_libdevice = lower_single_thread(module)
    if uses_libdevice:
        raise ValueError("the fake device has no libdevice")
    text = text.replace(f'target triple = "{TRIPLE}"', f'target triple = "{LINUX_TRIPLE}"')
    text = re.sub(r'target datalayout = "[^"]*"', "", text)
    text = text.replace("define ptx_kernel void", "define void")
    llvm.initialize_all_targets()
    llvm.initialize_all_asmprinters()
    tm = llvm.Target.from_triple(LINUX_TRIPLE).create_target_machine(
        opt=2, reloc="pic", codemodel="default")
    mod = llvm.parse_assembly(text)
    mod.data_layout = str(tm.target_data)
    for fn in mod.functions:
        if not fn.is_declaration and fn.name != KERNEL:
            fn.linkage = "internal"
    mod.verify()
    obj = folder / "fake_kernel.o"
    obj.write_bytes(tm.emit_object(mod))
    return obj


def build_fake_libcuda(folder: Path, module) -> Path:
    """Compile the fake into ``folder/libcuda.so.1``, its device running the
    one-thread kernel of the IR ``module``."""
    from hanajit_cuda.single_thread import param_kinds
    kinds = param_kinds(module.functions[module.entry])
    ctype = {"i64": "int64_t", "f64": "double"}
    proto = ", ".join(["void *"] + [ctype[k] for k in kinds])
    args = ", ".join(["buf"] + [f"*({ctype[k]} *)params[{i + 1}]"
                                for i, k in enumerate(kinds)])
    src = folder / "fake_libcuda.c"
    src.write_text(_SOURCE.replace("KERNEL_DECL", f"extern void hj_kernel({proto});")
                   .replace("CALL_KERNEL", f"hj_kernel({args})")
                   .replace("NPARAMS", str(1 + len(kinds))))
    lib = folder / "libcuda.so.1"
    subprocess.run(["gcc", "-shared", "-fPIC", "-O1", "-o", str(lib), str(src),
                    str(kernel_object(folder, module))],
                   check=True, capture_output=True, text=True)
    return lib

"""A fake ``libamdhip64.so``, built with gcc, for the launch tests without an AMD GPU.

Every HIP call hanajit's ctypes layer declares exists with the same C prototype.
Device memory is host memory (``hipMalloc`` is ``malloc``), copies are
``memcpy`` (asynchronous ones done at once), and each call appends a line to a
log that the test reads (``hjfake_log``):  ``load <bytes> mach=0x3f`` (the
``EF_AMDGPU_MACH`` of the code object's ELF header: 0x3f gfx90a, 0x41 gfx1100),
``launch grid=.. block=.. shared=.. stream=.. slots=<hex,...>`` (the packed
``extra`` buffer, or ``kernelParams`` with ``hjfake_set_nparams``), ``htod``,
``dtoh``, ``memset``, ``malloc``, ``free``, ``sync``, ``stream``.

``hipModuleLaunchKernel`` calls the kernel set with ``hjfake_set_kernel`` (a
Python ctypes callback receiving the slots, grid and block): the test emulates
the kernel on the host memory the slots point to.  ``hjfake_set_mode``: 0
normal, 1 no device (``hipGetDeviceCount`` -> 100), 2 invalid image
(``hipModuleLoadData`` -> 200), 3 launch failure (-> 719).
``hjfake_set_arch`` sets the ``gcnArchName`` the properties report (both
``hipGetDeviceProperties`` and ROCm 6's ``hipGetDevicePropertiesR0600``, with
the name at different offsets).
"""
from __future__ import annotations

import ctypes
import subprocess
from pathlib import Path

SOURCE = r"""
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef void (*kernel_fn)(const uint64_t *slots, size_t n, const unsigned *grid,
                          const unsigned *block);
static char LOG[1 << 20];
static size_t used;
static int MODE;
static int NPARAMS;
static char ARCH[64] = "gfx90a:sramecc+:xnack-";
static kernel_fn KERNEL;

static void logf_(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
#include <stdarg.h>
static void logf_(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    used += vsnprintf(LOG + used, sizeof LOG - used, fmt, ap);
    va_end(ap);
}
const char *hjfake_log(void) { return LOG; }
void hjfake_reset(void) { used = 0; LOG[0] = 0; MODE = 0; NPARAMS = 0; }
void hjfake_set_mode(int m) { MODE = m; }
void hjfake_set_nparams(int n) { NPARAMS = n; }
void hjfake_set_arch(const char *a) { strncpy(ARCH, a, sizeof ARCH - 1); }
void hjfake_set_kernel(kernel_fn k) { KERNEL = k; }

int hipInit(unsigned flags) { logf_("init %u\n", flags); return 0; }
int hipGetDeviceCount(int *n) {
    if (MODE == 1) { *n = 0; return 100; }
    *n = 2;
    return 0;
}
int hipSetDevice(int d) { logf_("device %d\n", d); return 0; }
int hipDeviceGetName(char *name, int len, int d) {
    snprintf(name, len, "Fake AMD GPU %d", d);
    return 0;
}
int hipGetDeviceProperties(void *props, int d) {
    /* name first, gcnArchName far inside, as in both ROCm layouts */
    memset(props, 0, 2048);
    snprintf((char *)props, 256, "Fake AMD GPU %d", d);
    strcpy((char *)props + 1160, ARCH);
    return 0;
}
int hipGetDevicePropertiesR0600(void *props, int d) {   /* ROCm 6's layout */
    memset(props, 0, 4096);
    snprintf((char *)props, 256, "Fake AMD GPU %d", d);
    strcpy((char *)props + 1600, ARCH);
    logf_("properties R0600\n");
    return 0;
}
int hipModuleLoadData(void **module, const void *image) {
    const unsigned char *e = image;
    uint32_t flags;
    memcpy(&flags, e + 48, 4);          /* e_flags of an ELF64 header */
    logf_("load elf=%d mach=0x%x\n", memcmp(e, "\x7f" "ELF", 4) == 0, flags & 0xff);
    *module = (void *)0x100;
    return MODE == 2 ? 200 : 0;
}
int hipModuleGetFunction(void **fn, void *module, const char *name) {
    logf_("function %s\n", name);
    *fn = (void *)0x200;
    return module == (void *)0x100 ? 0 : 400;
}
int hipModuleUnload(void *module) { (void)module; return 0; }
int hipModuleLaunchKernel(void *fn, unsigned gx, unsigned gy, unsigned gz,
                          unsigned bx, unsigned by, unsigned bz, unsigned shared,
                          void *stream, void **params, void **extra) {
    const uint64_t *slots = NULL;
    size_t n = 0;
    uint64_t copied[64];
    if (fn != (void *)0x200) return 400;
    if (extra) {
        if ((uintptr_t)extra[0] != 1 || (uintptr_t)extra[2] != 2
            || (uintptr_t)extra[4] != 3) return 1;
        slots = extra[1];
        n = *(size_t *)extra[3] / 8;
    } else if (params) {
        for (n = 0; n < (size_t)NPARAMS; n++) copied[n] = *(uint64_t *)params[n];
        slots = copied;
    }
    logf_("launch grid=%u,%u,%u block=%u,%u,%u shared=%u stream=%p slots=",
          gx, gy, gz, bx, by, bz, shared, stream);
    for (size_t i = 0; i < n; i++)
        logf_("%s%llx", i ? "," : "", (unsigned long long)slots[i]);
    logf_("\n");
    if (MODE == 3) return 719;
    unsigned grid[3] = {gx, gy, gz}, block[3] = {bx, by, bz};
    if (KERNEL) KERNEL(slots, n, grid, block);
    return 0;
}
int hipMalloc(void **p, size_t n) {
    *p = calloc(1, n ? n : 1);
    logf_("malloc %zu\n", n);
    return 0;
}
int hipFree(void *p) { free(p); logf_("free\n"); return 0; }
int hipMemcpyHtoD(void *d, void *h, size_t n) {
    memcpy(d, h, n); logf_("htod %zu\n", n); return 0;
}
int hipMemcpyDtoH(void *h, void *d, size_t n) {
    memcpy(h, d, n); logf_("dtoh %zu\n", n); return 0;
}
int hipMemset(void *p, int v, size_t n) {
    memset(p, v, n); logf_("memset %zu\n", n); return 0;
}
int hipMemcpyHtoDAsync(void *d, void *h, size_t n, void *s) {
    memcpy(d, h, n); logf_("htod %zu stream=%p\n", n, s); return 0;
}
int hipMemcpyDtoHAsync(void *h, void *d, size_t n, void *s) {
    memcpy(h, d, n); logf_("dtoh %zu stream=%p\n", n, s); return 0;
}
int hipMemcpyDtoDAsync(void *d, void *s_, size_t n, void *s) {
    memcpy(d, s_, n); logf_("dtod %zu stream=%p\n", n, s); return 0;
}
int hipMemsetAsync(void *p, int v, size_t n, void *s) {
    memset(p, v, n); logf_("memset %zu stream=%p\n", n, s); return 0;
}
int hipStreamCreate(void **s) {
    static uintptr_t next = 0x1000;
    *s = (void *)(next += 16);
    logf_("stream %p\n", *s);
    return 0;
}
int hipStreamSynchronize(void *s) { logf_("sync stream=%p\n", s); return 0; }
int hipDeviceSynchronize(void) { logf_("sync device\n"); return 0; }
const char *hipGetErrorName(int e) {
    switch (e) {
    case 100: return "hipErrorNoDevice";
    case 200: return "hipErrorInvalidImage";
    case 719: return "hipErrorLaunchFailure";
    default: return "hipErrorUnknown";
    }
}
const char *hipGetErrorString(int e) {
    return e == 100 ? "no ROCm-capable device is detected" : "fake error";
}
"""

_UINTS = ctypes.POINTER(ctypes.c_uint)
KERNEL_FN = ctypes.CFUNCTYPE(None, ctypes.POINTER(ctypes.c_uint64), ctypes.c_size_t,
                             _UINTS, _UINTS)


def build(folder: Path) -> Path:
    """Compile the fake into ``folder/libamdhip64.so`` and return its path."""
    src = folder / "fake_amdhip64.c"
    src.write_text(SOURCE)
    lib = folder / "libamdhip64.so"
    subprocess.run(["gcc", "-shared", "-fPIC", "-O1", "-o", str(lib), str(src)],
                   check=True, capture_output=True, text=True, timeout=120)
    return lib


class Fake:
    """The fake's test controls (the same loaded library the launcher uses)."""

    def __init__(self, path: Path):
        self.lib = ctypes.CDLL(str(path))
        self.lib.hjfake_log.restype = ctypes.c_char_p
        self.lib.hjfake_set_arch.argtypes = [ctypes.c_char_p]
        self._kernel = None

    def reset(self):
        self.lib.hjfake_reset()

    def log(self) -> list:
        return self.lib.hjfake_log().decode().splitlines()

    def mode(self, m: int):
        self.lib.hjfake_set_mode(m)

    def arch(self, name: str):
        self.lib.hjfake_set_arch(name.encode())

    def kernel(self, fn):
        """``fn(slots: list[int], grid: tuple, block: tuple)`` runs at each launch."""
        def call(slots, n, grid, block):
            fn([slots[i] for i in range(n)], tuple(grid[:3]), tuple(block[:3]))
        self._kernel = KERNEL_FN(call)          # kept alive while installed
        self.lib.hjfake_set_kernel(self._kernel)

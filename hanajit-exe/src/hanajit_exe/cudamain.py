"""The CUDA part of a generated ``main`` (``cuda="optional"`` / ``"required"``).

The program carries the PTX of a one-thread kernel (``hanajit_cuda.single_thread``:
``hj_kernel(buf, args...)`` calls the same C-ABI entry wrapper as the CPU object,
writing the raise record to ``buf[0..3]`` and the flattened result to ``buf[4...]``)
as a C string.  At run time it loads the NVIDIA driver itself -- ``dlopen
("libcuda.so.1")`` on Linux, ``LoadLibraryA("nvcuda.dll")`` on Windows, never a
link-time dependency -- resolves the driver API entry points (the ``_v2`` names
where the driver has them), retains the primary context of device
``HANAJIT_CUDA_DEVICE`` (default 0), loads the PTX (the driver compiles it for the
GPU), copies the array arguments over, launches grid 1 x block 1, and copies the
buffer and the writable arrays back.  Host arrays are overwritten only once every
copy has succeeded, so any CUDA failure leaves the inputs intact and the CPU code
can still run.

``hj_cuda_load`` and ``hj_gpu_call`` return 1 on success, or 0 with one line in
``hj_cuda_why`` saying which driver call failed and how.
"""
from __future__ import annotations

from hanajit.ir import types as T
from hanajit.lowering.cabi import ret_slots

# the one-thread kernel's buffer (hanajit_cuda.single_thread): raise record, arena
# bytes used and needed, then the result
USED, NEEDED, RESULT_AT = 4, 5, 6

CUDA_C = r"""
#include <stddef.h>
#ifdef _WIN32
#include <windows.h>
#define HJ_CUDA_LIB "nvcuda.dll"
#define HJ_CUAPI __stdcall
static void *hj_dl_open(void) { return (void *)LoadLibraryA(HJ_CUDA_LIB); }
static void *hj_dl_sym(void *lib, const char *name) {
    return (void *)GetProcAddress((HMODULE)lib, name);
}
#else
#include <dlfcn.h>
#define HJ_CUDA_LIB "libcuda.so.1"
#define HJ_CUAPI
static void *hj_dl_open(void) { return dlopen(HJ_CUDA_LIB, RTLD_NOW | RTLD_LOCAL); }
static void *hj_dl_sym(void *lib, const char *name) { return dlsym(lib, name); }
#endif

typedef int hj_CUresult;
typedef int hj_CUdevice;
typedef void *hj_CUcontext;
typedef void *hj_CUmodule;
typedef void *hj_CUfunction;
typedef unsigned long long hj_CUdeviceptr;

static struct hj_cu_api {
    hj_CUresult (HJ_CUAPI *Init)(unsigned);
    hj_CUresult (HJ_CUAPI *DeviceGetCount)(int *);
    hj_CUresult (HJ_CUAPI *DeviceGet)(hj_CUdevice *, int);
    hj_CUresult (HJ_CUAPI *PrimaryCtxRetain)(hj_CUcontext *, hj_CUdevice);
    hj_CUresult (HJ_CUAPI *CtxSetCurrent)(hj_CUcontext);
    hj_CUresult (HJ_CUAPI *ModuleLoadData)(hj_CUmodule *, const void *);
    hj_CUresult (HJ_CUAPI *ModuleGetFunction)(hj_CUfunction *, hj_CUmodule,
                                              const char *);
    hj_CUresult (HJ_CUAPI *MemAlloc)(hj_CUdeviceptr *, size_t);
    hj_CUresult (HJ_CUAPI *MemFree)(hj_CUdeviceptr);
    hj_CUresult (HJ_CUAPI *MemcpyHtoD)(hj_CUdeviceptr, const void *, size_t);
    hj_CUresult (HJ_CUAPI *MemcpyDtoH)(void *, hj_CUdeviceptr, size_t);
    hj_CUresult (HJ_CUAPI *LaunchKernel)(hj_CUfunction, unsigned, unsigned, unsigned,
                                         unsigned, unsigned, unsigned, unsigned,
                                         void *, void **, void **);
    hj_CUresult (HJ_CUAPI *CtxSynchronize)(void);
    hj_CUresult (HJ_CUAPI *GetErrorName)(hj_CUresult, const char **);
} hj_cu;

static char hj_cuda_why[320];

/* Record why CUDA cannot run: the call and the driver's name for the error. */
static int hj_cuda_fail(const char *call, hj_CUresult r) {
    const char *name = NULL;
    if (!hj_cu.GetErrorName || hj_cu.GetErrorName(r, &name) != 0 || !name)
        name = "unknown error";
    snprintf(hj_cuda_why, sizeof hj_cuda_why, "%s failed: %s (%d)", call, name, r);
    return 0;
}

#define HJ_CU(call, args) do { hj_CUresult hj_r = hj_cu.call args; \
    if (hj_r != 0) return hj_cuda_fail("cu" #call, hj_r); } while (0)

/* The entry point `name`, preferring `name`_v2 (the 64-bit API of CUDA >= 3.2). */
static void *hj_cu_sym(void *lib, const char *name, int v2) {
    char full[64];
    void *p = NULL;
    if (v2) {
        snprintf(full, sizeof full, "%s_v2", name);
        p = hj_dl_sym(lib, full);
    }
    return p ? p : hj_dl_sym(lib, name);
}

/* Load the driver, make the primary context of HANAJIT_CUDA_DEVICE (default 0)
   current and load `ptx`; 1 with *fn set, or 0 with hj_cuda_why set. */
static int hj_cuda_load(const char *ptx, hj_CUfunction *fn) {
#define HJ_SLOT(member, name, v2) {name, v2, offsetof(struct hj_cu_api, member)}
    static const struct { const char *name; int v2; size_t at; } names[] = {
        HJ_SLOT(Init, "cuInit", 0), HJ_SLOT(DeviceGetCount, "cuDeviceGetCount", 0),
        HJ_SLOT(DeviceGet, "cuDeviceGet", 0),
        HJ_SLOT(PrimaryCtxRetain, "cuDevicePrimaryCtxRetain", 0),
        HJ_SLOT(CtxSetCurrent, "cuCtxSetCurrent", 0),
        HJ_SLOT(ModuleLoadData, "cuModuleLoadData", 0),
        HJ_SLOT(ModuleGetFunction, "cuModuleGetFunction", 0),
        HJ_SLOT(MemAlloc, "cuMemAlloc", 1), HJ_SLOT(MemFree, "cuMemFree", 1),
        HJ_SLOT(MemcpyHtoD, "cuMemcpyHtoD", 1), HJ_SLOT(MemcpyDtoH, "cuMemcpyDtoH", 1),
        HJ_SLOT(LaunchKernel, "cuLaunchKernel", 0),
        HJ_SLOT(CtxSynchronize, "cuCtxSynchronize", 0),
        HJ_SLOT(GetErrorName, "cuGetErrorName", 0)};
    const char *env = getenv("HANAJIT_CUDA_DEVICE");
    int ordinal = 0, count = 0;
    size_t i;
    hj_CUdevice dev;
    hj_CUcontext ctx;
    hj_CUmodule mod;
    void *lib = hj_dl_open();
    if (!lib) {
        snprintf(hj_cuda_why, sizeof hj_cuda_why, "cannot load %s (no NVIDIA driver)",
                 HJ_CUDA_LIB);
        return 0;
    }
    for (i = 0; i < sizeof names / sizeof names[0]; i++) {
        /* the address goes into its function pointer by memcpy (POSIX: same
           representation), not through a cast pointer (aliasing) */
        void *p = hj_cu_sym(lib, names[i].name, names[i].v2);
        memcpy((char *)&hj_cu + names[i].at, &p, sizeof p);
        if (!p && strcmp(names[i].name, "cuGetErrorName")) {
            snprintf(hj_cuda_why, sizeof hj_cuda_why, "%s has no %s", HJ_CUDA_LIB,
                     names[i].name);
            return 0;
        }
    }
    if (env && *env) ordinal = atoi(env);
    HJ_CU(Init, (0));
    HJ_CU(DeviceGetCount, (&count));
    if (ordinal < 0 || ordinal >= count) {
        snprintf(hj_cuda_why, sizeof hj_cuda_why,
                 "no CUDA device %d (the driver reports %d)", ordinal, count);
        return 0;
    }
    HJ_CU(DeviceGet, (&dev, ordinal));
    HJ_CU(PrimaryCtxRetain, (&ctx, dev));
    HJ_CU(CtxSetCurrent, (ctx));
    HJ_CU(ModuleLoadData, (&mod, ptx));
    HJ_CU(ModuleGetFunction, (fn, mod, "hj_kernel"));
    return 1;
}

/* Device memory holding a copy of the `n` bytes at `host` (NULL: uninitialised). */
static int hj_cu_upload(hj_CUdeviceptr *d, const void *host, size_t n) {
    HJ_CU(MemAlloc, (d, n ? n : 1));
    if (n && host) HJ_CU(MemcpyHtoD, (*d, host, n));
    return 1;
}
"""


def _nbytes(i: int, t: T.ArrayType) -> str:
    isz = 1 if t.dtype.is_bool else t.dtype.bits // 8
    dims = "".join(f" * (size_t)a{i}->shape[{k}]" for k in range(t.ndim))
    return f"(size_t){isz}{dims}"


def result_arrays(t: T.Type, at: int = 0) -> list:
    """(slot, ndim) of every array in a result of type ``t``, in order: the
    entry wrapper writes meminfo, data, shape, strides from ``slot``."""
    if isinstance(t, T.ArrayType):
        return [(at, t.ndim)]
    if isinstance(t, T.TupleType):
        out = []
        for item in t.items:
            out += result_arrays(item, at)
            at += ret_slots(item)
        return out
    return []


def gpu_call(types: list, return_type: T.Type, gpu) -> str:
    """C function ``hj_gpu_call(fn, ret, err, args...)``: run the kernel once with
    the program's arguments (arrays as ``hj_array *``), fill ``ret``/``err`` like
    the CPU entry does and update the writable arrays; 1, or 0 (nothing changed).
    ``gpu``: the ``SingleThreadKernel`` (``buffer_slots``, ``allocates``)."""
    arrays = [(i, t) for i, t in enumerate(types) if isinstance(t, T.ArrayType)]
    results = result_arrays(return_type)
    proto = ["hj_CUfunction fn", "int64_t *ret", "int64_t *err"]
    for i, t in enumerate(types):
        if isinstance(t, T.ArrayType):
            proto.append(f"hj_array *a{i}")
        elif t.is_complex:
            proto.append(f"const double *a{i}")
        else:
            proto.append(f"{'double' if t.is_float else 'int64_t'} a{i}")
    nparams = 3 + sum(1 + 2 * t.ndim if isinstance(t, T.ArrayType) else
                      2 if t.is_complex else 1 for t in types)
    nret = gpu.buffer_slots - RESULT_AT
    first = "((size_t)1 << 24)" + "".join(f" + 2 * n{i}" for i, _ in arrays)
    out = [f"static int hj_gpu_call({', '.join(proto)}) {{",
           f"    int64_t host[{gpu.buffer_slots}];",
           f"    int64_t v[{nparams - 1}];",
           f"    void *params[{nparams}];",
           "    hj_CUdeviceptr buf = 0, arena = 0;",
           "    char *harena = NULL;",
           "    uint64_t used;",
           "    hj_CUresult r;"]
    for i, t in arrays:
        out += [f"    hj_CUdeviceptr d{i} = 0;",
                f"    char *h{i} = NULL;",
                f"    size_t n{i} = {_nbytes(i, t)};"]
    out += [f"    size_t arena_size = {first if gpu.allocates else '0'};",
            "    int ok = 0, p, attempt;",
            "    for (attempt = 0; ; attempt++) {",
            "        memset(host, 0, sizeof host);",
            "        if (!hj_cu_upload(&buf, host, sizeof host)) goto done;",
            "        if (arena_size && !hj_cu_upload(&arena, NULL, arena_size)) "
            "goto done;",
            "        p = 0;",
            "        v[p++] = (int64_t)arena;",
            "        v[p++] = (int64_t)arena_size;"]
    for i, t in enumerate(types):
        if isinstance(t, T.ArrayType):
            out += [f"        if (!hj_cu_upload(&d{i}, a{i}->data, n{i})) goto done;",
                    f"        v[p++] = (int64_t)d{i};"]
            out += [f"        v[p++] = a{i}->shape[{k}];" for k in range(t.ndim)]
            out += [f"        v[p++] = a{i}->strides[{k}];" for k in range(t.ndim)]
        elif t.is_complex:
            out += [f"        memcpy(&v[p++], &a{i}[0], 8);",
                    f"        memcpy(&v[p++], &a{i}[1], 8);"]
        elif t.is_float:
            out.append(f"        memcpy(&v[p++], &a{i}, 8);")
        else:
            out.append(f"        v[p++] = a{i};")
    out += ["        params[0] = &buf;",
            f"        for (p = 1; p < {nparams}; p++) params[p] = &v[p - 1];",
            "        r = hj_cu.LaunchKernel(fn, 1, 1, 1, 1, 1, 1, 0, NULL, params, NULL);",
            "        if (r != 0) { hj_cuda_fail(\"cuLaunchKernel\", r); goto done; }",
            "        r = hj_cu.CtxSynchronize();",
            "        if (r != 0) { hj_cuda_fail(\"cuCtxSynchronize\", r); goto done; }",
            "        r = hj_cu.MemcpyDtoH(host, buf, sizeof host);",
            "        if (r != 0) { hj_cuda_fail(\"cuMemcpyDtoH\", r); goto done; }",
            f"        if ((uint64_t)host[{NEEDED}] <= (uint64_t)arena_size) break;",
            "        /* the arena was too small: again, with a larger one and the",
            "           arguments uploaded afresh */",
            f"        if (attempt == 40 || (uint64_t)host[{NEEDED}] > "
            "(uint64_t)(SIZE_MAX / 2)) {",
            "            snprintf(hj_cuda_why, sizeof hj_cuda_why, \"the arrays the "
            "function allocates need %\" PRIu64 \" bytes of device memory\", "
            f"(uint64_t)host[{NEEDED}]);",
            "            goto done;",
            "        }",
            f"        arena_size = 2 * (size_t)host[{NEEDED}];",
            "        hj_cu.MemFree(arena);",
            "        hj_cu.MemFree(buf);",
            "        arena = buf = 0;"]
    for i, _ in arrays:
        out += [f"        hj_cu.MemFree(d{i});", f"        d{i} = 0;"]
    out += ["    }",
            f"    used = (uint64_t)host[{USED}];"]
    for i, t in arrays:
        if t.readonly:
            continue
        out += [f"    h{i} = malloc(n{i} ? n{i} : 1);",
                f"    if (!h{i}) {{ snprintf(hj_cuda_why, sizeof hj_cuda_why, "
                "\"out of host memory\"); goto done; }",
                f"    if (n{i}) {{",
                f"        r = hj_cu.MemcpyDtoH(h{i}, d{i}, n{i});",
                "        if (r != 0) { hj_cuda_fail(\"cuMemcpyDtoH\", r); goto done; }",
                "    }"]
    if results:
        out += ["    /* the result's arrays: device addresses become host ones */",
                "    harena = malloc(used ? used : 1);",
                "    if (!harena) { snprintf(hj_cuda_why, sizeof hj_cuda_why, "
                "\"out of host memory\"); goto done; }",
                "    if (used) {",
                "        r = hj_cu.MemcpyDtoH(harena, arena, used);",
                "        if (r != 0) { hj_cuda_fail(\"cuMemcpyDtoH\", r); goto done; }",
                "    }"]
        for at, ndim in results:
            data = f"host[{RESULT_AT + at + 1}]"
            count = " * ".join(f"host[{RESULT_AT + at + 2 + k}]"
                               for k in range(ndim)) or "1"
            out += ["    if (host[0] == 0) {          /* (a raise leaves no result) */",
                    f"        uint64_t q = (uint64_t){data};",
                    "        if (arena && q >= arena && q <= arena + used)",
                    f"            {data} = (int64_t)(intptr_t)(harena + (q - arena));"]
            for i, _ in arrays:          # views of arguments: into their host copy
                out += [f"        else if (d{i} && q >= d{i} && q <= d{i} + n{i})",
                        f"            {data} = (int64_t)(intptr_t)(a{i}->data + "
                        f"(q - d{i}));"]
            out += [f"        else if (({count}) == 0)",
                    f"            {data} = (int64_t)(intptr_t)harena;",
                    "        else {",
                    "            snprintf(hj_cuda_why, sizeof hj_cuda_why, \"a result "
                    "array lies outside the kernel's memory\");",
                    "            goto done;",
                    "        }",
                    "    }"]
    out += ["    /* every copy succeeded: now the program's values change */",
            "    memcpy(err, host, 4 * sizeof(int64_t));"]
    if nret:
        out.append(f"    memcpy(ret, host + {RESULT_AT}, {nret} * sizeof(int64_t));")
    for i, t in arrays:
        if not t.readonly:
            out.append(f"    if (n{i}) memcpy(a{i}->data, h{i}, n{i});")
    out += ["    ok = 1;",
            "done:"]
    for i, t in arrays:
        out += [f"    if (d{i}) hj_cu.MemFree(d{i});", f"    free(h{i});"]
    out += ["    if (arena) hj_cu.MemFree(arena);",
            "    if (buf) hj_cu.MemFree(buf);",
            "    if (!ok) free(harena);       /* else the result's arrays live there */",
            "    return ok;",
            "}"]
    return "\n".join(out)


def ptx_literal(ptx: str) -> str:
    """The PTX as a C array initialiser: one string literal per line, so the source
    stays readable and within compilers' limits on one literal."""
    from hanajit.toolkit.boundary_c import c_string
    lines = ptx.splitlines()
    out = ["static const char hj_ptx[] ="]
    for line in lines:
        parts = [c_string(piece)[1:-1] for piece in line.split("\t")]
        out.append('    "' + "\\t".join(parts) + '\\n"')
    out[-1] += ";"
    if len(out) == 1:
        out[0] += ' "";'
    return "\n".join(out)

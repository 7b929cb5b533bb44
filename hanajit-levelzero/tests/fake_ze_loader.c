/* A fake Level Zero loader for the tests (built with gcc by the test session):
 * the calls hanajit_levelzero.ze_driver makes, over host memory, each recorded
 * as one line of text (fake_log).  Command lists run when the queue is
 * synchronised, not before, so a launcher that reads results without waiting is
 * caught.  A kernel launch calls the hook the test registers (fake_set_hook)
 * with the kernel's name, group count, group size and the 8-byte argument
 * values captured when the launch was appended, as Level Zero captures them. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef uint32_t res_t;
typedef void (*hook_t)(const char *, const uint32_t *, const uint32_t *,
                       const uint64_t *, uint32_t);

#define MAXARGS 64
#define MAXCMDS 64
static char log_buf[1 << 20];
static size_t log_len;
static int n_devices = 1, module_flags = 0x6, fail_build, fail_init;
static hook_t hook;

static void logf_(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
#include <stdarg.h>
static void logf_(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    log_len += vsnprintf(log_buf + log_len, sizeof log_buf - log_len, fmt, ap);
    va_end(ap);
    log_len += snprintf(log_buf + log_len, sizeof log_buf - log_len, "\n");
}

const char *fake_log(void) { return log_buf; }
void fake_clear(void) { log_len = 0; log_buf[0] = 0; }
void fake_config(int devices, int flags, int build_fails, int init_fails) {
    n_devices = devices; module_flags = flags; fail_build = build_fails;
    fail_init = init_fails;
}
void fake_set_hook(hook_t h) { hook = h; }

typedef struct { char name[64]; uint64_t args[MAXARGS]; uint32_t nargs; uint32_t group[3]; } kernel_t;
typedef struct {
    int kind;                        /* 1 copy, 2 fill, 3 launch, 4 barrier */
    void *dst; const void *src; size_t size;
    kernel_t k; uint32_t count[3];
} cmd_t;
typedef struct { cmd_t cmds[MAXCMDS]; int n, closed; } list_t;

static list_t *pending[1024];
static int n_pending;
static int driver_tag, device_tags[8], context_tag, queue_tag;

res_t zeInit(uint32_t flags) { logf_("zeInit(%u)", flags); return fail_init ? 0x78000001 : 0; }

res_t zeDriverGet(uint32_t *count, void **drivers) {
    if (drivers && *count) drivers[0] = &driver_tag;
    *count = n_devices ? 1 : 0;
    logf_("zeDriverGet(%s)", drivers ? "handles" : "count");
    return 0;
}

res_t zeDeviceGet(void *driver, uint32_t *count, void **devices) {
    if (devices)
        for (uint32_t i = 0; i < *count && i < (uint32_t)n_devices; i++)
            devices[i] = &device_tags[i];
    *count = n_devices;
    logf_("zeDeviceGet(%s)", devices ? "handles" : "count");
    return 0;
}

typedef struct { uint32_t stype; void *pNext; uint32_t type, vendorId, deviceId, flags,
    subdeviceId, coreClockRate; uint64_t maxMemAllocSize; uint32_t a[7]; uint64_t t;
    uint32_t b[2]; uint8_t uuid[16]; char name[256]; } devprops_t;

res_t zeDeviceGetProperties(void *device, devprops_t *p) {
    int i = (int)((int *)device - device_tags);
    logf_("zeDeviceGetProperties(device %d, stype 0x%x)", i, p->stype);
    snprintf(p->name, sizeof p->name, "Fake Intel GPU %d", i);
    p->vendorId = 0x8086;
    return 0;
}

typedef struct { uint32_t stype; void *pNext; uint32_t spirv, flags; } modprops_t;
res_t zeDeviceGetModuleProperties(void *device, modprops_t *p) {
    logf_("zeDeviceGetModuleProperties(stype 0x%x)", p->stype);
    p->spirv = 0x10004;
    p->flags = (uint32_t)module_flags;
    return 0;
}

res_t zeContextCreate(void *driver, const uint32_t *desc, void **ctx) {
    logf_("zeContextCreate(stype 0x%x)", desc[0]);
    *ctx = &context_tag;
    return 0;
}

typedef struct { uint32_t stype; const void *pNext; uint32_t ordinal, index, flags, mode, priority; } qdesc_t;
res_t zeCommandQueueCreate(void *ctx, void *dev, const qdesc_t *d, void **q) {
    logf_("zeCommandQueueCreate(stype 0x%x, mode %u)", d->stype, d->mode);
    *q = &queue_tag;
    return 0;
}

res_t zeCommandListCreate(void *ctx, void *dev, const uint32_t *desc, void **out) {
    list_t *l = calloc(1, sizeof *l);
    logf_("zeCommandListCreate(stype 0x%x)", desc[0]);
    *out = l;
    return 0;
}

static res_t add(list_t *l, cmd_t c) {
    if (l->closed || l->n == MAXCMDS) return 0x78000004;
    l->cmds[l->n++] = c;
    return 0;
}

res_t zeCommandListAppendMemoryCopy(list_t *l, void *dst, const void *src, size_t size,
                                    void *ev, uint32_t nw, void *w) {
    logf_("zeCommandListAppendMemoryCopy(size %zu)", size);
    return add(l, (cmd_t){.kind = 1, .dst = dst, .src = src, .size = size});
}

res_t zeCommandListAppendMemoryFill(list_t *l, void *ptr, const void *pattern,
                                    size_t psize, size_t size, void *ev, uint32_t nw, void *w) {
    logf_("zeCommandListAppendMemoryFill(pattern %u of %zu byte(s), size %zu)",
          *(const uint8_t *)pattern, psize, size);
    return add(l, (cmd_t){.kind = 2, .dst = ptr, .src = pattern, .size = size});
}

res_t zeCommandListAppendBarrier(list_t *l, void *ev, uint32_t nw, void *w) {
    logf_("zeCommandListAppendBarrier()");
    return add(l, (cmd_t){.kind = 4});
}

res_t zeCommandListAppendLaunchKernel(list_t *l, kernel_t *k, const uint32_t *count,
                                      void *ev, uint32_t nw, void *w) {
    logf_("zeCommandListAppendLaunchKernel(%s, groups %ux%ux%u)", k->name, count[0],
          count[1], count[2]);
    cmd_t c = {.kind = 3, .k = *k};
    memcpy(c.count, count, sizeof c.count);
    return add(l, c);
}

res_t zeCommandListClose(list_t *l) { logf_("zeCommandListClose()"); l->closed = 1; return 0; }
res_t zeCommandListDestroy(list_t *l) { logf_("zeCommandListDestroy()"); free(l); return 0; }

res_t zeCommandQueueExecuteCommandLists(void *q, uint32_t n, list_t **lists, void *fence) {
    logf_("zeCommandQueueExecuteCommandLists(%u)", n);
    for (uint32_t i = 0; i < n; i++) {
        if (!lists[i]->closed) return 0x78000004;
        pending[n_pending++] = lists[i];
    }
    return 0;
}

res_t zeCommandQueueSynchronize(void *q, uint64_t timeout) {
    logf_("zeCommandQueueSynchronize(%s)", timeout == UINT64_MAX ? "forever" : "timeout");
    for (int i = 0; i < n_pending; i++) {
        list_t *l = pending[i];
        for (int j = 0; j < l->n; j++) {
            cmd_t *c = &l->cmds[j];
            if (c->kind == 1) memmove(c->dst, c->src, c->size);
            else if (c->kind == 2) memset(c->dst, 0, c->size);
            else if (c->kind == 3 && hook)
                hook(c->k.name, c->count, c->k.group, c->k.args, c->k.nargs);
        }
    }
    n_pending = 0;
    return 0;
}

res_t zeMemAllocDevice(void *ctx, const uint32_t *desc, size_t size, size_t align,
                       void *dev, void **out) {
    logf_("zeMemAllocDevice(stype 0x%x, size %zu, alignment %zu)", desc[0], size, align);
    *out = aligned_alloc(64, (size + 63) / 64 * 64);
    return *out ? 0 : 0x70000003;
}

res_t zeMemFree(void *ctx, void *ptr) { logf_("zeMemFree()"); free(ptr); return 0; }

typedef struct { uint32_t stype; const void *pNext; uint32_t format; size_t size;
                 const uint8_t *input; const char *flags; const void *constants; } mdesc_t;
static char build_log[256];

res_t zeModuleCreate(void *ctx, void *dev, const mdesc_t *d, void **module, void **log) {
    uint32_t magic = 0;
    if (d->size >= 4) memcpy(&magic, d->input, 4);
    logf_("zeModuleCreate(stype 0x%x, format %u, %zu bytes, magic 0x%08x, flags '%s')",
          d->stype, d->format, d->size, magic, d->flags ? d->flags : "");
    snprintf(build_log, sizeof build_log, "%s",
             fail_build ? "error: fake build failure" : "");
    if (log) *log = build_log;
    if (fail_build || magic != 0x07230203) return 0x70000004;
    *module = malloc(1);
    return 0;
}

res_t zeModuleBuildLogGetString(void *log, size_t *size, char *out) {
    if (out) memcpy(out, log, *size); else *size = strlen(log) + 1;
    return 0;
}

res_t zeModuleBuildLogDestroy(void *log) { logf_("zeModuleBuildLogDestroy()"); return 0; }

typedef struct { uint32_t stype; const void *pNext; uint32_t flags; const char *name; } kdesc_t;
res_t zeKernelCreate(void *module, const kdesc_t *d, kernel_t **out) {
    logf_("zeKernelCreate(stype 0x%x, %s)", d->stype, d->name);
    kernel_t *k = calloc(1, sizeof *k);
    snprintf(k->name, sizeof k->name, "%s", d->name);
    *out = k;
    return 0;
}

res_t zeKernelSetGroupSize(kernel_t *k, uint32_t x, uint32_t y, uint32_t z) {
    logf_("zeKernelSetGroupSize(%u, %u, %u)", x, y, z);
    k->group[0] = x; k->group[1] = y; k->group[2] = z;
    return 0;
}

res_t zeKernelSetArgumentValue(kernel_t *k, uint32_t i, size_t size, const void *value) {
    if (i >= MAXARGS || size != 8) return 0x78000016;
    memcpy(&k->args[i], value, 8);
    if (i + 1 > k->nargs) k->nargs = i + 1;
    return 0;
}

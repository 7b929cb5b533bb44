"""C helpers of the generated ``main`` for array arguments and results (.npy files).

``hj_npy_read`` parses a ``.npy`` header (magic, version 1.0, 2.0 or 3.0, the
``descr`` / ``fortran_order`` / ``shape`` dictionary), checks the element type and
the number of dimensions against the signature and reads the data into a fresh
buffer; it reports a mismatch in one sentence and the program exits with status 64.
``hj_npy_write`` writes any strided array as a C-ordered version 1.0 file, and
``hj_print_array`` prints one as a (nested) Python list.  ``hj_npy_write_back``
rewrites the data part of an argument's file in place (``--write-back``).
"""
from __future__ import annotations

from hanajit.ir import types as T


def descr(t: T.Scalar) -> str:
    """NumPy's ``descr`` for an element type on a little-endian machine."""
    if t.is_bool:
        return "|b1"
    kind = {"i": "i", "u": "u", "f": "f"}[t.kind]
    size = t.bits // 8
    return f"|{kind}1" if size == 1 else f"<{kind}{size}"


def elem_kind(t: T.Scalar) -> str:
    """How ``hj_print_array`` prints an element: 'b' bool, 'i' signed, 'u'
    unsigned, 'f' float (then the item size tells the width)."""
    return "b" if t.is_bool else t.kind


NPY_C = r"""
typedef struct {
    char *data;              /* the buffer (owned) */
    int64_t shape[32];
    int64_t strides[32];     /* bytes */
    long offset;             /* where the data starts in the file */
} hj_array;

static const char *hj_npy_error;
static char hj_npy_msg[256];

/* The value text after 'key': in a .npy header dictionary, or NULL. */
static const char *hj_npy_key(const char *h, const char *key) {
    const char *p = strstr(h, key);
    if (!p) return NULL;
    p += strlen(key);
    while (*p == ' ' || *p == ':') p++;
    return p;
}

/* Read `path` as an array of `ndim` dimensions whose descr is `descr` (itemsize
   `isz`).  order: 'C' or 'F' (the signature's layout) or 'A' (either).  Returns 1,
   or 0 with hj_npy_error set. */
static int hj_npy_read(const char *path, const char *descr, int64_t isz, int ndim,
                       char order, hj_array *a) {
    unsigned char pre[12];
    char *h;
    uint32_t hlen;
    int64_t n = 1, got_ndim = 0, k;
    size_t hdr;
    int fortran;
    const char *p;
    char file_descr[16];
    FILE *f = fopen(path, "rb");
    hj_npy_error = hj_npy_msg;
    if (!f) {
        snprintf(hj_npy_msg, sizeof hj_npy_msg, "cannot open '%s': %s", path,
                 strerror(errno));
        return 0;
    }
    if (fread(pre, 1, 10, f) != 10 || memcmp(pre, "\x93NUMPY", 6)) {
        snprintf(hj_npy_msg, sizeof hj_npy_msg, "'%s' is not a .npy file", path);
        fclose(f);
        return 0;
    }
    if (pre[6] == 1) {
        hlen = pre[8] | (uint32_t)pre[9] << 8;
        hdr = 10;
    } else if (pre[6] == 2 || pre[6] == 3) {
        if (fread(pre + 10, 1, 2, f) != 2) pre[10] = pre[11] = 0xff;
        hlen = pre[8] | (uint32_t)pre[9] << 8 | (uint32_t)pre[10] << 16
               | (uint32_t)pre[11] << 24;
        hdr = 12;
    } else {
        snprintf(hj_npy_msg, sizeof hj_npy_msg, "'%s': unsupported .npy version %d.%d",
                 path, pre[6], pre[7]);
        fclose(f);
        return 0;
    }
    if (hlen > (1u << 24) || !(h = calloc(hlen + 1, 1))
        || fread(h, 1, hlen, f) != hlen) {
        snprintf(hj_npy_msg, sizeof hj_npy_msg, "'%s': truncated .npy header", path);
        fclose(f);
        return 0;
    }
    a->offset = (long)(hdr + hlen);
    p = hj_npy_key(h, "'descr'");
    if (!p || (*p != '\'' && *p != '"')
        || sscanf(p + 1, "%15[^'\"]", file_descr) != 1) {
        snprintf(hj_npy_msg, sizeof hj_npy_msg, "'%s': no descr in the .npy header "
                 "(structured dtypes are not supported)", path);
        free(h); fclose(f);
        return 0;
    }
    /* one-byte types: NumPy writes '|'; '<' and '=' mean the same there */
    if (strcmp(file_descr, descr) && !(isz == 1 && file_descr[0] != '>'
                                       && !strcmp(file_descr + 1, descr + 1))) {
        snprintf(hj_npy_msg, sizeof hj_npy_msg, "'%s' holds dtype '%s', expected '%s'",
                 path, file_descr, descr);
        free(h); fclose(f);
        return 0;
    }
    p = hj_npy_key(h, "'fortran_order'");
    fortran = p && !strncmp(p, "True", 4);
    p = hj_npy_key(h, "'shape'");
    if (!p || *p != '(') {
        snprintf(hj_npy_msg, sizeof hj_npy_msg, "'%s': no shape in the .npy header",
                 path);
        free(h); fclose(f);
        return 0;
    }
    p++;
    for (;;) {
        char *end;
        long long v;
        while (*p == ' ' || *p == ',') p++;
        if (*p == ')') break;
        v = strtoll(p, &end, 10);
        if (end == p || v < 0 || got_ndim >= 32) {
            snprintf(hj_npy_msg, sizeof hj_npy_msg,
                     "'%s': bad shape in the .npy header", path);
            free(h); fclose(f);
            return 0;
        }
        a->shape[got_ndim++] = v;
        if (v && n > INT64_MAX / v) n = INT64_MAX; else n *= v;
        p = end;
    }
    free(h);
    if (got_ndim != ndim) {
        snprintf(hj_npy_msg, sizeof hj_npy_msg, "'%s' has %d dimension%s, expected %d",
                 path, (int)got_ndim, got_ndim == 1 ? "" : "s", ndim);
        fclose(f);
        return 0;
    }
    if (ndim > 1 && ((order == 'C' && fortran) || (order == 'F' && !fortran))) {
        snprintf(hj_npy_msg, sizeof hj_npy_msg, "'%s' is %s-ordered, the signature "
                 "wants a %s-contiguous array", path, fortran ? "Fortran" : "C",
                 order == 'C' ? "C" : "Fortran");
        fclose(f);
        return 0;
    }
    if (n > INT64_MAX / isz / 2) {
        snprintf(hj_npy_msg, sizeof hj_npy_msg, "'%s': array too large", path);
        fclose(f);
        return 0;
    }
    a->data = malloc((size_t)(n * isz) + 64);
    if (!a->data || fread(a->data, (size_t)isz, (size_t)n, f) != (size_t)n) {
        snprintf(hj_npy_msg, sizeof hj_npy_msg, "'%s': %s", path,
                 a->data ? "truncated .npy data" : "out of memory");
        fclose(f);
        return 0;
    }
    fclose(f);
    if (isz == 1 && descr[1] == 'b')          /* NumPy bools are 0 or 1 */
        for (k = 0; k < n; k++) a->data[k] = a->data[k] != 0;
    {
        int64_t s = isz;
        if (fortran) {
            for (k = 0; k < ndim; k++) { a->strides[k] = s; s *= a->shape[k]; }
        } else {
            for (k = ndim - 1; k >= 0; k--) { a->strides[k] = s; s *= a->shape[k]; }
        }
    }
    return 1;
}

/* Write a strided array as a C-ordered version 1.0 .npy file. */
static int hj_npy_write(const char *path, const char *descr, int64_t isz, int ndim,
                        const int64_t *shape, const int64_t *strides,
                        const char *data) {
    char head[512];
    int len, k;
    int64_t idx[32] = {0}, n = 1;
    FILE *f = fopen(path, "wb");
    if (!f) return 0;
    len = snprintf(head, sizeof head, "{'descr': '%s', 'fortran_order': False, "
                   "'shape': (", descr);
    for (k = 0; k < ndim; k++) {
        len += snprintf(head + len, sizeof head - len, "%" PRId64 "%s", shape[k],
                        ndim == 1 ? "," : (k + 1 < ndim ? ", " : ""));
        n *= shape[k];
    }
    len += snprintf(head + len, sizeof head - len, "), }");
    while ((10 + len + 1) % 64) head[len++] = ' ';
    head[len++] = '\n';
    fwrite("\x93NUMPY\x01\x00", 1, 8, f);
    fputc(len & 0xff, f);
    fputc(len >> 8, f);
    fwrite(head, 1, (size_t)len, f);
    while (n > 0) {
        const char *p = data;
        for (k = 0; k < ndim; k++) p += idx[k] * strides[k];
        fwrite(p, 1, (size_t)isz, f);
        for (k = ndim - 1; k >= 0; k--) {
            if (++idx[k] < shape[k]) break;
            idx[k] = 0;
        }
        if (k < 0) break;
    }
    return fclose(f) == 0;
}

/* Rewrite the data of an argument read by hj_npy_read (it is still laid out as
   in the file: the kernel wrote through the same buffer). */
static int hj_npy_write_back(const char *path, const hj_array *a, int64_t isz,
                             int ndim) {
    int64_t n = 1;
    int k;
    FILE *f = fopen(path, "r+b");
    if (!f) return 0;
    for (k = 0; k < ndim; k++) n *= a->shape[k];
    if (fseek(f, a->offset, SEEK_SET) || fwrite(a->data, (size_t)isz, (size_t)n, f)
        != (size_t)n) {
        fclose(f);
        return 0;
    }
    return fclose(f) == 0;
}

static void hj_print_elem(const char *p, char kind, int64_t isz) {
    if (kind == 'f') {
        if (isz == 4) { float v; memcpy(&v, p, 4); hj_print_float(v); }
        else { double v; memcpy(&v, p, 8); hj_print_float(v); }
    } else if (kind == 'b') {
        fputs(*p ? "True" : "False", stdout);
    } else if (kind == 'i') {
        int64_t v = isz == 1 ? *(const int8_t *)p : isz == 2 ? *(const int16_t *)p
                  : isz == 4 ? *(const int32_t *)p : *(const int64_t *)p;
        printf("%" PRId64, v);
    } else {
        uint64_t v = isz == 1 ? *(const uint8_t *)p : isz == 2 ? *(const uint16_t *)p
                   : isz == 4 ? *(const uint32_t *)p : *(const uint64_t *)p;
        printf("%" PRIu64, v);
    }
}

/* Print a strided array as a (nested) Python list, like print(a.tolist()). */
static void hj_print_array(char kind, int64_t isz, int ndim, const int64_t *shape,
                           const int64_t *strides, const char *data) {
    int64_t i;
    if (ndim == 0) { hj_print_elem(data, kind, isz); return; }
    fputs("[", stdout);
    for (i = 0; i < shape[0]; i++) {
        if (i) fputs(", ", stdout);
        hj_print_array(kind, isz, ndim - 1, shape + 1, strides + 1,
                       data + i * strides[0]);
    }
    fputs("]", stdout);
}
"""

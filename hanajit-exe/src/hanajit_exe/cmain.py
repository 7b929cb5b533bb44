"""The generated C ``main`` of an exported executable.

It parses ``argv`` per the signature, calls the C-ABI entry wrapper
(``hanajit.lowering.cabi``: ``i32 __hj_entry(i64 *ret, i64 *err, i64/double...)``)
and prints the result the way Python's ``print(repr(...))`` would for ints, bools,
``None`` and tuples.  Floats are printed with ``%.17g`` so that ``float(text)``
gives back the exact value (``1.0`` keeps its ``.0``; ``inf``, ``-inf``, ``nan``
are spelt as Python spells them).

Array arguments are ``.npy`` paths (``npyio``); array results are printed as
(nested) lists, or written to the ``.npy`` files named by ``-o``/``--out`` (one per
array in the result, in order; the path then stands in the printed result).
``--write-back`` rewrites the files of the array arguments after the call, for
kernels that work in place.  The options exist only when the signature has arrays.

With ``cuda="optional"`` / ``"required"`` the program first tries the embedded
one-thread CUDA kernel (``cudamain``), which fills the same ``ret``/``err`` slots;
when CUDA cannot run, "optional" says why on stderr and calls the CPU entry,
"required" exits with status 70.

Exit status: 0 success, 1 the kernel raised (``ExcName: message`` on stderr), 64
wrong number of arguments, unparsable text or a .npy file that does not fit the
signature (EX_USAGE), 70 CUDA required but unavailable (EX_SOFTWARE), 73 an output
file cannot be written (EX_CANTCREAT), 74 stdout failed (EX_IOERR).
"""
from __future__ import annotations

from hanajit.ir import types as T
from hanajit.lowering.cabi import ENTRY, flat_kinds, ret_slots

from .cudamain import CUDA_C, gpu_call, ptx_literal
from .npyio import NPY_C, descr, elem_kind

EXIT_RAISED = 1
EXIT_USAGE = 64
EXIT_NO_CUDA = 70
EXIT_CANTCREAT = 73

_PRELUDE = r"""
#define __USE_MINGW_ANSI_STDIO 1   /* C99 printf (%.17g, %lld) under mingw-w64 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int hj_parse_int(const char *s, int64_t lo, int64_t hi, int64_t *out) {
    char *end;
    long long v;
    if (*s == '\0') return 0;
    errno = 0;
    v = strtoll(s, &end, 10);
    if (errno || *end != '\0' || v < lo || v > hi) return 0;
    *out = (int64_t)v;
    return 1;
}

static int hj_parse_uint(const char *s, uint64_t hi, int64_t *out) {
    char *end;
    unsigned long long v;
    if (*s == '\0' || *s == '-') return 0;
    errno = 0;
    v = strtoull(s, &end, 10);
    if (errno || *end != '\0' || v > hi) return 0;
    *out = (int64_t)v;          /* the wrapper reinterprets the 64 bits */
    return 1;
}

static int hj_parse_float(const char *s, double *out) {
    char *end;
    if (*s == '\0') return 0;
    *out = strtod(s, &end);
    return *end == '\0';        /* overflow gives inf, as Python's float() would not
                                   raise either for "1e999" */
}

static int hj_parse_bool(const char *s, int64_t *out) {
    if (!strcmp(s, "True") || !strcmp(s, "true") || !strcmp(s, "1")) {
        *out = 1;
        return 1;
    }
    if (!strcmp(s, "False") || !strcmp(s, "false") || !strcmp(s, "0")) {
        *out = 0;
        return 1;
    }
    return 0;
}

static void hj_print_float(double v) {
    char buf[40];
    if (isnan(v)) { fputs("nan", stdout); return; }
    if (isinf(v)) { fputs(v > 0 ? "inf" : "-inf", stdout); return; }
    snprintf(buf, sizeof buf, "%.17g", v);
    fputs(buf, stdout);
    if (!strpbrk(buf, ".en")) fputs(".0", stdout);
}

/* A raise's text with the kernel's integers (err[1..3]) in its "{}" places;
   "{{" and "}}" are literal braces. */
static void hj_print_raise(const char *text, const int64_t *err) {
    int k = 1;
    for (; *text; text++) {
        if (text[0] == '{' && text[1] == '}' && k < 4) {
            fprintf(stderr, "%" PRId64, err[k++]);
            text++;
        } else if ((text[0] == '{' || text[0] == '}') && text[1] == text[0]) {
            fputc(*text, stderr);
            text++;
        } else {
            fputc(*text, stderr);
        }
    }
    fputc('\n', stderr);
}

static double hj_as_double(int64_t bits) {
    double d;
    memcpy(&d, &bits, sizeof d);
    return d;
}
"""


def _c_string(text: str) -> str:
    """A C string literal (ASCII, everything else escaped) for ``text``."""
    out = []
    for ch in text.encode("utf-8"):
        c = chr(ch)
        if c == "\\" or c == '"':
            out.append("\\" + c)
        elif 32 <= ch < 127 and c != "?":      # '?' escaped: no trigraphs
            out.append(c)
        else:
            out.append(f"\\{ch:03o}")
    return '"' + "".join(out) + '"'


def raise_text(entry) -> str:
    """``ExcName: message`` for one ``Module.raises`` entry."""
    exc, message, _deopt = entry
    name = getattr(exc, "__name__", str(exc))
    return f"{name}: {message}" if message else name


def _parse_stmt(i: int, t: T.Scalar, var: str, arg: str) -> str:
    if t.is_bool:
        return f"hj_parse_bool({arg}, &{var})"
    if t.is_float:
        return f"hj_parse_float({arg}, &{var})"
    lo, hi = T.int_range(t)
    if t.is_signed:
        lo_c = "INT64_MIN" if lo == T.INT64_MIN else f"INT64_C({lo})"
        return f"hj_parse_int({arg}, {lo_c}, INT64_C({hi}), &{var})"
    return f"hj_parse_uint({arg}, UINT64_C({hi}), &{var})"


def _print_stmts(t: T.Type, counter: list, out: list, arrays: list) -> None:
    """C statements printing a value of type ``t`` from the ``ret`` slots;
    ``arrays`` counts the array results met so far (for ``-o``)."""
    if isinstance(t, T.NoneType):
        out.append('fputs("None", stdout);')
        return
    if isinstance(t, T.TupleType):
        out.append('fputs("(", stdout);')
        for i, item in enumerate(t.items):
            if i:
                out.append('fputs(", ", stdout);')
            _print_stmts(item, counter, out, arrays)
        out.append('fputs("%s", stdout);' % (",)" if len(t.items) == 1 else ")"))
        return
    k = counter[0]
    if isinstance(t, T.ArrayType):
        counter[0] += ret_slots(t)
        j = len(arrays)
        arrays.append(t)
        isz = 1 if t.dtype.is_bool else t.dtype.bits // 8
        shape, strides = f"&ret[{k + 2}]", f"&ret[{k + 2 + t.ndim}]"
        data = f"(const char *)(intptr_t)ret[{k + 1}]"
        out += ["if (nout) {",
                f"    if (!hj_npy_write(outs[{j}], \"{descr(t.dtype)}\", {isz}, "
                f"{t.ndim}, {shape}, {strides}, {data})) {{",
                f"        fprintf(stderr, \"%s: cannot write '%s': %s\\n\", argv[0], "
                f"outs[{j}], strerror(errno));",
                f"        return {EXIT_CANTCREAT};",
                "    }",
                f"    hj_print_str(outs[{j}]);",
                "} else {",
                f"    hj_print_array('{elem_kind(t.dtype)}', {isz}, {t.ndim}, {shape}, "
                f"{strides}, {data});",
                "}"]
        return
    counter[0] += 1
    if t.is_float:
        out.append(f"hj_print_float(hj_as_double(ret[{k}]));")
    elif t.is_bool:
        out.append(f'fputs(ret[{k}] ? "True" : "False", stdout);')
    elif t.is_signed:
        out.append(f'printf("%" PRId64, ret[{k}]);')
    else:
        out.append(f'printf("%" PRIu64, (uint64_t)ret[{k}]);')


_OPTIONS_C = r"""
/* Python's repr of a path (printed where an array result was written). */
static void hj_print_str(const char *s) {
    putchar('\'');
    for (; *s; s++) {
        if (*s == '\\' || *s == '\'') putchar('\\');
        putchar(*s);
    }
    putchar('\'');
}
"""


def _array_layout(t: T.ArrayType) -> str:
    return t.layout if t.layout in ("C", "F") else "A"


def generate_main(fn, raises: list, *, program: str, cuda: str = "off",
                  entry: str = ENTRY, gpu=None) -> str:
    """The C source of ``main`` for the IR entry function ``fn``.  With ``cuda``
    "optional" or "required", ``gpu`` is the one-thread kernel to embed
    (``hanajit_cuda.single_thread.SingleThreadKernel``: ``ptx``, ``buffer_slots``)."""
    if cuda != "off" and gpu is None:
        raise ValueError(f"cuda={cuda!r} needs the kernel's PTX")
    params = list(fn.params)
    types = list(fn.arg_types)
    nret = max(1, ret_slots(fn.return_type))
    n_out = _count_arrays(fn.return_type)
    with_arrays = n_out > 0 or any(isinstance(t, T.ArrayType) for t in types)
    leaves = [k for t in types for k in flat_kinds(t)]
    proto = ", ".join(["int64_t *ret", "int64_t *err"]
                      + [f"{'double' if t.is_float else 'int64_t'} a{i}"
                         for i, t in enumerate(leaves)])
    sig_text = ", ".join(f"{p}: {t}" for p, t in zip(params, types))
    lines = [
        f"/* Generated by hanajit-exe: command-line program for "
        f"{fn.pyname or fn.name}({sig_text}) -> {fn.return_type}.",
        " * Exit status: 0 ok, 1 the kernel raised, 64 bad arguments"
        + (", 70 CUDA required but unavailable." if cuda == "required" else "."),
    ]
    if cuda != "off":
        lines.append(f" * cuda={cuda!r}: runs the embedded PTX ({gpu.arch}) through "
                     "the NVIDIA driver"
                     + (" when it can, else the CPU code." if cuda == "optional"
                        else "."))
    lines += [" */", _PRELUDE.strip("\n"), ""]
    if with_arrays:
        lines += [NPY_C.strip("\n"), _OPTIONS_C.strip("\n"), ""]
    if cuda != "off":
        lines += [CUDA_C.strip("\n"), "", ptx_literal(gpu.ptx), "",
                  gpu_call(types, fn.return_type, gpu), ""]
    lines += [f"extern int32_t {entry}({proto});", ""]
    if raises:
        lines.append("static const char *const hj_raises[] = {")
        lines.extend(f"    {_c_string(raise_text(r))}," for r in raises)
        lines.append("};")
    else:
        lines.append("static const char *const hj_raises[] = {\"\"};")
    usage = " ".join(f"<{p}:{t.short}>" if isinstance(t, T.Scalar) else f"<{p}.npy:{t}>"
                     for p, t in zip(params, types))
    if with_arrays:
        usage = ("[--write-back] " if any(isinstance(t, T.ArrayType) for t in types)
                 else "") + usage
        if n_out:
            usage += " [-o OUT.npy]" + (f" (x{n_out})" if n_out > 1 else "")
    lines += [
        f"#define HJ_NRAISES {len(raises)}",
        "",
        "static void hj_usage(const char *prog) {",
        f"    fprintf(stderr, \"usage: %s {_c_string(usage)[1:-1]}\\n\", prog);",
        "}",
        "",
        "int main(int argc, char **argv) {",
    ]
    body = []
    for i, t in enumerate(types):
        if isinstance(t, T.ArrayType):
            body.append(f"hj_array a{i};")
        else:
            body.append(f"{'double' if t.is_float else 'int64_t'} a{i};")
    body += [f"int64_t ret[{nret}] = {{0}};", "int64_t err[4] = {0};",
             "int raised;"]
    nargs = len(types)
    if with_arrays:
        too_many = "too many -o options" if n_out else "no array result for -o"
        # options are taken out of argv; the positional arguments stay in order
        body += [f"const char *outs[{max(1, n_out)}];",
                 "int nout = 0, write_back = 0, npos = 1, i;",
                 "(void)write_back;",
                 "for (i = 1; i < argc; i++) {",
                 "    const char *s = argv[i];",
                 "    if (!strcmp(s, \"--write-back\")) { write_back = 1; continue; }",
                 "    if (!strcmp(s, \"-o\") || !strcmp(s, \"--out\")"
                 " || !strncmp(s, \"--out=\", 6)) {",
                 "        const char *v = !strncmp(s, \"--out=\", 6) ? s + 6"
                 " : (i + 1 < argc ? argv[++i] : NULL);",
                 f"        if (!v || nout >= {n_out}) {{",
                 f"            fprintf(stderr, \"%s: %s\\n\", argv[0], !v ? \"-o needs "
                 f"a path\" : \"{too_many}\");",
                 "            hj_usage(argv[0]);",
                 f"            return {EXIT_USAGE};",
                 "        }",
                 "        outs[nout++] = v;",
                 "        continue;",
                 "    }",
                 "    argv[npos++] = argv[i];",
                 "}",
                 "argc = npos;"]
        if n_out:
            body += [f"if (nout && nout != {n_out}) {{",
                     f"    fprintf(stderr, \"%s: the result holds {n_out} arrays: give "
                     f"-o {n_out} times or not at all\\n\", argv[0]);",
                     "    hj_usage(argv[0]);",
                     f"    return {EXIT_USAGE};", "}"]
    body += [f"if (argc != {nargs + 1}) {{",
             f"    fprintf(stderr, \"%s: expected {nargs} argument"
             f"{'' if nargs == 1 else 's'}, got %d\\n\", argv[0], argc - 1);",
             "    hj_usage(argv[0]);",
             f"    return {EXIT_USAGE};", "}"]
    for i, (p, t) in enumerate(zip(params, types)):
        if isinstance(t, T.ArrayType):
            isz = 1 if t.dtype.is_bool else t.dtype.bits // 8
            body += [f"if (!hj_npy_read(argv[{i + 1}], \"{descr(t.dtype)}\", {isz}, "
                     f"{t.ndim}, '{_array_layout(t)}', &a{i})) {{",
                     f"    fprintf(stderr, \"%s: argument {i + 1} "
                     f"({_c_string(p)[1:-1]}: {t}): %s\\n\", argv[0], hj_npy_error);",
                     "    hj_usage(argv[0]);",
                     f"    return {EXIT_USAGE};", "}"]
            continue
        what = _c_string(f"{p}: expected {t.name}, got")[1:-1]
        body += [f"if (!{_parse_stmt(i, t, f'a{i}', f'argv[{i + 1}]')}) {{",
                 f"    fprintf(stderr, \"%s: argument {i + 1} ({what} '%s')\\n\", "
                 f"argv[0], argv[{i + 1}]);",
                 "    hj_usage(argv[0]);",
                 f"    return {EXIT_USAGE};", "}"]
    call_args = ["ret", "err"]
    for i, t in enumerate(types):
        if isinstance(t, T.ArrayType):
            call_args.append(f"(int64_t)(intptr_t)a{i}.data")
            call_args += [f"a{i}.shape[{k}]" for k in range(t.ndim)]
            call_args += [f"a{i}.strides[{k}]" for k in range(t.ndim)]
        else:
            call_args.append(f"a{i}")
    cpu_call = f"{entry}({', '.join(call_args)})"
    if cuda == "off":
        body.append(f"raised = {cpu_call};")
    else:
        gpu_args = ["fn", "ret", "err"] + [f"&a{i}" if isinstance(t, T.ArrayType)
                                           else f"a{i}" for i, t in enumerate(types)]
        body += ["{",
                 "    hj_CUfunction fn;",
                 f"    if (hj_cuda_load(hj_ptx, &fn) && "
                 f"hj_gpu_call({', '.join(gpu_args)})) {{",
                 "        raised = err[0] != 0;",
                 "    } else {"]
        if cuda == "required":
            body += ["        fprintf(stderr, \"%s: CUDA is required, but %s\\n\", "
                     "argv[0], hj_cuda_why);",
                     f"        return {EXIT_NO_CUDA};"]
        else:
            body += ["        fprintf(stderr, \"%s: CUDA unavailable: %s; running the "
                     "CPU code\\n\", argv[0], hj_cuda_why);",
                     f"        raised = {cpu_call};"]
        body += ["    }", "}"]
    body += ["if (raised) {",
             "    int64_t code = err[0];",
             "    hj_print_raise(code >= 1 && code <= HJ_NRAISES"
             " ? hj_raises[code - 1] : \"SystemError: unknown error code\", err);",
             f"    return {EXIT_RAISED};", "}"]
    for i, (p, t) in enumerate(zip(params, types)):
        if isinstance(t, T.ArrayType) and not t.readonly:
            isz = 1 if t.dtype.is_bool else t.dtype.bits // 8
            body += [f"if (write_back && !hj_npy_write_back(argv[{i + 1}], &a{i}, "
                     f"{isz}, {t.ndim})) {{",
                     f"    fprintf(stderr, \"%s: cannot write back '%s': %s\\n\", "
                     f"argv[0], argv[{i + 1}], strerror(errno));",
                     f"    return {EXIT_CANTCREAT};", "}"]
    prints: list = []
    _print_stmts(fn.return_type, [0], prints, [])
    body += prints
    body += ['fputs("\\n", stdout);',
             "return fflush(stdout) == 0 ? 0 : 74;  /* EX_IOERR */"]
    lines += ["    " + s if s else "" for s in body]
    lines += ["}", ""]
    return "\n".join(lines)


def _count_arrays(t: T.Type) -> int:
    if isinstance(t, T.ArrayType):
        return 1
    if isinstance(t, T.TupleType):
        return sum(_count_arrays(i) for i in t.items)
    return 0

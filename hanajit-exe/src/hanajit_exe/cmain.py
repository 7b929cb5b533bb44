"""The generated C ``main`` of an exported executable.

It parses ``argv`` per the signature, calls the C-ABI entry wrapper
(``hanajit.lowering.cabi``: ``i32 __hj_entry(i64 *ret, i64 *err, i64/double...)``)
and prints the result the way Python's ``print(repr(...))`` would for ints, bools,
``None`` and tuples.  Floats are printed with ``%.17g`` so that ``float(text)``
gives back the exact value (``1.0`` keeps its ``.0``; ``inf``, ``-inf``, ``nan``
are spelt as Python spells them).

Exit status: 0 success, 1 the kernel raised (``ExcName: message`` on stderr), 64
wrong number of arguments or unparsable text (EX_USAGE), 70 CUDA required but
unavailable (EX_SOFTWARE).
"""
from __future__ import annotations

from hanajit.ir import types as T
from hanajit.lowering.cabi import ENTRY, flat_kinds

EXIT_RAISED = 1
EXIT_USAGE = 64
EXIT_NO_CUDA = 70

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


def _print_stmts(t: T.Type, counter: list, out: list) -> None:
    """C statements printing a value of type ``t`` from the ``ret`` slots."""
    if isinstance(t, T.NoneType):
        out.append('fputs("None", stdout);')
        return
    if isinstance(t, T.TupleType):
        out.append('fputs("(", stdout);')
        for i, item in enumerate(t.items):
            if i:
                out.append('fputs(", ", stdout);')
            _print_stmts(item, counter, out)
        out.append('fputs("%s", stdout);' % (",)" if len(t.items) == 1 else ")"))
        return
    k = counter[0]
    counter[0] += 1
    if t.is_float:
        out.append(f"hj_print_float(hj_as_double(ret[{k}]));")
    elif t.is_bool:
        out.append(f'fputs(ret[{k}] ? "True" : "False", stdout);')
    elif t.is_signed:
        out.append(f'printf("%" PRId64, ret[{k}]);')
    else:
        out.append(f'printf("%" PRIu64, (uint64_t)ret[{k}]);')


def generate_main(fn, raises: list, *, program: str, cuda: str = "off",
                  entry: str = ENTRY) -> str:
    """The C source of ``main`` for the IR entry function ``fn``."""
    params = list(fn.params)
    types = list(fn.arg_types)
    leaves = flat_kinds(fn.return_type)
    nret = max(1, len(leaves))
    proto = ", ".join(["int64_t *ret", "int64_t *err"]
                      + [f"{'double' if t.is_float else 'int64_t'} a{i}"
                         for i, t in enumerate(types)])
    sig_text = ", ".join(f"{p}: {t.short}" for p, t in zip(params, types))
    lines = [
        f"/* Generated by hanajit-exe: command-line program for "
        f"{fn.pyname or fn.name}({sig_text}) -> {fn.return_type}.",
        " * Exit status: 0 ok, 1 the kernel raised, 64 bad arguments"
        + (", 70 CUDA required but unavailable." if cuda == "required" else "."),
        " */",
        _PRELUDE.strip("\n"),
        "",
        f"extern int32_t {entry}({proto});",
        "",
    ]
    if raises:
        lines.append("static const char *const hj_raises[] = {")
        lines.extend(f"    {_c_string(raise_text(r))}," for r in raises)
        lines.append("};")
    else:
        lines.append("static const char *const hj_raises[] = {\"\"};")
    usage = " ".join(f"<{p}:{t.short}>" for p, t in zip(params, types))
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
        body.append(f"{'double' if t.is_float else 'int64_t'} a{i};")
    body += [f"int64_t ret[{nret}] = {{0}};", "int64_t err[4] = {0};",
             f"if (argc != {len(types) + 1}) {{",
             f"    fprintf(stderr, \"%s: expected {len(types)} argument"
             f"{'' if len(types) == 1 else 's'}, got %d\\n\", argv[0], argc - 1);",
             "    hj_usage(argv[0]);",
             f"    return {EXIT_USAGE};", "}"]
    for i, (p, t) in enumerate(zip(params, types)):
        what = _c_string(f"{p}: expected {t.name}, got")[1:-1]
        body += [f"if (!{_parse_stmt(i, t, f'a{i}', f'argv[{i + 1}]')}) {{",
                 f"    fprintf(stderr, \"%s: argument {i + 1} ({what} '%s')\\n\", "
                 f"argv[0], argv[{i + 1}]);",
                 "    hj_usage(argv[0]);",
                 f"    return {EXIT_USAGE};", "}"]
    if cuda == "required":
        msg = (f"{program}: CUDA is required, but this executable has no embedded PTX "
               "(CUDA embedding comes with the hanajit-cuda plugin)")
        body += [f"fputs({_c_string(msg + chr(10))}, stderr);",
                 f"return {EXIT_NO_CUDA};"]
    else:
        if cuda == "optional":
            body.append("/* cuda=\"optional\": no PTX embedded yet; the CPU kernel runs */")
        call_args = ", ".join(["ret", "err"] + [f"a{i}" for i in range(len(types))])
        body += [f"if ({entry}({call_args})) {{",
                 "    int64_t code = err[0];",
                 "    fprintf(stderr, \"%s\\n\", code >= 1 && code <= HJ_NRAISES"
                 " ? hj_raises[code - 1] : \"SystemError: unknown error code\");",
                 f"    return {EXIT_RAISED};", "}"]
        prints: list = []
        _print_stmts(fn.return_type, [0], prints)
        body += prints
        body += ['fputs("\\n", stdout);',
                 "return fflush(stdout) == 0 ? 0 : 74;  /* EX_IOERR */"]
    lines += ["    " + s if s else "" for s in body]
    lines += ["}", ""]
    return "\n".join(lines)

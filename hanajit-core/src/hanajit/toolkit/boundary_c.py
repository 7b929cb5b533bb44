"""The boundary (:mod:`.boundary`) printed as C: result printing for the
executable's ``main`` (``hanajit_exe.cmain``) and the HLS C-simulation testbench
(``hanajit_fpga.hls``), argument parsing for the former.

:data:`PRINT_C` and :data:`PARSE_C` are C99 that also compiles as C++ (the
testbench is C++); :func:`print_stmts` and :func:`parse_call` give the
statements for one type.  ``hj_float_repr`` follows
:func:`.boundary.float_text` step by step.
"""
from __future__ import annotations

from typing import Callable

from ..ir import types as T
from . import boundary as B

PRINT_C = r"""
/* Python's repr of a double (hanajit.toolkit.boundary.float_text): the fewest
   digits that strtod reads back as v -- at each precision the correctly rounded
   decimal, then the next one up in magnitude (next to a power of two the gap
   above is twice the gap below) -- in fixed notation for decimal exponents
   __EXP_LOW__..__EXP_HIGH_1__, else d.ddde+XX; dot0 adds ".0" to integral values
   (repr(float) does, a complex number's parts do not).  out: 32 bytes. */
static int hj_float_repr(char *out, double v, int dot0) {
    char buf[40], digits[24];
    int prec, nd = 0, exp = 0, point, n = 0, i;
    const char *p;
    if (v != v) return sprintf(out, "__NAN__");
    if (v > DBL_MAX) return sprintf(out, "__INF__");
    if (v < -DBL_MAX) return sprintf(out, "-__INF__");
    for (prec = 1; prec <= 17; prec++) {
        snprintf(buf, sizeof buf, "%.*e", prec - 1, v);
        if (strtod(buf, NULL) == v) break;
        /* the next decimal up: increment the last digit, carrying */
        nd = 0;
        for (p = buf + (buf[0] == '-'); *p != 'e'; p++)
            if (*p != '.') digits[nd++] = *p;
        exp = atoi(p + 1);
        for (i = nd - 1; i >= 0 && digits[i] == '9'; i--) digits[i] = '0';
        if (i >= 0) {
            digits[i]++;
        } else {                       /* 9.99 -> 10.0: one more in the exponent */
            digits[0] = '1';
            exp++;
        }
        digits[nd] = '\0';
        snprintf(buf, sizeof buf, "%s%c%s%se%d", v < 0 ? "-" : "", digits[0],
                 nd > 1 ? "." : "", digits + 1, exp);
        if (strtod(buf, NULL) == v) break;
    }
    p = buf;                          /* [-]d[.ddd]e(+|-)X... */
    if (*p == '-') out[n++] = *p++;
    for (nd = 0; *p != 'e'; p++)
        if (*p != '.') digits[nd++] = *p;
    exp = atoi(p + 1);
    while (nd > 1 && digits[nd - 1] == '0') nd--;
    if (exp < __EXP_LOW__ || exp >= __EXP_HIGH__) {
        out[n++] = digits[0];
        if (nd > 1) {
            out[n++] = '.';
            memcpy(out + n, digits + 1, nd - 1);
            n += nd - 1;
        }
        return n + sprintf(out + n, "e%c%0__EXP_DIGITS__d", exp < 0 ? '-' : '+',
                           exp < 0 ? -exp : exp);
    }
    point = exp + 1;
    if (point <= 0) {
        out[n++] = '0';
        out[n++] = '.';
        for (i = 0; i < -point; i++) out[n++] = '0';
        memcpy(out + n, digits, nd);
        n += nd;
    } else if (point < nd) {
        memcpy(out + n, digits, point);
        n += point;
        out[n++] = '.';
        memcpy(out + n, digits + point, nd - point);
        n += nd - point;
    } else {
        memcpy(out + n, digits, nd);
        n += nd;
        for (i = nd; i < point; i++) out[n++] = '0';
        if (dot0) {
            out[n++] = '.';
            out[n++] = '0';
        }
    }
    out[n] = '\0';
    return n;
}

static void hj_print_float(double v) {
    char text[40];
    hj_float_repr(text, v, 1);
    fputs(text, stdout);
}

/* Python's repr of complex(re, im): "1j" when re is +0.0, else "(1+2j)". */
static void hj_print_complex(double re, double im) {
    char a[40], b[40];
    hj_float_repr(b, im, 0);
    if (re == 0.0 && !signbit(re)) {
        printf("%sj", b);
        return;
    }
    hj_float_repr(a, re, 0);
    printf("(%s%s%sj)", a, b[0] == '-' ? "" : "+", b);
}
"""

PARSE_C = r"""
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
    if (__TRUE_TESTS__) {
        *out = 1;
        return 1;
    }
    if (__FALSE_TESTS__) {
        *out = 0;
        return 1;
    }
    return 0;
}

/* One signed float at *s for a complex number; a bare sign or nothing before the
   'j' of an imaginary part means 1. */
static int hj_complex_part(const char **s, double *out) {
    char *end;
    const char *p = *s;
    if ((*p == '+' || *p == '-') && (p[1] == 'j' || p[1] == 'J')) {
        *out = *p == '-' ? -1.0 : 1.0;
        *s = p + 1;
        return 1;
    }
    if (*p == 'j' || *p == 'J') {
        *out = 1.0;
        return 1;
    }
    *out = strtod(p, &end);
    if (end == p) return 0;
    *s = end;
    return 1;
}

/* What Python's complex() reads: "1+2j", "(1-2j)", "2j", "-j", "1.5", " nan+infj ". */
static int hj_parse_complex(const char *s, double *re, double *im) {
    const char *p = s, *q;
    int paren = 0;
    double a, b;
    while (*p == ' ') p++;
    if (*p == '(') {
        paren = 1;
        p++;
        while (*p == ' ') p++;
    }
    if (!hj_complex_part(&p, &a)) return 0;
    if (*p == 'j' || *p == 'J') {
        *re = 0.0;
        *im = a;
        p++;
    } else if ((*p == '+' || *p == '-')) {
        q = p;
        if (!hj_complex_part(&q, &b) || (*q != 'j' && *q != 'J')) return 0;
        *re = a;
        *im = b;
        p = q + 1;
    } else {
        *re = a;
        *im = 0.0;
    }
    while (*p == ' ') p++;
    if (paren) {
        if (*p != ')') return 0;
        p++;
        while (*p == ' ') p++;
    }
    return *p == '\0';
}

static double hj_as_double(int64_t bits) {
    double d;
    memcpy(&d, &bits, sizeof d);
    return d;
}
"""

RAISE_C = r"""
/* A raise's text with the kernel's integers (err[1..3]) in its "{}" places
   ("{u}": as uint64, "{f}": the bits of a double, as repr(float); "{=}", "{=u}",
   "{=f}" the same); "{{" and "}}" are literal braces. */
static void hj_print_raise(const char *text, const int64_t *err) {
    int k = 1;
    char number[40];
    double d;
    const char *q;      /* the field's kind, after an optional '=' */
    for (; *text; text++) {
        q = text + 1 + (text[0] == '{' && text[1] == '=');
        if (text[0] == '{' && q[0] == '}' && k < 4) {
            fprintf(stderr, "%" PRId64, err[k++]);
            text = q;
        } else if (text[0] == '{' && q[0] == 'u' && q[1] == '}' && k < 4) {
            fprintf(stderr, "%" PRIu64, (uint64_t)err[k++]);
            text = q + 1;
        } else if (text[0] == '{' && q[0] == 'f' && q[1] == '}' && k < 4) {
            memcpy(&d, &err[k++], sizeof d);
            hj_float_repr(number, d, 1);
            fputs(number, stderr);
            text = q + 1;
        } else if ((text[0] == '{' || text[0] == '}') && text[1] == text[0]) {
            fputc(*text, stderr);
            text++;
        } else {
            fputc(*text, stderr);
        }
    }
    fputc('\n', stderr);
}
"""

INCLUDES = ("<errno.h>", "<float.h>", "<inttypes.h>", "<math.h>", "<stdint.h>",
            "<stdio.h>", "<stdlib.h>", "<string.h>")


def _fill(text: str) -> str:
    tests = {flag: " || ".join(f'!strcmp(s, "{k}")' for k, v in B.BOOL_ARGS.items()
                               if v is flag) for flag in (True, False)}
    return (text.replace("__EXP_LOW__", str(B.EXP_LOW))
            .replace("__EXP_HIGH_1__", str(B.EXP_HIGH - 1))
            .replace("__EXP_HIGH__", str(B.EXP_HIGH))
            .replace("__EXP_DIGITS__", str(B.EXP_DIGITS))
            .replace("__NAN__", B.NAN_TEXT).replace("__INF__", B.INF_TEXT)
            .replace("__TRUE_TESTS__", tests[True])
            .replace("__FALSE_TESTS__", tests[False]))


def source(parse: bool = True, raises: bool = True) -> str:
    """The C helpers: ``#include`` lines and the printers, plus the argument
    parsers (``parse``) and ``hj_print_raise`` (``raises``)."""
    parts = ["\n".join(f"#include {h}" for h in INCLUDES), PRINT_C]
    if parse:
        parts.append(PARSE_C)
    if raises:
        parts.append(RAISE_C)
    return "\n".join(_fill(p).strip("\n") + "\n" for p in parts)


def c_string(text: str) -> str:
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


def raise_strings(raises) -> list:
    """C string literals ``"Name: message"`` for ``Module.raises``, code order."""
    return [c_string(B.raise_text(name, message))
            for name, message in B.raise_table(raises)]


def unknown_raise() -> str:
    return c_string(B.raise_text(*B.UNKNOWN_RAISE))


Leaf = Callable[[T.Scalar, int], str]


def print_stmts(t: T.Type, leaf: Leaf, out: list, at: int = 0,
                array: Callable | None = None) -> int:
    """Append to ``out`` the C statements printing a value of type ``t`` to stdout
    as Python prints it; return the next leaf index.  ``leaf(scalar type, k)``
    is the C expression of leaf ``k`` (counted as the C-ABI wrapper's result
    slots: a complex number takes two, real then imaginary): a ``double`` for
    floats and complex parts, an integer otherwise.  ``array(t, k, out)``
    prints an array result and returns the next index (executables only)."""
    if isinstance(t, T.NoneType):
        out.append(f'fputs("{B.NONE_TEXT}", stdout);')
        return at
    if isinstance(t, T.TupleType):
        out.append('fputs("(", stdout);')
        for i, item in enumerate(t.items):
            if i:
                out.append('fputs(", ", stdout);')
            at = print_stmts(item, leaf, out, at, array)
        out.append('fputs("%s", stdout);' % (",)" if len(t.items) == 1 else ")"))
        return at
    if isinstance(t, T.ArrayType):
        if array is None:
            raise ValueError(f"no printer for array results ({t})")
        return array(t, at, out)
    kind = B.leaf_kind(t)
    if kind == "complex":
        out.append(f"hj_print_complex({leaf(t.component, at)}, "
                   f"{leaf(t.component, at + 1)});")
        return at + 2
    x = leaf(t, at)
    if kind == "float":
        out.append(f"hj_print_float({x});")
    elif kind == "bool":
        out.append(f'fputs(({x}) ? "{B.BOOL_TEXT[1]}" : "{B.BOOL_TEXT[0]}", stdout);')
    elif kind == "int":
        out.append(f'printf("%" PRId64, (int64_t)({x}));')
    else:
        out.append(f'printf("%" PRIu64, (uint64_t)({x}));')
    return at + 1


def parse_call(t: T.Scalar, var: str, arg: str) -> str:
    """A C expression parsing the text ``arg`` into ``var`` (``int64_t`` for bools
    and integers, ``double`` for floats, ``double var[2]`` for complex numbers):
    nonzero when the text is valid for ``t``."""
    kind = B.leaf_kind(t)
    if kind == "bool":
        return f"hj_parse_bool({arg}, &{var})"
    if kind == "float":
        return f"hj_parse_float({arg}, &{var})"
    if kind == "complex":
        return f"hj_parse_complex({arg}, &{var}[0], &{var}[1])"
    lo, hi = T.int_range(t)
    if kind == "int":
        lo_c = "INT64_MIN" if lo == T.INT64_MIN else f"INT64_C({lo})"
        return f"hj_parse_int({arg}, {lo_c}, INT64_C({hi}), &{var})"
    return f"hj_parse_uint({arg}, UINT64_C({hi}), &{var})"

"""The Vitis HLS kit: top function, C-simulation testbench, TCL script.

The top function wraps the kernel printed by :mod:`hanajit.toolkit.c_family`
(dialect ``HLS_CPP``)::

    int32_t compound(double x, int64_t years, double *result)

It returns 0, or the raise code (``FpgaExport`` docs list the table), and writes
the result (each leaf of a tuple to ``result0``, ``result1`` ...).  Every scalar
port and the return value use ``s_axilite``; innermost loops get ``#pragma HLS
PIPELINE II=1``.  An array argument ``a`` becomes an ``m_axi`` pointer port ``T *a``
(its address in the ``control`` bundle, ``depth=`` the largest sample's element
count unless given) plus ``int64_t a_shape0 ...`` scalar ports;
the data is dense in the signature's layout (C order, Fortran order for
``[::1, :]`` signatures), and the kernel's writes land in the same memory.  Array
results and arrays the kernel allocates are outside the HLS subset.
"""
from __future__ import annotations

import math
import struct

from hanajit.errors import UnsupportedError
from hanajit.ir import nodes as N
from hanajit.ir import types as T
from hanajit.lowering.llvm import holds_array
from hanajit.toolkit import boundary, boundary_c
from hanajit.toolkit.boundary_c import c_string, print_stmts
from hanajit.toolkit import libm
from hanajit.toolkit.c_family import HLS_CPP, emit_c_source

DEFAULT_PART = "xcu250-figd2104-2L-e"      # Alveo U250
DEFAULT_CLOCK_NS = 3.3
# names the top function must not take: libm's symbols, main, abs
_RESERVED = libm.reserved_symbols("main", "abs")


def top_name(pyname: str) -> str:
    name = "".join(c if c.isalnum() and c.isascii() else "_" for c in pyname) or "kernel"
    if name[0].isdigit():
        name = "_" + name
    return name + "_top" if name in _RESERVED else name


def leaves(t: T.Type, path: str = "") -> list:
    """(C member path, scalar type) of each leaf of a result type."""
    if isinstance(t, T.TupleType):
        return [x for i, it in enumerate(t.items) for x in leaves(it, f"{path}.f{i}")]
    if t == T.NONE:
        return []
    return [(path, t)]


def top_function(module: N.Module, top: str,
                 depth: dict | None = None) -> tuple[str, list]:
    """The HLS C++ source (kernel + top function) and the result leaves.
    ``depth``: ``{array argument: elements}`` for the m_axi pragmas' ``depth=``
    (co-simulation sizes its buffers by it)."""
    fn = module.functions[module.entry]
    if holds_array(fn.return_type):
        name = fn.pyname or fn.name
        raise UnsupportedError(f"{name}: array results ({fn.return_type}) cannot be "
                               "exported to HLS; write into an array argument instead",
                               func=name, construct=f"return type {fn.return_type}")
    src = emit_c_source(module, HLS_CPP)
    emitter_types = src.tuple_types
    outs = leaves(fn.return_type)
    ctype = {**{t: n for t, n in emitter_types.items()}}

    def cty(t):
        if isinstance(t, T.TupleType):
            return ctype[t]
        if t.is_bool:
            return "bool"
        if t.is_float:
            return "float" if t.bits == 32 else "double"
        return f"{'u' if t.kind == 'u' else ''}int{t.bits}_t"

    params, setup, call = [], [], []
    for p, t in zip(fn.params, fn.arg_types):
        if isinstance(t, T.ArrayType):
            params.append(f"{cty(t.dtype)} *{p}")
            params += [f"int64_t {p}_shape{k}" for k in range(t.ndim)]
            shape = ", ".join(f"{p}_shape{k}" for k in range(t.ndim))
            setup.append(f"    {src.array_types[(t.dtype, t.ndim)]} {p}_arr = "
                         f"{{{p}, {{{shape}}}, {{{', '.join(dense_strides(p, t))}}}}};")
            call.append(f"{p}_arr")
        else:
            params.append(f"{cty(t)} {p}")
            call.append(f"({cty(t)}){p}")
    names = ["result"] if len(outs) == 1 and outs[0][0] == "" else \
        [f"result{i}" for i in range(len(outs))]
    params += [f"{cty(t)} *{n}" for n, (_, t) in zip(names, outs)]
    lines = [src.text, "",
             "// Top function: returns 0, or the raise code of the kernel.",
             f"int32_t {top}({', '.join(params)}) {{"]
    ports = []
    for p, t in zip(fn.params, fn.arg_types):
        if isinstance(t, T.ArrayType):
            d = (depth or {}).get(p)
            lines.append(f"#pragma HLS INTERFACE m_axi port={p} offset=slave "
                         "bundle=gmem" + (f" depth={d}" if d else ""))
            ports += [p] + [f"{p}_shape{k}" for k in range(t.ndim)]
        else:
            ports.append(p)
    for p in ports + names + ["return"]:
        lines.append(f"#pragma HLS INTERFACE s_axilite port={p} bundle=control")
    lines += setup
    args = ", ".join(call)
    rt = fn.return_type
    if fn.can_raise:
        slot = "uint8_t" if rt == T.NONE else cty(rt)
        lines += ["    int64_t err[4] = {0, 0, 0, 0};", f"    {slot} value = {{}};",
                  f"    if ({src.entry}({', '.join(filter(None, ['err', '&value', args]))}))"
                  " return (int32_t)err[0];"]
    elif rt != T.NONE:
        lines.append(f"    {cty(rt)} value = {src.entry}({args});")
    else:
        lines.append(f"    {src.entry}({args});")
    for n, (path, _) in zip(names, outs):
        lines.append(f"    *{n} = value{path};")
    lines += ["    return 0;", "}", ""]
    header = ("// Generated by hanajit-fpga: Vitis HLS C++ for "
              f"{fn.pyname or fn.name}({', '.join(map(str, fn.arg_types))}) -> "
              f"{rt}.\n// Raise codes: "
              + ("; ".join(f"{i + 1} = {boundary.raise_text(n, m)}" for i, (n, m)
                           in enumerate(boundary.raise_table(module.raises))) or "none")
              + "\n")
    return header + "\n".join(lines), list(zip(names, [t for _, t in outs]))


def dense_strides(p: str, t: T.ArrayType) -> list:
    """C expressions for the byte strides of a dense array port ``p``."""
    size = 1 if t.dtype.is_bool else t.dtype.bits // 8
    axes = range(t.ndim) if t.layout == "F" else range(t.ndim - 1, -1, -1)
    out, step = {}, str(size)
    for k in axes:
        out[k] = step
        step = f"{step} * {p}_shape{k}"
    return [out[k] for k in range(t.ndim)]


def dense_order(t: T.ArrayType) -> str:
    """The order of a dense array port's data (see :func:`dense_strides`)."""
    return "F" if t.layout == "F" else "C"


def c_literal(value, t: T.Scalar) -> str:
    if t.is_bool:
        return "true" if value else "false"
    if t.is_float:
        v = float(value)
        if math.isnan(v):
            return "NAN"
        if math.isinf(v):
            return "INFINITY" if v > 0 else "(-INFINITY)"
        return f"(({'float' if t.bits == 32 else 'double'}){v!r})"
    v = int(value)
    if t.is_signed and v == T.int_range(t)[0]:
        return f"({v + 1}LL - 1)"
    return f"{v}{'LL' if t.is_signed else 'ULL'}"


def _cty(t: T.Scalar) -> str:
    if t.is_bool:
        return "bool"
    if t.is_float:
        return "float" if t.bits == 32 else "double"
    return f"{'u' if t.kind == 'u' else ''}int{t.bits}_t"


def _array_init(name: str, value, t: T.ArrayType) -> str:
    """A static C array holding ``value`` (an ndarray) densely in the port's order."""
    flat = value.ravel(order=dense_order(t)).tolist()
    items = ", ".join(c_literal(v, t.dtype) for v in flat) or c_literal(0, t.dtype)
    return f"static {_cty(t.dtype)} {name}[{max(1, len(flat))}] = {{{items}}};"


def _raise_line(raises, code: int) -> str:
    """What a sample that raised prints: the exception as Python names it, and
    its message when that formats no run-time integers (the top function returns
    only the code)."""
    from hanajit.errors import kernel_message_fields
    table = boundary.raise_table(raises or [])
    if not 1 <= code <= len(table):
        return "raised " + boundary.raise_text(*boundary.UNKNOWN_RAISE)
    name, message = table[code - 1]
    shown = message if message and not kernel_message_fields(message) else ""
    return "raised " + boundary.raise_text(name, shown.replace("{{", "{")
                                           .replace("}}", "}"))


def _nest(leaves: list, t: T.Type):
    """The result value of type ``t`` from its flat leaves (consumed)."""
    if isinstance(t, T.TupleType):
        return tuple(_nest(leaves, it) for it in t.items)
    if t == T.NONE:
        return None
    return leaves.pop(0)


def testbench(fn, top: str, outs: list, cases: list, header: str,
              raises=None) -> str:
    """C-simulation testbench: ``cases`` are (args, code, expected leaves[, arrays
    after the call]) with code 0 for a value and the raise code otherwise; the
    arrays after the call (None for scalar arguments) are checked element by
    element.  Each sample prints ``sample k: <result>`` with the result as Python
    prints it (``hanajit.toolkit.boundary``), or ``sample k: raised Name``
    (``raises``: the module's raise table)."""
    params = []
    for t in fn.arg_types:
        if isinstance(t, T.ArrayType):
            params += [f"{_cty(t.dtype)} *"] + ["int64_t"] * t.ndim
        else:
            params.append(_cty(t))
    params += [f"{_cty(t)} *" for _, t in outs]
    lines = [
        f"// Generated by hanajit-fpga: C-simulation testbench for {top}.",
        "// Expected values were computed by the CPU JIT at export time; floats must",
        "// match bit for bit.  Each sample prints its result as Python prints it.",
        "// Exit status 0 when every sample matches.",
        header,
        boundary_c.source(parse=False, raises=False).rstrip("\n"), "",
        f"int32_t {top}({', '.join(params)});", "",
        "static int same_float(double a, double b) {",
        "    if (a != a && b != b) return 1;            /* both NaN */",
        "    return memcmp(&a, &b, sizeof a) == 0;       /* keeps -0.0 != 0.0 */",
        "}",
        "template <class T> static int same_array_same_float(const T *a, const T *b, "
        "long n) {",
        "    for (long i = 0; i < n; i++) if (!same_float(a[i], b[i])) return 0;",
        "    return 1;",
        "}",
        "template <class T> static int same_array_same_int(const T *a, const T *b, "
        "long n) {",
        "    for (long i = 0; i < n; i++) if (a[i] != b[i]) return 0;",
        "    return 1;",
        "}", "",
        "int main() {", "    int failures = 0;"]
    for k, (args, code, expected, *after) in enumerate(cases):
        after = after[0] if after else [None] * len(args)
        shown = ", ".join(f"<{t} {a.shape}>" if isinstance(t, T.ArrayType) else repr(a)
                          for a, t in zip(args, fn.arg_types))
        lines.append(f"    {{   // sample {k}: {top}({shown})")
        for i, (n, t) in enumerate(outs):
            lines.append(f"        {_cty(t)} r{i} = 0;")
        call_args, array_checks = [], []
        for j, (a, t) in enumerate(zip(args, fn.arg_types)):
            if not isinstance(t, T.ArrayType):
                call_args.append(c_literal(a, t))
                continue
            lines.append("        " + _array_init(f"a{j}", a, t))
            call_args += [f"a{j}"] + [f"{n}LL" for n in a.shape]
            if after[j] is not None:
                lines.append("        " + _array_init(f"want{j}", after[j], t))
                same = "same_float" if t.dtype.is_float else "same_int"
                array_checks.append(
                    f"same_array_{same}(a{j}, want{j}, {after[j].size})")
        call_args += [f"&r{i}" for i in range(len(outs))]
        lines.append(f"        int32_t code = {top}({', '.join(call_args)});")
        if code == 0:
            want = boundary.python_text(_nest(list(expected), fn.return_type),
                                        fn.return_type)
        else:
            want = _raise_line(raises, code)
        lines.append(f"        printf(\"sample {k}: \");   // expected: {want}")
        printed: list = []
        print_stmts(fn.return_type, _leaf, printed)
        lines += ["        if (code == 0) {"]
        lines += ["            " + p for p in printed]
        lines += ["        } else {",
                  "            switch (code) {"]
        for c in range(1, len(raises or []) + 1):
            lines.append(f"            case {c}: fputs({c_string(_raise_line(raises, c))}"
                         ", stdout); break;")
        lines += [f"            default: printf(\"raised code %d\", (int)code);",
                  "            }",
                  "        }",
                  "        putchar('\\n');"]
        checks = [f"code == {code}"] + array_checks
        if code == 0:
            for i, ((_, t), v) in enumerate(zip(outs, expected)):
                if t.is_float:
                    checks.append(f"same_float(r{i}, {c_literal(v, t)})")
                else:
                    checks.append(f"r{i} == {c_literal(v, t)}")
        lines.append(f"        if (!({' && '.join(checks)})) {{")
        lines.append(f"            printf(\"MISMATCH sample {k}: expected %s\\n\", "
                     f"{c_string(want)});")
        lines.append("            failures++;")
        lines += ["        }", "    }"]
    lines += [f'    printf("%d of {len(cases)} samples match\\n", {len(cases)} - failures);',
              "    return failures ? 1 : 0;", "}", ""]
    return "\n".join(lines)


def _leaf(t: T.Scalar, k: int) -> str:
    """Result leaf ``k`` of a sample, as the boundary's C printers take it."""
    return f"(double)r{k}" if t.is_float else f"r{k}"


def tcl_script(stem: str, top: str, part: str, clock_ns: float) -> str:
    return "\n".join([
        f"# Generated by hanajit-fpga: Vitis HLS project for {top}.",
        f"# Run: vitis_hls -f {stem}_hls.tcl   (C simulation, synthesis, export as .xo)",
        f"open_project -reset {stem}_prj",
        f"set_top {top}",
        f"add_files {stem}_hls.cpp",
        f"add_files -tb {stem}_tb.cpp",
        "open_solution -reset solution1 -flow_target vitis",
        f"set_part {{{part}}}",
        f"create_clock -period {clock_ns:g} -name default",
        "csim_design",
        "csynth_design",
        "export_design -format xo",
        "exit", ""])


def tcl_stub(stem: str, top: str, part: str, clock_ns: float, metadata: dict) -> str:
    """The project script of a kernel outside the HLS C++ subset: it says why there
    is no C++ and what to do, and only opens the project (nothing to simulate)."""
    reason = [f"#   {line.rstrip(chr(92))}" for line in
              str(metadata.get("reason", "")).splitlines() or ["(no reason given)"]]
    return "\n".join([
        f"# Generated by hanajit-fpga: Vitis HLS project stub for {top}.",
        "# No HLS C++ (and no testbench) was written: the kernel is outside the",
        "# subset hanajit transpiles to C++:",
        *reason,
        f"# {stem}.ll holds the kernel's LLVM IR (entry function "
        f"@{metadata.get('ir_entry', top)}) for",
        "# IR-level flows: Vitis HLS's LLVM front-end flow, or CIRCT (LLVM IR to",
        "# FIRRTL/Calyx, then Verilog).",
        "# For the turnkey C++ route, rewrite the kernel within the subset (bool,",
        "# integer and float scalars, tuples of them, arrays passed in and written",
        "# in place) and export again: this file then runs csim, csynth and export.",
        f"open_project -reset {stem}_prj",
        f"set_top {top}",
        "open_solution -reset solution1 -flow_target vitis",
        f"set_part {{{part}}}",
        f"create_clock -period {clock_ns:g} -name default",
        "exit", ""])


def float_bits(v: float) -> int:
    return struct.unpack("<q", struct.pack("<d", v))[0]

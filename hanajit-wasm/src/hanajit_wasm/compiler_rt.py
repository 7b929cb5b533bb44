"""The compiler-runtime helpers LLVM's wasm backend calls, as LLVM IR.

WebAssembly has no 128-bit integers, so the wasm backend lowers ``i128`` (and any
integer wider than 64 bits) multiplies, divisions, variable shifts and conversions
to calls of compiler-rt's helpers.  hanajit's IR has no such integers, but LLVM's
loop optimisations make them: the closed form of ``s += i * i`` over ``range(n)``
is computed in ``i65``/``i128`` and calls ``__multi3``.  A module importing
``env.__multi3`` cannot be instantiated by the loaders, so these helpers are
linked into the module when its code calls them (:func:`referenced`), and the
exported ``.wasm`` imports nothing but libm.

Each helper is written with 64-bit operations only (32-bit halves for the high
word of a product), so it cannot lower into a call of itself, and is ``optnone``
so no optimisation rebuilds a 128-bit operation from its pieces.  Signatures are
the backend's libcall signatures: a 128-bit result goes through a pointer first
argument, a 128-bit argument is two ``i64`` (low word first), a shift count is
``i32``.  Division by zero and out-of-range float conversions are undefined in C,
as they are for compiler-rt.
"""
from __future__ import annotations

import re

_ATTRS = "attributes #0 = { noinline optnone nounwind }\n"
_DECLS = "declare i64 @llvm.ctlz.i64(i64, i1)\n"


def _store(ptr: str, lo: str, hi: str, tag: str) -> str:
    return (f"  store i64 {lo}, ptr {ptr}, align 8\n"
            f"  %{tag}.p = getelementptr i8, ptr {ptr}, i32 8\n"
            f"  store i64 {hi}, ptr %{tag}.p, align 8\n")


def _load(ptr: str, tag: str) -> str:
    return (f"  %{tag}.lo = load i64, ptr {ptr}, align 8\n"
            f"  %{tag}.p = getelementptr i8, ptr {ptr}, i32 8\n"
            f"  %{tag}.hi = load i64, ptr %{tag}.p, align 8\n")


def _neg_if(cond: str, lo: str, hi: str, tag: str) -> str:
    """``%tag.lo``, ``%tag.hi``: the pair negated (two's complement) when ``cond``."""
    return (f"  %{tag}.nl = sub i64 0, {lo}\n"
            f"  %{tag}.z = icmp eq i64 {lo}, 0\n"
            f"  %{tag}.z64 = zext i1 %{tag}.z to i64\n"
            f"  %{tag}.inv = xor i64 {hi}, -1\n"
            f"  %{tag}.nh = add i64 %{tag}.inv, %{tag}.z64\n"
            f"  %{tag}.lo = select i1 {cond}, i64 %{tag}.nl, i64 {lo}\n"
            f"  %{tag}.hi = select i1 {cond}, i64 %{tag}.nh, i64 {hi}\n")


_UMULH = """define internal i64 @hj_rt_umulh(i64 %a, i64 %b) #0 {
  %a0 = and i64 %a, 4294967295
  %a1 = lshr i64 %a, 32
  %b0 = and i64 %b, 4294967295
  %b1 = lshr i64 %b, 32
  %p00 = mul i64 %a0, %b0
  %p01 = mul i64 %a0, %b1
  %p10 = mul i64 %a1, %b0
  %p11 = mul i64 %a1, %b1
  %c = lshr i64 %p00, 32
  %m1 = and i64 %p01, 4294967295
  %m2 = and i64 %p10, 4294967295
  %s1 = add i64 %c, %m1
  %mid = add i64 %s1, %m2
  %h1 = lshr i64 %p01, 32
  %h2 = lshr i64 %p10, 32
  %h3 = lshr i64 %mid, 32
  %t1 = add i64 %p11, %h1
  %t2 = add i64 %t1, %h2
  %hi = add i64 %t2, %h3
  ret i64 %hi
}
"""

_MULTI3 = ("define hidden void @__multi3(ptr %r, i64 %alo, i64 %ahi, i64 %blo, i64 %bhi) #0 {\n"
           "  %lo = mul i64 %alo, %blo\n"
           "  %h = call i64 @hj_rt_umulh(i64 %alo, i64 %blo)\n"
           "  %x = mul i64 %alo, %bhi\n"
           "  %y = mul i64 %ahi, %blo\n"
           "  %h1 = add i64 %h, %x\n"
           "  %hi = add i64 %h1, %y\n"
           + _store("%r", "%lo", "%hi", "o") + "  ret void\n}\n")


def _shift(name: str, kind: str) -> str:
    """``__ashlti3`` / ``__lshrti3`` / ``__ashrti3``: count in 0..127."""
    if kind == "shl":
        big = "  %bl = add i64 0, 0\n  %bh = shl i64 %lo, %k\n"
        mid = ("  %ml = shl i64 %lo, %n\n  %t1 = shl i64 %hi, %n\n"
               "  %t2 = lshr i64 %lo, %inv\n  %mh = or i64 %t1, %t2\n")
    else:
        fill = "ashr i64 %hi, 63" if kind == "ashr" else "add i64 0, 0"
        big = f"  %bl = {kind} i64 %hi, %k\n  %bh = {fill}\n"
        mid = ("  %t1 = lshr i64 %lo, %n\n  %t2 = shl i64 %hi, %inv\n"
               f"  %ml = or i64 %t1, %t2\n  %mh = {kind} i64 %hi, %n\n")
    return (f"define hidden void @{name}(ptr %r, i64 %lo, i64 %hi, i32 %c) #0 {{\n"
            "entry:\n"
            "  %c64 = zext i32 %c to i64\n"
            "  %n = and i64 %c64, 127\n"
            "  %isbig = icmp uge i64 %n, 64\n"
            "  br i1 %isbig, label %big, label %small\n"
            "big:\n  %k = sub i64 %n, 64\n" + big + "  br label %done\n"
            "small:\n  %z = icmp eq i64 %n, 0\n  br i1 %z, label %done, label %mid\n"
            "mid:\n  %inv = sub i64 64, %n\n" + mid + "  br label %done\n"
            "done:\n"
            "  %l = phi i64 [ %bl, %big ], [ %lo, %small ], [ %ml, %mid ]\n"
            "  %h = phi i64 [ %bh, %big ], [ %hi, %small ], [ %mh, %mid ]\n"
            + _store("%r", "%l", "%h", "o") + "  ret void\n}\n")


# restoring division, one quotient bit per step; a fast path for 64-bit operands
_UDIVMOD = ("define internal void @hj_rt_udivmod(ptr %q, ptr %r, i64 %alo, i64 %ahi, "
            "i64 %blo, i64 %bhi) #0 {\n"
            "entry:\n"
            "  %az = icmp eq i64 %ahi, 0\n"
            "  %bz = icmp eq i64 %bhi, 0\n"
            "  %small = and i1 %az, %bz\n"
            "  br i1 %small, label %fast, label %loop\n"
            "fast:\n"
            "  %fq = udiv i64 %alo, %blo\n"
            "  %fr = urem i64 %alo, %blo\n"
            + _store("%q", "%fq", "0", "fq") + _store("%r", "%fr", "0", "fr")
            + "  ret void\n"
            "loop:\n"
            "  %i = phi i32 [ 0, %entry ], [ %i1, %loop ]\n"
            "  %ql = phi i64 [ %alo, %entry ], [ %ql2, %loop ]\n"
            "  %qh = phi i64 [ %ahi, %entry ], [ %qh1, %loop ]\n"
            "  %rl = phi i64 [ 0, %entry ], [ %rl3, %loop ]\n"
            "  %rh = phi i64 [ 0, %entry ], [ %rh3, %loop ]\n"
            "  %out = lshr i64 %rh, 63\n"
            "  %carry = icmp ne i64 %out, 0\n"
            "  %rhs = shl i64 %rh, 1\n"
            "  %rlt = lshr i64 %rl, 63\n"
            "  %rh1 = or i64 %rhs, %rlt\n"
            "  %rls = shl i64 %rl, 1\n"
            "  %qht = lshr i64 %qh, 63\n"
            "  %rl1 = or i64 %rls, %qht\n"
            "  %qhs = shl i64 %qh, 1\n"
            "  %qlt = lshr i64 %ql, 63\n"
            "  %qh1 = or i64 %qhs, %qlt\n"
            "  %ql1 = shl i64 %ql, 1\n"
            "  %gt = icmp ugt i64 %rh1, %bhi\n"
            "  %eq = icmp eq i64 %rh1, %bhi\n"
            "  %ge = icmp uge i64 %rl1, %blo\n"
            "  %eqge = and i1 %eq, %ge\n"
            "  %cmp = or i1 %gt, %eqge\n"
            "  %take = or i1 %cmp, %carry\n"
            "  %dl = sub i64 %rl1, %blo\n"
            "  %bw = icmp ult i64 %rl1, %blo\n"
            "  %bw64 = zext i1 %bw to i64\n"
            "  %dh0 = sub i64 %rh1, %bhi\n"
            "  %dh = sub i64 %dh0, %bw64\n"
            "  %rl3 = select i1 %take, i64 %dl, i64 %rl1\n"
            "  %rh3 = select i1 %take, i64 %dh, i64 %rh1\n"
            "  %t64 = zext i1 %take to i64\n"
            "  %ql2 = or i64 %ql1, %t64\n"
            "  %i1 = add i32 %i, 1\n"
            "  %more = icmp ult i32 %i1, 128\n"
            "  br i1 %more, label %loop, label %exit\n"
            "exit:\n"
            + _store("%q", "%ql2", "%qh1", "eq") + _store("%r", "%rl3", "%rh3", "er")
            + "  ret void\n}\n")


def _div(name: str, signed: bool, rem: bool) -> str:
    head = (f"define hidden void @{name}(ptr %res, i64 %alo, i64 %ahi, i64 %blo, "
            "i64 %bhi) #0 {\n"
            "  %q = alloca [2 x i64], align 8\n"
            "  %r = alloca [2 x i64], align 8\n")
    if not signed:
        body = "  call void @hj_rt_udivmod(ptr %q, ptr %r, i64 %alo, i64 %ahi, i64 %blo, i64 %bhi)\n"
        body += _load("%r" if rem else "%q", "v")
        return head + body + _store("%res", "%v.lo", "%v.hi", "o") + "  ret void\n}\n"
    body = ("  %an = icmp slt i64 %ahi, 0\n"
            "  %bn = icmp slt i64 %bhi, 0\n"
            + _neg_if("%an", "%alo", "%ahi", "ua") + _neg_if("%bn", "%blo", "%bhi", "ub")
            + "  call void @hj_rt_udivmod(ptr %q, ptr %r, i64 %ua.lo, i64 %ua.hi, "
              "i64 %ub.lo, i64 %ub.hi)\n")
    if rem:                              # the remainder takes the dividend's sign
        body += _load("%r", "v") + "  %sgn = add i1 %an, 0\n"
    else:
        body += _load("%q", "v") + "  %sgn = xor i1 %an, %bn\n"
    body += _neg_if("%sgn", "%v.lo", "%v.hi", "s")
    return head + body + _store("%res", "%s.lo", "%s.hi", "o") + "  ret void\n}\n"


def _to_float(name: str, fty: str, bias: int, mbits: int, signed: bool) -> str:
    """``__floatuntidf``/``__floatuntisf`` (and the signed ones via negation): the
    top 64 bits with a sticky bit for the rest convert exactly as the whole would
    (round to nearest even), then an exact scaling by 2**s."""
    ity = "i64" if fty == "double" else "i32"
    if signed:
        return (f"define hidden {fty} @{name}(i64 %lo, i64 %hi) #0 {{\n"
                "  %neg = icmp slt i64 %hi, 0\n"
                + _neg_if("%neg", "%lo", "%hi", "u")
                + f"  %m = call {fty} @{name.replace('ti', 'unti')}(i64 %u.lo, i64 %u.hi)\n"
                f"  %n = fneg {fty} %m\n"
                f"  %v = select i1 %neg, {fty} %n, {fty} %m\n"
                f"  ret {fty} %v\n}}\n")
    return (f"define hidden {fty} @{name}(i64 %lo, i64 %hi) #0 {{\n"
            "entry:\n"
            "  %z = icmp eq i64 %hi, 0\n"
            "  br i1 %z, label %small, label %big\n"
            f"small:\n  %d = uitofp i64 %lo to {fty}\n  ret {fty} %d\n"
            "big:\n"
            "  %lz = call i64 @llvm.ctlz.i64(i64 %hi, i1 true)\n"
            "  %s = sub i64 64, %lz\n"
            "  %all = icmp eq i64 %s, 64\n"
            "  %s63 = and i64 %s, 63\n"
            "  %inv = sub i64 64, %s\n"
            "  %inv63 = and i64 %inv, 63\n"
            "  %t1 = lshr i64 %lo, %s63\n"
            "  %t2 = shl i64 %hi, %inv63\n"
            "  %mg = or i64 %t1, %t2\n"
            "  %m = select i1 %all, i64 %hi, i64 %mg\n"
            "  %one = shl i64 1, %s63\n"
            "  %mk = sub i64 %one, 1\n"
            "  %mask = select i1 %all, i64 -1, i64 %mk\n"
            "  %rest = and i64 %lo, %mask\n"
            "  %st = icmp ne i64 %rest, 0\n"
            "  %st64 = zext i1 %st to i64\n"
            "  %m2 = or i64 %m, %st64\n"
            f"  %f = uitofp i64 %m2 to {fty}\n"
            f"  %e = add i64 %s, {bias}\n"
            f"  %eb = shl i64 %e, {mbits}\n"
            + ("" if ity == "i64" else f"  %ei = trunc i64 %eb to {ity}\n")
            + f"  %scale = bitcast {ity} {'%eb' if ity == 'i64' else '%ei'} to {fty}\n"
            f"  %v = fmul {fty} %f, %scale\n"
            f"  ret {fty} %v\n}}\n")


# |x| truncated to an unsigned 128-bit integer (undefined beyond 2**128, as in C)
_D2U = ("define internal void @hj_rt_d2u(ptr %r, double %x) #0 {\n"
        "entry:\n"
        "  %b = bitcast double %x to i64\n"
        "  %e0 = lshr i64 %b, 52\n"
        "  %e = and i64 %e0, 2047\n"
        "  %f = and i64 %b, 4503599627370495\n"
        "  %m = or i64 %f, 4503599627370496\n"
        "  %tiny = icmp ult i64 %e, 1023\n"
        "  br i1 %tiny, label %done, label %notiny\n"
        "notiny:\n"
        "  %right = icmp ule i64 %e, 1075\n"
        "  br i1 %right, label %down, label %up\n"
        "down:\n"
        "  %rs = sub i64 1075, %e\n"
        "  %dl = lshr i64 %m, %rs\n"
        "  br label %done\n"
        "up:\n"
        "  %k = sub i64 %e, 1075\n"
        "  %k127 = and i64 %k, 127\n"
        "  %far = icmp uge i64 %k127, 64\n"
        "  %kf = sub i64 %k127, 64\n"
        "  %kf63 = and i64 %kf, 63\n"
        "  %fh = shl i64 %m, %kf63\n"
        "  %k63 = and i64 %k127, 63\n"
        "  %nl = shl i64 %m, %k63\n"
        "  %ki = sub i64 64, %k63\n"
        "  %ki63 = and i64 %ki, 63\n"
        "  %nh = lshr i64 %m, %ki63\n"
        "  %ul = select i1 %far, i64 0, i64 %nl\n"
        "  %uh = select i1 %far, i64 %fh, i64 %nh\n"
        "  br label %done\n"
        "done:\n"
        "  %l = phi i64 [ 0, %entry ], [ %dl, %down ], [ %ul, %up ]\n"
        "  %h = phi i64 [ 0, %entry ], [ 0, %down ], [ %uh, %up ]\n"
        + _store("%r", "%l", "%h", "o") + "  ret void\n}\n")


def _from_float(name: str, fty: str, signed: bool) -> str:
    x = "%x" if fty == "double" else "%xd"
    ext = "" if fty == "double" else "  %xd = fpext float %x to double\n"
    body = (f"define hidden void @{name}(ptr %res, {fty} %x) #0 {{\n" + ext
            + "  %t = alloca [2 x i64], align 8\n"
            f"  call void @hj_rt_d2u(ptr %t, double {x})\n" + _load("%t", "v"))
    if signed:
        body += (f"  %neg = fcmp olt double {x}, 0.0\n"
                 + _neg_if("%neg", "%v.lo", "%v.hi", "s")
                 + _store("%res", "%s.lo", "%s.hi", "o"))
    else:
        body += _store("%res", "%v.lo", "%v.hi", "o")
    return body + "  ret void\n}\n"


# name -> (IR text, helpers it calls)
HELPERS: dict[str, tuple[str, tuple[str, ...]]] = {
    "hj_rt_umulh": (_UMULH, ()),
    "hj_rt_udivmod": (_UDIVMOD, ()),
    "hj_rt_d2u": (_D2U, ()),
    "__multi3": (_MULTI3, ("hj_rt_umulh",)),
    "__ashlti3": (_shift("__ashlti3", "shl"), ()),
    "__lshrti3": (_shift("__lshrti3", "lshr"), ()),
    "__ashrti3": (_shift("__ashrti3", "ashr"), ()),
    "__udivti3": (_div("__udivti3", False, False), ("hj_rt_udivmod",)),
    "__umodti3": (_div("__umodti3", False, True), ("hj_rt_udivmod",)),
    "__divti3": (_div("__divti3", True, False), ("hj_rt_udivmod",)),
    "__modti3": (_div("__modti3", True, True), ("hj_rt_udivmod",)),
    "__floatuntidf": (_to_float("__floatuntidf", "double", 1023, 52, False), ()),
    "__floatuntisf": (_to_float("__floatuntisf", "float", 127, 23, False), ()),
    "__floattidf": (_to_float("__floattidf", "double", 1023, 52, True), ("__floatuntidf",)),
    "__floattisf": (_to_float("__floattisf", "float", 127, 23, True), ("__floatuntisf",)),
    "__fixunsdfti": (_from_float("__fixunsdfti", "double", False), ("hj_rt_d2u",)),
    "__fixunssfti": (_from_float("__fixunssfti", "float", False), ("hj_rt_d2u",)),
    "__fixdfti": (_from_float("__fixdfti", "double", True), ("hj_rt_d2u",)),
    "__fixsfti": (_from_float("__fixsfti", "float", True), ("hj_rt_d2u",)),
}
PUBLIC = tuple(n for n in HELPERS if n.startswith("__"))


def referenced(asm: str) -> set[str]:
    """The helpers that wasm assembly calls."""
    return {n for n in re.findall(r"\bcall\s+(__\w+)", asm) if n in HELPERS}


def helper_ir(names) -> str:
    """One IR module defining ``names`` and the helpers they call."""
    todo, done = list(names), []
    while todo:
        n = todo.pop()
        if n not in done:
            done.append(n)
            todo.extend(HELPERS[n][1])
    return "".join(HELPERS[n][0] for n in sorted(done)) + _DECLS + _ATTRS

"""Calls of NumPy's own SIMD math functions, for the elements of NumPy's ufunc
loops (``Intrinsic.numpy_loop``).

On some hosts a NumPy ufunc's float loop is a vector function that gives other
bits than the C library's scalar function: ``np.power`` on AVX-512 machines
calls SVML's ``__svml_pow8_ha`` (float64) and ``__svml_powf16`` (float32),
eight or sixteen values a call, the last ones padded.  A target that can call
those functions names them in ``LLVMTargetInfo.numpy_loops``:
``(intrinsic, dtype name) -> (lanes, vector function)``; every element hanajit
computes for such a loop then goes through the same function, so the result is
NumPy's bit for bit:

* in a loop LLVM vectorises, the vector function itself is the call's vector
  variant (LLVM's vector function ABI, as for libmvec: ``llvm_math.py``), and a
  half-width variant ``hj.nphalf.<name>`` pads its lanes with copies of its own
  and keeps the first half;
* everywhere else (the scalar remainder of a loop, a loop that does not
  vectorise, a NumPy scalar ``np.power(x, y)``) the scalar function
  ``hj.nplane.<name>`` puts the value in every lane and takes the first.

Each lane of these functions is computed on its own (the target checks that the
function gives NumPy's result in any lane before it names it), so padding does
not change a value.  The scalar and half-width functions are ``noinline``:
inlined before the vectoriser runs, the loop body would hold a vector call it
cannot widen.
"""
from __future__ import annotations

from llvmlite import ir

LANE = "hj.nplane."
HALF = "hj.nphalf."


def call(lowering, b: ir.IRBuilder, spec, args, attrs_cls, vectorize: bool):
    """The call computing NumPy's loop element from ``args`` by the vector
    function ``spec`` = ``(lanes, name)``; with ``vectorize``, it carries the
    vector variants."""
    lanes, vname = spec
    ty = args[0].type
    nargs = len(args)
    vfn = _vector_function(lowering, vname, ty, lanes, nargs)
    scalar = _lane_function(lowering, vfn, ty, lanes, nargs)
    c = b.call(scalar, args)
    lowering.numpy_calls += 1         # (the loop around: one copy, llvm.py)
    attrs = ["memory(none)", "nounwind"]
    if vectorize:
        half = _half_function(lowering, vfn, ty, lanes, nargs)
        params = "v" * nargs
        variants = (f"_ZGV_LLVM_N{lanes}{params}_{scalar.name}({vname}),"
                    f"_ZGV_LLVM_N{lanes // 2}{params}_{scalar.name}({half.name})")
        attrs.insert(0, f'"vector-function-abi-variant"="{variants}"')
    c.attributes = attrs_cls(attrs)
    return c


def _vector_function(lowering, vname, ty, lanes, nargs) -> ir.Function:
    fn = lowering.llmod.globals.get(vname)
    if fn is None:
        vty = ir.VectorType(ty, lanes)
        fn = ir.Function(lowering.llmod, ir.FunctionType(vty, [vty] * nargs), vname)
        fn.attributes.add("nounwind")
        fn.attributes.add("readnone")
        lowering.vector_decls.append(fn)
    return fn


def _shim(lowering, name, ret, params, body) -> ir.Function:
    """An internal ``noinline`` function ``name`` whose ``body(builder, args)``
    returns its result (kept until the vectoriser has run: ``vector_decls``)."""
    fn = lowering.llmod.globals.get(name)
    if fn is not None:
        return fn
    fn = ir.Function(lowering.llmod, ir.FunctionType(ret, params), name)
    fn.linkage = "internal"
    for a in ("noinline", "nounwind", "readnone"):
        fn.attributes.add(a)
    b = ir.IRBuilder(fn.append_basic_block("entry"))
    b.ret(body(b, list(fn.args)))
    lowering.vector_decls.append(fn)
    return fn


def _lane_function(lowering, vfn, ty, lanes, nargs) -> ir.Function:
    """``hj.nplane.<vfn>``: one value in every lane, the first lane's result."""
    vty = ir.VectorType(ty, lanes)
    zero = ir.Constant(ir.IntType(32), 0)
    mask = ir.Constant(ir.VectorType(ir.IntType(32), lanes), [0] * lanes)

    def body(b, xs):
        splats = []
        for x in xs:
            v = b.insert_element(ir.Constant(vty, ir.Undefined), x, zero)
            splats.append(b.shuffle_vector(v, ir.Constant(vty, ir.Undefined), mask))
        return b.extract_element(b.call(vfn, splats), zero)
    return _shim(lowering, LANE + vfn.name, ty, [ty] * nargs, body)


def _half_function(lowering, vfn, ty, lanes, nargs) -> ir.Function:
    """``hj.nphalf.<vfn>``: half the lanes, repeated to fill the vector; the first
    half of the result."""
    half = lanes // 2
    hty, vty = ir.VectorType(ty, half), ir.VectorType(ty, lanes)
    i32v = ir.VectorType(ir.IntType(32), lanes)
    wide = ir.Constant(i32v, [k % half for k in range(lanes)])
    narrow = ir.Constant(ir.VectorType(ir.IntType(32), half), list(range(half)))

    def body(b, xs):
        ws = [b.shuffle_vector(x, ir.Constant(hty, ir.Undefined), wide) for x in xs]
        r = b.call(vfn, ws)
        return b.shuffle_vector(r, ir.Constant(vty, ir.Undefined), narrow)
    return _shim(lowering, HALF + vfn.name, hty, [hty] * nargs, body)

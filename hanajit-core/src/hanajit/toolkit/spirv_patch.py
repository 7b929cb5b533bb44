"""Fixes for SPIR-V binaries LLVM 22's SPIR-V backend gets wrong, applied by name
(``KernelModel.post_emit``) in the codegen child process (``kernel_emit``).

Word-level rewrites of the emitted module, measured on lavapipe in
``../shared/notes/vulkan-spirv.md`` (``post_emit``):

* ``"int_constant_null"`` -- every ``OpConstantNull`` of an integer type becomes
  ``OpConstant 0`` with the same id.  LLVM prints relaxed atomic semantics as a
  null constant and then reuses that id as a structure index of
  ``OpAccessChain``, which must be an ``OpConstant``.
* ``"barrier_semantics"`` -- ``OpControlBarrier`` gets AcquireRelease |
  WorkgroupMemory (0x108, what glslang prints for GLSL ``barrier()``) and
  ``OpMemoryBarrier`` AcquireRelease | UniformMemory | WorkgroupMemory (0x148).
  LLVM prints SequentiallyConsistent with no storage class, which lavapipe
  treats as an execution-only barrier: a shared-memory tree reduction then
  gives wrong sums.
* ``"exact_float"`` -- every floating-point arithmetic result (``OpFAdd``,
  ``OpFSub``, ``OpFMul``, ``OpFDiv``, ``OpFRem``, ``OpFMod``, ``OpFNegate`` and
  the ``OpExtInst`` results of a float type, e.g. GLSL ``Fma``) is decorated
  ``NoContraction``.  Without it Mesa (lavapipe) treats the arithmetic as
  inexact and reassociates it: ``(a + 1.5*2**52) - 1.5*2**52`` becomes ``a``, so
  the rounding of core's software float64 math (``softmath``) vanishes and
  ``exp`` gave ``2**k`` exactly.  ``NoContraction`` is what glslang prints for
  ``precise``; Mesa marks such instructions exact.
* ``"loop_merge_last"`` -- an ``OpLoopMerge`` or ``OpSelectionMerge`` followed
  by other instructions of its block (the backend prints integer additions
  hoisted into a loop header after it) moves to just before the block's branch,
  where SPIR-V requires it ("... must be the second-to-last instruction in its
  block"); the block computes the same.

and one rewrite of the optimised LLVM IR text before emitting (``pre_emit``):

* ``"constant_geps"`` -- a constant ``getelementptr`` (or ``addrspacecast``)
  expression used by an instruction (a push-constant member, a fixed element of a shared array: what
  the optimiser folds) becomes a ``getelementptr`` instruction just before it.
  The backend asserts on the constant form (``cast<Instruction>`` of a
  ``ConstantExpr``).
* ``"unordered_compares"`` -- ``fcmp uno``/``ord`` (``OpUnordered``/``OpOrdered``,
  which need the Kernel capability) become ``x != x`` / ``x == x`` tests of each
  operand (``OpFUnordNotEqual``/``OpFOrdEqual``).
* ``"branch_order"`` -- every forward conditional branch takes its true edge to
  the later of its two blocks (the condition negated where needed).  LLVM 22's
  structuriser gives invalid SPIR-V ("exits the selection ... but not via a
  structured exit") for a chain of early exits whose branches alternate which
  edge leaves; with one polarity throughout, the same chain is valid.
* ``"duplicate_returns"`` -- ``br label %b`` where block ``b`` is only ``ret
  void`` becomes ``ret void``: the inlined kernel's returns (raise sites) all
  branch to one block, and exits before, inside and after a loop that meet there
  come out of the structuriser invalid; returns in place are valid.
* ``"early_returns"`` -- the other arrangement of returns than
  ``duplicate_returns`` (the Vulkan target tries it when spirv-val rejects the
  first module, ``hanajit_vulkan.codegen``): every ``ret void`` branches to the
  one block that only returns, and a conditional edge into an empty path to that
  block (private after its first block, and not the merge of the branches into
  it) goes to it directly.  A return in one arm of an ``if`` whose other arm
  holds a loop, inside an outer ``if`` (``philox_stream`` raising before the
  ziggurat's loop), is then valid: the returns meet at the outer ``if``'s merge.
  Returns in place are not, and this arrangement makes other kernels invalid
  (``tree_sum``), hence the order.
* ``"direct_access"`` -- a load, store or ``atomicrmw`` through an
  ``addrspacecast`` to the generic space uses the cast's source pointer (a storage
  buffer element, a shared array -- its element 0 when the cast is of the whole
  array), element ``getelementptr``s on an array global get their leading 0 index
  back, and casts left unused are dropped: the backend's pointer-cast legalisation
  aborts on an atomic user, an unused cast or an array global read as its first
  element ("Unsupported ptrcast user"), and an atomic on ``gep T, @shared, i``
  asserts ("First index must be 0").
"""
from __future__ import annotations

import re
import struct

OP_TYPE_INT, OP_CONSTANT, OP_CONSTANT_NULL = 21, 43, 46
OP_CONTROL_BARRIER, OP_MEMORY_BARRIER = 224, 225
CONTROL_SEMANTICS, MEMORY_SEMANTICS = 0x108, 0x148


def _words(spv: bytes) -> list:
    return list(struct.unpack(f"<{len(spv) // 4}I", spv))


def _pack(words: list) -> bytes:
    return struct.pack(f"<{len(words)}I", *words)


def _instructions(words: list):
    i = 5
    while i < len(words):
        count, op = words[i] >> 16, words[i] & 0xFFFF
        if count == 0:
            raise ValueError("malformed SPIR-V: an instruction of 0 words")
        yield i, count, op
        i += count


def int_constant_null(spv: bytes) -> bytes:
    words = _words(spv)
    ints = {words[i + 1] for i, n, op in _instructions(words) if op == OP_TYPE_INT}
    out = words[:5]
    for i, n, op in _instructions(words):
        if op == OP_CONSTANT_NULL and words[i + 1] in ints:
            out += [(4 << 16) | OP_CONSTANT, words[i + 1], words[i + 2], 0]
        else:
            out += words[i:i + n]
    return _pack(out)


def barrier_semantics(spv: bytes) -> bytes:
    words = _words(spv)
    uint_id = uint_end = None
    sites = []
    for i, n, op in _instructions(words):
        if (op == OP_TYPE_INT and words[i + 2] == 32 and words[i + 3] == 0
                and uint_id is None):
            uint_id, uint_end = words[i + 1], i + n
        elif op == OP_CONTROL_BARRIER:
            sites.append((i + 3, CONTROL_SEMANTICS))
        elif op == OP_MEMORY_BARRIER:
            sites.append((i + 2, MEMORY_SEMANTICS))
    if not sites:
        return spv
    if uint_id is None:
        raise ValueError("SPIR-V barrier without a 32-bit unsigned integer type")
    bound = words[3]
    ids: dict = {}
    for pos, sem in sites:
        if sem not in ids:
            ids[sem] = bound
            bound += 1
        words[pos] = ids[sem]
    new = [w for sem, cid in ids.items()
           for w in ((4 << 16) | OP_CONSTANT, uint_id, cid, sem)]
    words = words[:uint_end] + new + words[uint_end:]
    words[3] = bound
    return _pack(words)


OP_EXT_INST, OP_TYPE_FLOAT, OP_TYPE_VECTOR, OP_DECORATE = 12, 22, 23, 71
DECORATION_NO_CONTRACTION = 42
# OpFNegate, OpFAdd, OpFSub, OpFMul, OpFDiv, OpFRem, OpFMod
_FLOAT_ARITHMETIC = {127, 129, 131, 133, 136, 140, 141}
# the sections before the types: capabilities, extensions, imports, memory model,
# entry points, execution modes, debug names, annotations
_PREAMBLE = {17, 10, 11, 14, 15, 16, 331, 2, 3, 4, 5, 6, 7, 330, 71, 72, 73, 74, 75,
             332, 5632, 5633}


def exact_float(spv: bytes) -> bytes:
    words = _words(spv)
    floats, done, targets, end = set(), set(), [], None
    for i, n, op in _instructions(words):
        if end is None and op not in _PREAMBLE:
            end = i
        if op == OP_TYPE_FLOAT:
            floats.add(words[i + 1])
        elif op == OP_TYPE_VECTOR and words[i + 2] in floats:
            floats.add(words[i + 1])
        elif op == OP_DECORATE and words[i + 2] == DECORATION_NO_CONTRACTION:
            done.add(words[i + 1])
        elif (op in _FLOAT_ARITHMETIC or op == OP_EXT_INST) and words[i + 1] in floats:
            targets.append(words[i + 2])
    new = [w for t in dict.fromkeys(targets) if t not in done
           for w in ((3 << 16) | OP_DECORATE, t, DECORATION_NO_CONTRACTION)]
    if not new or end is None:
        return spv
    return _pack(words[:end] + new + words[end:])


OP_LOOP_MERGE, OP_SELECTION_MERGE = 246, 247
# OpBranch, OpBranchConditional, OpSwitch, OpKill, OpReturn, OpReturnValue,
# OpUnreachable: the instructions that end a block
_TERMINATORS = {249, 250, 251, 252, 253, 254, 255}


def loop_merge_last(spv: bytes) -> bytes:
    words = _words(spv)
    out, held = words[:5], None
    for i, n, op in _instructions(words):
        if op in (OP_LOOP_MERGE, OP_SELECTION_MERGE):
            held = words[i:i + n]
            continue
        if held is not None and op in _TERMINATORS:
            out += held
            held = None
        out += words[i:i + n]
    if held is not None:
        raise ValueError("malformed SPIR-V: a merge instruction without a terminator")
    return _pack(out)


FIXES = {"int_constant_null": int_constant_null, "barrier_semantics": barrier_semantics,
         "exact_float": exact_float, "loop_merge_last": loop_merge_last}


def apply(spv: bytes, names) -> bytes:
    """``spv`` after the fixes ``names``, in order."""
    for name in names:
        spv = FIXES[name](spv)
    return spv


_CONSTANT_GEP = re.compile(
    r"getelementptr ((?:inbounds |nuw |nusw )*)\(([^(),]+|\[[^\]]*\]), "
    r"(ptr(?: addrspace\(\d+\))?) (@[-\w.$]+|@\"[^\"]+\")((?:, i\d+ -?\d+)+)\)")


_CONSTANT_CAST = re.compile(
    r"addrspacecast \((ptr(?: addrspace\(\d+\))?) (%[-\w.$]+|@[-\w.$]+|@\"[^\"]+\") "
    r"to (ptr(?: addrspace\(\d+\))?)\)")


def constant_geps(text: str) -> str:
    out, count = [], 0
    for line in text.splitlines():
        if (line.startswith("  ") and " phi " not in line
                and ("getelementptr" in line or "addrspacecast (" in line)):
            while True:
                m = _CONSTANT_GEP.search(line)
                if m is not None:
                    flags, ty, pty, base, idx = m.groups()
                    inst = f"getelementptr {flags}{ty}, {pty} {base}{idx}"
                else:
                    m = _CONSTANT_CAST.search(line)
                    if m is None:
                        break
                    src, value, dst = m.groups()
                    inst = f"addrspacecast {src} {value} to {dst}"
                count += 1
                name = f"%hj.cgep.{count}"
                out.append(f"  {name} = {inst}")
                line = line[:m.start()] + name + line[m.end():]
        out.append(line)
    return "\n".join(out) + "\n"


_ORDERED = re.compile(r"^(\s*)(%[-\w.$]+|%\"[^\"]+\") = fcmp ((?:[a-z]+ )*?)(uno|ord) "
                      r"(\S+) ([^,]+), (.+?)\s*$")


def _is_constant(operand: str) -> bool:
    return not operand.startswith("%")


def unordered_compares(text: str) -> str:
    out = []
    for line in text.splitlines():
        m = _ORDERED.match(line)
        if m is None:
            out.append(line)
            continue
        indent, name, flags, pred, ty, a, b = m.groups()
        test = "une" if pred == "uno" else "oeq"
        join = "or" if pred == "uno" else "and"
        values = [x for x in (a, b) if not _is_constant(x)]
        if not values:
            out.append(line)
            continue
        if len(values) == 1 or a == b:
            out.append(f"{indent}{name} = fcmp {flags}{test} {ty} {values[0]}, {values[0]}")
            continue
        base = name[:-1] + '.hj"' if name.endswith('"') else name + ".hj"
        left, right = base + "a", base + "b"
        out.append(f"{indent}{left} = fcmp {flags}{test} {ty} {a}, {a}")
        out.append(f"{indent}{right} = fcmp {flags}{test} {ty} {b}, {b}")
        bool_ty = ty.replace("double", "i1").replace("float", "i1").replace("half", "i1")
        out.append(f"{indent}{name} = {join} {bool_ty} {left}, {right}")
    return "\n".join(out) + "\n"


_BLOCK = re.compile(r"^([-\w.$]+|\"[^\"]+\"):")
_LABEL = re.compile(r"label (%[-\w.$]+)")
_LABEL_REF = re.compile(r"label (%[-\w.$]+)(?![-\w.$])")
_CBR = re.compile(r"^(\s*)br i1 (\S+), label (%\S+), label (%[^,\s]+)(.*)$")


def branch_order(text: str) -> str:
    lines = text.splitlines()
    order, current, entry = {}, None, {}
    for n, line in enumerate(lines):
        if line.startswith("define "):
            current = n
            entry[n] = len(order)
        m = _BLOCK.match(line)
        if m:
            order[(current, "%" + m.group(1))] = n
    out, current, count = [], None, 0
    for n, line in enumerate(lines):
        if line.startswith("define "):
            current = n
        m = _CBR.match(line)
        if m:
            indent, cond, yes, no, rest = m.groups()
            at_yes, at_no = order.get((current, yes)), order.get((current, no))
            if (at_yes is not None and at_no is not None and n < at_yes < at_no):
                count += 1
                flipped = f"%hj.not.{count}"
                out.append(f"{indent}{flipped} = xor i1 {cond}, true")
                line = f"{indent}br i1 {flipped}, label {no}, label {yes}"
                line += re.sub(r"!prof !\d+", "", rest).rstrip(", ")
        out.append(line)
    return "\n".join(out) + "\n"


_CAST = re.compile(r"^\s*(%[-\w.$]+) = addrspacecast (ptr addrspace\(\d+\)) "
                   r"(%[-\w.$]+|@[-\w.$]+) to ptr\s*$")
_ACCESS = re.compile(r"^(\s*)((?:%[-\w.$]+ = atomicrmw (?:volatile )?\w+ )|"
                     r"(?:%[-\w.$]+ = load [^,]+, )|(?:store [^,]+, ))ptr (%[-\w.$]+)(,.*)$")
_ARRAY_GLOBAL = re.compile(r"^(@[-\w.$]+) = .*?addrspace\((\d+)\) global \[(\d+) x ([^\]]+)\]")
_ELEMENT_GEP = re.compile(r"getelementptr ((?:inbounds |nuw |nusw )*)([^,]+), "
                          r"(ptr addrspace\(\d+\)) (@[-\w.$]+), i64 (-?\d+|%[-\w.$]+)$")
_SIZES = {"double": 8, "float": 4, "i64": 8, "i32": 4, "i16": 2, "i8": 1}


def direct_access(text: str) -> str:
    arrays = {}
    casts = {}
    for line in text.splitlines():
        m = _ARRAY_GLOBAL.match(line)
        if m:
            arrays[m.group(1)] = (int(m.group(3)), m.group(4).strip())
        m = _CAST.match(line)
        if m:
            casts[m.group(1)] = (m.group(2), m.group(3))
    out, count = [], 0
    for line in text.splitlines():
        head, eq, tail = line.partition(" = ")
        m = _ELEMENT_GEP.search(tail) if eq else None
        if m and m.group(4) in arrays and tail.startswith("getelementptr"):
            n, et = arrays[m.group(4)]
            ty, index = m.group(2).strip(), m.group(5)
            if ty == "i8" and et != "i8" and not index.startswith("%"):
                index = str(int(index) // _SIZES.get(et, 1))
                ty = et
            if ty == et:
                line = (f"{head} = getelementptr inbounds [{n} x {et}], {m.group(3)} "
                        f"{m.group(4)}, i64 0, i64 {index}")
        m = _ACCESS.match(line)
        if m and m.group(3) in casts:
            indent, lhs, pointer, rest = m.groups()
            space, source = casts[pointer]
            if source in arrays:
                count += 1
                n, et = arrays[source]
                first = f"%hj.at.{count}"
                # a constant 0 index folds back into the global (a cast again)
                out.append(f"{indent}{first}.zero = freeze i64 0")
                out.append(f"{indent}{first} = getelementptr inbounds [{n} x {et}], "
                           f"{space} {source}, i64 0, i64 {first}.zero")
                source = first
            line = f"{indent}{lhs}{space} {source}{rest}"
        out.append(line)
    # casts no instruction uses any more: the legalisation aborts on them too
    text = "\n".join(out) + "\n"
    dead = {name for name in casts
            if len(re.findall(re.escape(name) + r"(?![-\w.$])", text)) == 1}
    return "\n".join(line for line in out
                     if not ((m := _CAST.match(line)) and m.group(1) in dead)) + "\n"


def duplicate_returns(text: str) -> str:
    lines = text.splitlines()
    returns = set()
    for i, line in enumerate(lines[:-1]):
        m = _BLOCK.match(line)
        if m and lines[i + 1].strip() == "ret void":
            returns.add("%" + m.group(1))
    out = []
    for line in lines:
        stripped = line.strip()
        if stripped.startswith("br label ") and stripped[len("br label "):] in returns:
            line = line[:len(line) - len(stripped)] + "ret void"
        out.append(line)
    return "\n".join(out) + "\n"


def _block_bodies(lines):
    """Block label (``%name``) -> its instructions, of the one function defined in
    ``lines`` (the kernel entry, everything inlined into it)."""
    blocks, current = {}, None
    for line in lines:
        if line.startswith("define "):
            current = "%entry"
            blocks[current] = []
            continue
        m = _BLOCK.match(line)
        if m:
            current = "%" + m.group(1)
            blocks[current] = []
        elif line.startswith("}"):
            current = None
        elif current is not None and line.strip() and not line.strip().startswith(";"):
            blocks[current].append(line.strip())
    return blocks


def early_returns(text: str) -> str:
    if sum(line.startswith("define ") for line in text.splitlines()) != 1:
        return text                     # a kernel entry with everything inlined only
    lines = text.splitlines()
    blocks = _block_bodies(lines)
    returns = [b for b, body in blocks.items() if body == ["ret void"]]
    if not returns:
        return text
    ret = returns[0]
    out, current = [], None
    for line in lines:
        m = _BLOCK.match(line)
        if m:
            current = "%" + m.group(1)
        elif line.startswith("define "):
            current = "%entry"
        if line.strip() == "ret void" and current != ret:
            line = line.replace("ret void", "br label " + ret)
        out.append(line)
    lines = out
    blocks = _block_bodies(lines)
    preds: dict = {}
    conditional: dict = {}
    for body in blocks.values():
        if not body:
            continue
        targets = set(_LABEL.findall(body[-1]))
        for t in targets:
            preds[t] = preds.get(t, 0) + 1
            if body[-1].startswith("br i1 "):
                conditional[t] = conditional.get(t, 0) + 1

    def forwards(b):
        body = blocks.get(b)
        if body is not None and len(body) == 1 and body[0].startswith("br label %"):
            return body[0][len("br label "):]
        return None

    def early(b):
        # an empty path to the return, private after its first block, which is
        # not the merge of the branches into it (one of its ways in is not a
        # conditional edge, or it has one way in)
        if b == ret or not (preds.get(b, 0) == 1 or conditional.get(b, 0) < preds.get(b, 0)):
            return False
        seen, at = set(), b
        while at != ret:
            if at in seen or (at != b and preds.get(at, 0) != 1):
                return False
            seen.add(at)
            at = forwards(at)
            if at is None:
                return False
        return True

    out = []
    for line in lines:
        if line.strip().startswith("br i1 "):
            line = _LABEL_REF.sub(
                lambda m: f"label {ret}" if early(m.group(1)) else m.group(0), line)
        out.append(line)
    return "\n".join(out) + "\n"


TEXT_FIXES = {"constant_geps": constant_geps, "unordered_compares": unordered_compares,
              "branch_order": branch_order, "duplicate_returns": duplicate_returns,
              "direct_access": direct_access, "early_returns": early_returns}


def apply_text(text: str, names) -> str:
    """LLVM IR ``text`` after the text fixes ``names``, in order."""
    for name in names:
        text = TEXT_FIXES[name](text)
    return text

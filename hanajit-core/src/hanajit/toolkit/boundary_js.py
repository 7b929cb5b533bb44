"""The boundary (:mod:`.boundary`) printed as JavaScript, for the wasm loader
(``hanajit_wasm.jsloader``): results as Python prints them, argument texts
parsed as the executable parses them, raise names and exit statuses.

``pyFloat`` takes JavaScript's own shortest round-trip digits (``String(x)``:
the fewest digits that read back as ``x``, the closest such when several)
and writes them in Python's notation: ``1.0`` not ``1``, ``1e+21`` and
``1e-05`` not ``1e21`` and ``0.00001``, ``inf``/``nan``, ``-0.0``.  Types are
the manifest's JSON form (``"f64"``, ``"i64"``, ``"bool"``, ``"none"``, a list
for a tuple, ``{"array": "f64", "ndim": 2}``); values are what the loader
returns (``BigInt`` for 64-bit integers, ``{data, shape}`` for arrays).
"""
from __future__ import annotations

import json

from ..ir import types as T
from . import boundary as B

_SOURCE = r"""
// The boundary as Python prints it (generated from hanajit.toolkit.boundary).
const EXIT = __EXIT__;
const BOOL_ARGS = __BOOL_ARGS__;

function shortestDigits(x) {      // [digits, exp]: |x| = d.ddd x 10^exp, JS's shortest
  if (x === 0) return ["0", 0];
  let s = String(Math.abs(x)), exp = 0;
  const at = s.indexOf("e");
  if (at >= 0) { exp = Number(s.slice(at + 1)); s = s.slice(0, at); }
  let point = s.indexOf(".");
  if (point < 0) point = s.length;
  const all = s.replace(".", "");
  const lead = all.length - all.replace(/^0+/, "").length;
  return [all.slice(lead).replace(/0+$/, "") || "0", exp + point - lead - 1];
}

export function pyFloat(x, dot0 = true) {   // repr(float); dot0: "1.0", not "1"
  if (Number.isNaN(x)) return "__NAN__";
  if (x === Infinity) return "__INF__";
  if (x === -Infinity) return "-__INF__";
  const sign = x < 0 || Object.is(x, -0) ? "-" : "";
  const [digits, exp] = shortestDigits(x);
  if (exp < __EXP_LOW__ || exp >= __EXP_HIGH__) {
    return sign + digits[0] + (digits.length > 1 ? "." + digits.slice(1) : "") + "e" +
      (exp < 0 ? "-" : "+") + String(Math.abs(exp)).padStart(__EXP_DIGITS__, "0");
  }
  const point = exp + 1;
  if (point <= 0) return sign + "0." + "0".repeat(-point) + digits;
  if (point < digits.length) return sign + digits.slice(0, point) + "." + digits.slice(point);
  return sign + digits + "0".repeat(point - digits.length) + (dot0 ? ".0" : "");
}

export function pyComplex(re, im) {           // repr(complex(re, im))
  const b = pyFloat(im, false);
  if (re === 0 && !Object.is(re, -0)) return b + "j";
  return "(" + pyFloat(re, false) + (b[0] === "-" ? "" : "+") + b + "j)";
}

function pyList(data, shape, d, pos, elem) {  // print(a.tolist())
  if (shape.length === 0) return pyRepr(data[pos.k++], elem);
  const items = [];
  for (let i = 0; i < shape[d]; i++) {
    items.push(d === shape.length - 1 ? pyRepr(data[pos.k++], elem)
                                      : pyList(data, shape, d + 1, pos, elem));
  }
  return "[" + items.join(", ") + "]";
}

export function pyRepr(value, type) {         // print(value) for a result of `type`
  if (Array.isArray(type)) {
    const items = type.map((t, i) => pyRepr(value[i], t));
    return "(" + items.join(", ") + (items.length === 1 ? ",)" : ")");
  }
  if (type !== null && typeof type === "object") {
    return pyList(value.data, value.shape, 0, { k: 0 }, type.array);
  }
  if (type === "none") return "__NONE__";
  if (type === "bool") return value ? "__TRUE__" : "__FALSE__";
  if (type[0] === "f") return pyFloat(Number(value));
  return String(value);                        // integers: Number or BigInt
}

const INT_RANGE = __INT_RANGE__;
const TYPE_NAMES = __TYPE_NAMES__;
const FLOAT_TEXT = /^[+-]?((\d+\.?\d*|\.\d+)([eE][+-]?\d+)?|inf(inity)?|nan)$/i;

export function parseArg(text, type) {        // an argument's text, as the executable reads it
  if (type === "bool") {
    if (text in BOOL_ARGS) return BOOL_ARGS[text];
  } else if (type[0] === "f") {
    if (FLOAT_TEXT.test(text)) {
      const t = text.toLowerCase().replace(/inity$/, "");
      const sign = t[0] === "-" ? -1 : 1;
      const word = t.replace(/^[+-]/, "");
      return word === "inf" ? sign * Infinity : word === "nan" ? NaN : Number(text);
    }
  } else if (type in INT_RANGE && /^[+-]?\d+$/.test(text)) {
    const v = BigInt(text), [lo, hi] = INT_RANGE[type].map(BigInt);
    if (v >= lo && v <= hi) return type === "i64" || type === "u64" ? v : Number(v);
  }
  throw new TypeError(`expected ${TYPE_NAMES[type] || type}, got '${text}'`);
}

export function raiseText(name, message) {   // Python's last traceback line
  return message ? `${name}: ${message}` : name;
}
"""


def source() -> str:
    """The JavaScript helpers (ES module): ``pyFloat``, ``pyComplex``, ``pyRepr``,
    ``parseArg``, ``raiseText``, ``EXIT``."""
    ranges = {t.short: [str(x) for x in T.int_range(t)] for t in T.SCALARS
              if t.is_int and not t.is_bool}
    exits = {e.name: int(e) for e in B.Exit}
    names = {t.short: t.name for t in T.SCALARS}
    return (_SOURCE.replace("__EXIT__", json.dumps(exits))
            .replace("__BOOL_ARGS__", json.dumps(B.BOOL_ARGS))
            .replace("__INT_RANGE__", json.dumps(ranges))
            .replace("__TYPE_NAMES__", json.dumps(names))
            .replace("__NAN__", B.NAN_TEXT).replace("__INF__", B.INF_TEXT)
            .replace("__NONE__", B.NONE_TEXT)
            .replace("__TRUE__", B.BOOL_TEXT[1]).replace("__FALSE__", B.BOOL_TEXT[0])
            .replace("__EXP_LOW__", str(B.EXP_LOW))
            .replace("__EXP_HIGH__", str(B.EXP_HIGH))
            .replace("__EXP_DIGITS__", str(B.EXP_DIGITS)))

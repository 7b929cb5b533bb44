// Runs an exported kernel with array arguments under node; used by the tests.
// argv: loader path, JSON list of calls; each argument is a number, a BigInt
// string {"big": "..."}, or {"array": "f64", "shape": [...], "hex": "<bytes>"}.
// Prints, per call, ["ok", result, arguments after the call] or ["raise", name,
// message]; arrays come back as {"shape": [...], "hex": "<bytes>"}.
const [,, loader, callsJson] = process.argv;
const { default: load } = await import(loader);
const k = await load();
const name = k.manifest.name;
const TYPED = {
  f64: Float64Array, f32: Float32Array, i64: BigInt64Array, u64: BigUint64Array,
  i32: Int32Array, u32: Uint32Array, i16: Int16Array, u16: Uint16Array,
  i8: Int8Array, u8: Uint8Array, bool: Uint8Array,
};
const hex = (t) => Buffer.from(t.buffer, t.byteOffset, t.byteLength).toString("hex");
function decode(a) {
  if (a !== null && typeof a === "object" && "big" in a) return BigInt(a.big);
  if (a === null || typeof a !== "object") return a;
  const bytes = Buffer.from(a.hex, "hex");
  const buf = new ArrayBuffer(bytes.length);
  new Uint8Array(buf).set(bytes);
  const data = new TYPED[a.array](buf);
  return a.shape.length === 1 ? data : { data, shape: a.shape };
}
function encode(v) {
  if (Array.isArray(v)) return v.map(encode);
  if (ArrayBuffer.isView(v)) return { shape: [v.length], hex: hex(v) };
  if (v !== null && typeof v === "object" && v.data) return { shape: v.shape, hex: hex(v.data) };
  if (typeof v === "bigint") return v.toString();
  if (typeof v === "number" && !Number.isFinite(v)) return String(v);
  return v;
}
const out = [];
for (const call of JSON.parse(callsJson)) {
  const args = call.map(decode);
  try { out.push(["ok", encode(k[name](...args)), args.map(encode)]); }
  catch (e) { out.push(["raise", e.name, e.message]); }
}
console.log(JSON.stringify(out));

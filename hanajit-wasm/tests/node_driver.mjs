const [,, loader, argsJson] = process.argv;
const { default: load } = await import(loader);
const k = await load();
const name = k.manifest.name;
const out = [];
for (const args of JSON.parse(argsJson)) {
  try { out.push(["ok", k[name](...args)]); }
  catch (e) { out.push(["raise", e.name, e.message]); }
}
const enc = (v) => typeof v === "bigint" ? v.toString() :
  (typeof v === "number" && !Number.isFinite(v)) ? String(v) : v;
console.log(JSON.stringify(out, (key, v) => enc(v)));

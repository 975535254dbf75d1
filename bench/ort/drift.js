// bench/ort/drift.js: how far one run's outputs drift from another's (an int8
// model's against its float original), output by output.
//
//   node drift.js REFERENCE_DIR OTHER_DIR
//
// Each DIR holds output_<i>.pb (onyx-run --output-dir, run_ort.js --output-dir).
// Prints per output the largest absolute difference, the largest |reference|
// and the cosine similarity of the two outputs as vectors.
'use strict';
const fs = require('fs');
const path = require('path');
const {decodeTensor} = require('./run_ort.js');

const [refDir, otherDir] = process.argv.slice(2);
if (!otherDir) {
  console.error('usage: node drift.js REFERENCE_DIR OTHER_DIR');
  process.exit(2);
}
const files = fs.readdirSync(refDir).filter((f) => /^output_\d+\.pb$/.test(f)).sort();
for (const f of files) {
  const a = decodeTensor(fs.readFileSync(path.join(refDir, f)));
  const b = decodeTensor(fs.readFileSync(path.join(otherDir, f)));
  const x = a.data, y = b.data;
  if (x.length !== y.length) {
    console.log(`${f}: ${x.length} vs ${y.length} elements`);
    process.exitCode = 1;
    continue;
  }
  let maxAbs = 0, maxRef = 0, dot = 0, nx = 0, ny = 0;
  for (let i = 0; i < x.length; ++i) {
    const u = Number(x[i]), v = Number(y[i]);
    maxAbs = Math.max(maxAbs, Math.abs(u - v));
    maxRef = Math.max(maxRef, Math.abs(u));
    dot += u * v, nx += u * u, ny += v * v;
  }
  const cos = nx > 0 && ny > 0 ? dot / Math.sqrt(nx * ny) : (nx === ny ? 1 : 0);
  console.log(`${f} [${a.dims.join(',')}]: max |diff| ${maxAbs.toPrecision(4)} (max |ref| ${maxRef.toPrecision(4)}), ` +
              `cosine ${cos.toFixed(6)}`);
}

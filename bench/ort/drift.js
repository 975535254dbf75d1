// bench/ort/drift.js: how far one run's outputs drift from another's (an int8
// model's against its float original), output by output.
//
//   node drift.js REFERENCE_DIR OTHER_DIR [--ctc KEYS.txt]
//
// Each DIR holds output_<i>.pb (onyx-run --output-dir, run_ort.js --output-dir).
// Prints per output the largest absolute difference, the largest |reference|
// and the cosine similarity of the two outputs as vectors. With --ctc, an
// output of shape [N, T, C] is also read as a text recognizer's per-step
// class scores (PP-OCR: class 0 the CTC blank, class i the i-th line of
// KEYS.txt, the last class a space) and greedily decoded in both runs:
// argmax per step, repeats merged, blanks dropped.
'use strict';
const fs = require('fs');
const path = require('path');
const {decodeTensor} = require('./run_ort.js');

const args = process.argv.slice(2);
let keys = null;
const ctcAt = args.indexOf('--ctc');
if (ctcAt >= 0) {
  keys = ['', ...fs.readFileSync(args[ctcAt + 1], 'utf8').split('\n').filter((l) => l.length > 0), ' '];
  args.splice(ctcAt, 2);
}
const [refDir, otherDir] = args;
if (!otherDir) {
  console.error('usage: node drift.js REFERENCE_DIR OTHER_DIR [--ctc KEYS.txt]');
  process.exit(2);
}

// Greedy CTC decoding of [N, T, C] scores: the N lines joined by ' | '.
function ctcDecode(t) {
  const [lines, steps, classes] = t.dims.map(Number);
  const out = [];
  for (let n = 0; n < lines; ++n) {
    let text = '', prev = -1;
    for (let s = 0; s < steps; ++s) {
      const at = (n * steps + s) * classes;
      let best = 0;
      for (let c = 1; c < classes; ++c)
        if (t.data[at + c] > t.data[at + best]) best = c;
      if (best !== prev && best !== 0) text += best < keys.length ? keys[best] : `<${best}>`;
      prev = best;
    }
    out.push(text);
  }
  return out.join(' | ');
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
  if (keys && a.dims.length === 3) {
    const ta = ctcDecode(a), tb = ctcDecode(b);
    console.log(`  decoded: ${JSON.stringify(ta)}${ta === tb ? ' (the same in both)' : ` against ${JSON.stringify(tb)}`}`);
  }
}

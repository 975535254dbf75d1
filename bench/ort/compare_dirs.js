// bench/ort/compare_dirs.js: two runtimes' outputs of one model, element by element.
//
//   node compare_dirs.js ONYX_DIR ORT_DIR [--atol A] [--rtol R]
//
// Each DIR holds output_<i>.pb (onyx-run --output-dir, run_ort.js --output-dir).
// Elements match when |onyx - ort| <= atol + rtol |ort| (default 1e-4, 1e-3:
// the bar of "CPU speed, part 2"). Prints one line per output with the largest
// differences; exits 1 on a mismatch, a shape difference or a missing file.
'use strict';
const fs = require('fs');
const path = require('path');
const {decodeTensor} = require('./run_ort.js');

const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(name);
  return i < 0 ? dflt : Number(args.splice(i, 2)[1]);
};
const atol = opt('--atol', 1e-4), rtol = opt('--rtol', 1e-3);
const [mineDir, refDir] = args;
if (!refDir) {
  console.error('usage: node compare_dirs.js ONYX_DIR ORT_DIR [--atol A] [--rtol R]');
  process.exit(2);
}
const files = fs.readdirSync(refDir).filter((f) => /^output_\d+\.pb$/.test(f)).sort();
if (!files.length) {
  console.error(`compare_dirs.js: no output_<i>.pb in ${refDir}`);
  process.exit(1);
}
let failed = false;
for (const f of files) {
  const mineFile = path.join(mineDir, f);
  if (!fs.existsSync(mineFile)) {
    console.log(`${f}: missing in ${mineDir}`);
    failed = true;
    continue;
  }
  const mine = decodeTensor(fs.readFileSync(mineFile)), ref = decodeTensor(fs.readFileSync(path.join(refDir, f)));
  if (mine.dims.join('x') !== ref.dims.join('x')) {
    console.log(`${f}: shape ${mine.dims.join('x')}, ONNX Runtime's ${ref.dims.join('x')}`);
    failed = true;
    continue;
  }
  let maxAbs = 0, worst = 0, bad = 0, first = -1;
  for (let i = 0; i < ref.data.length; ++i) {
    const a = Number(mine.data[i]), b = Number(ref.data[i]), d = Math.abs(a - b);
    maxAbs = Math.max(maxAbs, d);
    worst = Math.max(worst, d / (atol + rtol * Math.abs(b)));
    if (!(d <= atol + rtol * Math.abs(b))) {
      if (first < 0) first = i;
      ++bad;
    }
  }
  console.log(`${f} ${ref.dims.join('x')}: max |onyx - ort| ${maxAbs.toExponential(2)}, worst ${worst.toFixed(3)} of the tolerance` +
              (bad ? `; ${bad} outside it, first at ${first}: onyx ${mine.data[first]}, ort ${ref.data[first]}` : ''));
  failed ||= bad > 0;
}
process.exit(failed ? 1 : 0);

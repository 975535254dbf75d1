// examples/ocr/compare_ort.js: the ocr.ort test. Each PP-OCR model's output
// as onyx computed it (`onyx-ocr IMAGE --dump-tensors DIR`) against ONNX
// Runtime's on the same input.
//
//   node compare_ort.js ORT_DIR MODELS_DIR DUMP_DIR
//
// ORT_DIR holds node_modules/onnxruntime-node (npm ci --ignore-scripts of
// bench/ort's lock file); DUMP_DIR holds <det|cls|rec>_{input,output}.pb.
// Elements match when |onyx - ort| <= 1e-4 + 1e-3 |ort|. Prints one line a
// model with the largest differences; exits 1 on a mismatch or a missing file.
'use strict';
const fs = require('fs');
const path = require('path');
const {decodeTensor} = require('../../bench/ort/run_ort.js');

const MODELS = {
  det: 'ch_PP-OCRv4_det_infer.onnx',
  cls: 'ch_ppocr_mobile_v2.0_cls_infer.onnx',
  rec: 'ch_PP-OCRv4_rec_infer.onnx',
};
const ATOL = 1e-4, RTOL = 1e-3;

async function main() {
  const [ortDir, modelsDir, dumpDir] = process.argv.slice(2);
  if (!dumpDir) throw new Error('usage: node compare_ort.js ORT_DIR MODELS_DIR DUMP_DIR');
  const ortPath = path.join(ortDir, 'node_modules', 'onnxruntime-node');
  if (!fs.existsSync(ortPath))
    throw new Error(`no ONNX Runtime at ${ortPath}: the build installs it with npm ci (network to registry.npmjs.org)`);
  const ort = require(ortPath);
  let failed = false;
  for (const [name, file] of Object.entries(MODELS)) {
    const model = path.join(modelsDir, file);
    const files = [model, path.join(dumpDir, `${name}_input.pb`), path.join(dumpDir, `${name}_output.pb`)];
    const absent = files.filter((f) => !fs.existsSync(f));
    if (absent.length) throw new Error(`missing: ${absent.join(', ')}`);
    const input = decodeTensor(fs.readFileSync(files[1]));
    const mine = decodeTensor(fs.readFileSync(files[2]));
    const session = await ort.InferenceSession.create(model, {intraOpNumThreads: 1, logSeverityLevel: 3});
    const outs = await session.run({[session.inputNames[0]]: new ort.Tensor(input.dtype, input.data, input.dims)});
    const ref = outs[session.outputNames[0]];
    if (ref.dims.join('x') !== mine.dims.join('x')) {
      console.log(`${name}: shape ${mine.dims.join('x')}, ONNX Runtime's ${ref.dims.join('x')}`);
      failed = true;
      continue;
    }
    let worst = 0, maxAbs = 0, bad = 0, first = -1;
    for (let i = 0; i < ref.data.length; ++i) {
      const a = mine.data[i], b = ref.data[i], d = Math.abs(a - b);
      maxAbs = Math.max(maxAbs, d);
      worst = Math.max(worst, d / (ATOL + RTOL * Math.abs(b)));
      if (!(d <= ATOL + RTOL * Math.abs(b))) {
        if (first < 0) first = i;
        ++bad;
      }
    }
    console.log(`${name}: input ${input.dims.join('x')}, output ${ref.dims.join('x')}: max |onyx - ort| ${maxAbs.toExponential(2)}, ` +
                `worst ${worst.toFixed(3)} of the tolerance` +
                (bad ? `; ${bad} elements outside it, first at ${first}: onyx ${mine.data[first]}, ort ${ref.data[first]}` : ''));
    failed ||= bad > 0;
  }
  process.exit(failed ? 1 : 0);
}

main().catch((e) => {
  console.error(`compare_ort.js: ${e.message}`);
  process.exit(1);
});

// bench/ort/image_inputs.js: model inputs made from images, for calibrating a
// static quantization and for benchmarking on real pixels.
//
//   node image_inputs.js det|rec OUT_DIR IMAGE...
//
// Each IMAGE becomes OUT_DIR/test_data_set_<i>/input_0.pb (the test_data_set layout):
// ImageMagick (`convert`) stretches it to the input size and gives its RGB
// bytes; channels go in BGR order, as PaddleOCR feeds them, normalized as
// examples/ocr does: det 1x3x640x640 with ImageNet mean/std, rec 1x3x48x320
// with (x / 255 - 0.5) / 0.5.
'use strict';
const fs = require('fs');
const path = require('path');
const {execFileSync} = require('child_process');
const {encodeTensor} = require('./run_ort.js');

const [kind, outDir, ...images] = process.argv.slice(2);
if (!['det', 'rec'].includes(kind) || !images.length) {
  console.error('usage: node image_inputs.js det|rec OUT_DIR IMAGE...');
  process.exit(2);
}
const [h, w] = kind === 'det' ? [640, 640] : [48, 320];
const mean = kind === 'det' ? [0.485, 0.456, 0.406] : [0.5, 0.5, 0.5];
const std = kind === 'det' ? [0.229, 0.224, 0.225] : [0.5, 0.5, 0.5];
images.forEach((img, i) => {
  const rgb = execFileSync('convert', [img, '-resize', `${w}x${h}!`, '-depth', '8', 'rgb:-'], {maxBuffer: 1 << 26});
  const data = new Float32Array(3 * h * w);
  for (let c = 0; c < 3; ++c) {
    const src = 2 - c;  // BGR
    for (let p = 0; p < h * w; ++p) data[c * h * w + p] = (rgb[p * 3 + src] / 255 - mean[c]) / std[c];
  }
  const dir = path.join(outDir, `test_data_set_${i}`);
  fs.mkdirSync(dir, {recursive: true});
  fs.writeFileSync(path.join(dir, 'input_0.pb'), encodeTensor('x', 'float32', [1, 3, h, w], data));
});
console.log(`${images.length} ${kind} inputs in ${outDir}`);

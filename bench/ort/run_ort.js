// bench/ort/run_ort.js: ONNX Runtime's side of bench/compare_ort.sh.
//
//   node run_ort.js MODEL [--input NAME=FILE.pb]... [--threads N] [--warmup W] [--runs R]
//                   [--output-dir DIR] [--optimization disabled|basic|extended|all] [--profile PREFIX]
//     runs MODEL like onyx-run does and prints `session: created in C ms`
//     (InferenceSession.create: reading, optimizing and preparing the model;
//     the library is loaded before) and `latency: median X ms, min Y ms,
//     max Z ms over R runs`. Session: intraOpNumThreads N, interOpNumThreads 1,
//     graphOptimizationLevel all (or --optimization's), sequential execution. With --output-dir,
//     output i of the last run is written to DIR/output_i.pb (as onyx-run does).
//   node run_ort.js --make-inputs MODEL DIR
//     prints one NAME=FILE.pb line per model input, for both runtimes: the
//     model's test_data_set_0/input_<i>.pb when it has one, otherwise a tensor
//     written to DIR holding arange(n) / n (floats) or zeros (integers), with
//     symbolic dims set to 1.
//   node run_ort.js --idle
//     loads nothing and exits: the baseline for the peak-RSS column.
'use strict';
const fs = require('fs');
const path = require('path');

// TensorProto, the fields this needs: dims 1, data_type 2, float_data 4,
// int32_data 5, int64_data 7, name 8, raw_data 9, double_data 10.
const DT = {1: 'float32', 2: 'uint8', 3: 'int8', 6: 'int32', 7: 'int64', 9: 'bool', 10: 'float16', 11: 'float64'};
const DT_CODE = Object.fromEntries(Object.entries(DT).map(([k, v]) => [v, Number(k)]));
const ARRAY = {float32: Float32Array, uint8: Uint8Array, int8: Int8Array, int32: Int32Array,
               int64: BigInt64Array, bool: Uint8Array, float16: Uint16Array, float64: Float64Array};

/// The float16 bits of `x` (round to nearest even), for generated inputs.
function halfBits(x) {
  const f = new Float32Array([x]), u = new Uint32Array(f.buffer)[0];
  const sign = (u >>> 16) & 0x8000, a = u & 0x7fffffff;
  if (a >= 0x477ff000) return sign | (a > 0x7f800000 ? 0x7e00 : 0x7c00);
  if (a < 0x38800000) return sign | Math.round(new Float32Array(new Uint32Array([a]).buffer)[0] * 16777216);
  return sign | ((a + 0xfff + ((a >>> 13) & 1) - 0x38000000) >>> 13);
}

function readVarint(buf, pos) {
  let v = 0n, shift = 0n;
  for (;;) {
    const b = buf[pos++];
    v |= BigInt(b & 0x7f) << shift;
    if (!(b & 0x80)) return [v, pos];
    shift += 7n;
  }
}

function decodeTensor(buf) {
  const dims = [], packed = {4: [], 5: [], 7: [], 10: []};
  let type = 0, name = '', raw = null;
  for (let pos = 0; pos < buf.length;) {
    let key;
    [key, pos] = readVarint(buf, pos);
    const field = Number(key >> 3n), wire = Number(key & 7n);
    if (wire === 0) {
      let v;
      [v, pos] = readVarint(buf, pos);
      if (field === 1) dims.push(Number(v));
      else if (field === 2) type = Number(v);
      else if (field === 5 || field === 7) packed[field].push(v);
    } else if (wire === 2) {
      let len;
      [len, pos] = readVarint(buf, pos);
      const end = pos + Number(len), body = buf.subarray(pos, end);
      if (field === 1 || field === 5 || field === 7)
        for (let p = 0; p < body.length;) {
          let v;
          [v, p] = readVarint(body, p);
          (field === 1 ? dims : packed[field]).push(field === 1 ? Number(v) : v);
        }
      else if (field === 4) for (let p = 0; p < body.length; p += 4) packed[4].push(body.readFloatLE(p));
      else if (field === 10) for (let p = 0; p < body.length; p += 8) packed[10].push(body.readDoubleLE(p));
      else if (field === 8) name = body.toString('utf8');
      else if (field === 9) raw = body;
      pos = end;
    } else if (wire === 5) pos += 4;
    else if (wire === 1) pos += 8;
    else throw new Error(`unsupported protobuf wire type ${wire}`);
  }
  const dtype = DT[type];
  if (!dtype) throw new Error(`unsupported TensorProto data_type ${type}`);
  const Arr = ARRAY[dtype];
  let data;
  if (raw) data = new Arr(raw.buffer.slice(raw.byteOffset, raw.byteOffset + raw.length));
  else if (dtype === 'float32') data = Float32Array.from(packed[4]);
  else if (dtype === 'float64') data = Float64Array.from(packed[10]);
  else if (dtype === 'int64') data = BigInt64Array.from(packed[7].map(BigInt.asIntN.bind(null, 64)));
  else data = Arr.from(packed[5].map(Number));
  return {name, dtype, dims, data};
}

function varint(v) {
  const out = [];
  let x = BigInt(v);
  do {
    let b = Number(x & 0x7fn);
    x >>= 7n;
    if (x) b |= 0x80;
    out.push(b);
  } while (x);
  return Buffer.from(out);
}

function encodeTensor(name, dtype, dims, data) {
  const raw = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  const nameBytes = Buffer.from(name, 'utf8');
  return Buffer.concat([
    ...dims.flatMap((d) => [varint(1 << 3), varint(d)]),
    varint((2 << 3) | 0), varint(DT_CODE[dtype]),
    varint((8 << 3) | 2), varint(nameBytes.length), nameBytes,
    varint((9 << 3) | 2), varint(raw.length), raw,
  ]);
}

async function makeInputs(ort, model, dir) {
  const s = await ort.InferenceSession.create(model, {logSeverityLevel: 3});
  const dataset = path.join(path.dirname(model), 'test_data_set_0');
  fs.mkdirSync(dir, {recursive: true});
  s.inputMetadata.forEach((m, i) => {
    const given = path.join(dataset, `input_${i}.pb`);
    if (fs.existsSync(given)) return console.log(`${m.name}=${given}`);
    const dims = m.shape.map((d) => (typeof d === 'number' && d >= 0 ? d : 1));
    const n = dims.reduce((a, b) => a * b, 1);
    const Arr = ARRAY[m.type];
    if (!Arr) throw new Error(`input '${m.name}' has type ${m.type}, which this script cannot generate`);
    const data = new Arr(n);
    if (m.type === 'float32' || m.type === 'float64') for (let k = 0; k < n; ++k) data[k] = k / n;
    if (m.type === 'float16') for (let k = 0; k < n; ++k) data[k] = halfBits(k / n);
    const file = path.join(dir, `input_${i}.pb`);
    fs.writeFileSync(file, encodeTensor(m.name, m.type, dims, data));
    console.log(`${m.name}=${file}`);
  });
}

async function bench(ort, argv) {
  const o = {model: null, inputs: [], threads: 1, warmup: 1, runs: 10, outputDir: null};
  for (let i = 0; i < argv.length; ++i) {
    const a = argv[i];
    if (a === '--input') o.inputs.push(argv[++i]);
    else if (a === '--threads') o.threads = Number(argv[++i]);
    else if (a === '--warmup') o.warmup = Number(argv[++i]);
    else if (a === '--runs') o.runs = Number(argv[++i]);
    else if (a === '--output-dir') o.outputDir = argv[++i];
    else if (a === '--optimization') o.level = argv[++i];
    else if (a === '--profile') o.profile = argv[++i];
    else o.model = a;
  }
  const c0 = process.hrtime.bigint();
  const s = await ort.InferenceSession.create(o.model, {
    intraOpNumThreads: o.threads,
    interOpNumThreads: 1,
    executionMode: 'sequential',
    graphOptimizationLevel: o.level || 'all',
    logSeverityLevel: 3,
    ...(o.profile ? {enableProfiling: true, profileFilePrefix: o.profile} : {}),
  });
  console.log(`session: created in ${(Number(process.hrtime.bigint() - c0) / 1e6).toFixed(3)} ms`);
  const feeds = {};
  for (const spec of o.inputs) {
    const eq = spec.indexOf('=');
    const t = decodeTensor(fs.readFileSync(spec.slice(eq + 1)));
    feeds[spec.slice(0, eq)] = new ort.Tensor(t.dtype, t.data, t.dims);
  }
  for (let i = 0; i < o.warmup; ++i) await s.run(feeds);
  const ms = [];
  let outs = null;
  for (let i = 0; i < o.runs; ++i) {
    const t0 = process.hrtime.bigint();
    outs = await s.run(feeds);
    ms.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  if (o.outputDir) {
    fs.mkdirSync(o.outputDir, {recursive: true});
    s.outputNames.forEach((name, i) => {
      const t = outs[name];
      fs.writeFileSync(path.join(o.outputDir, `output_${i}.pb`), encodeTensor(name, t.type, t.dims, t.data));
    });
  }
  if (o.profile) s.endProfiling();  // ORT's JSON trace: PREFIX_<date>.json
  ms.sort((a, b) => a - b);
  const h = ms.length >> 1;
  const median = ms.length % 2 ? ms[h] : (ms[h - 1] + ms[h]) / 2;
  console.log(`latency: median ${median.toFixed(3)} ms, min ${ms[0].toFixed(3)} ms, ` +
              `max ${ms[ms.length - 1].toFixed(3)} ms over ${o.runs} runs`);
}

// examples/ocr/compare_ort.js reads and writes tensor files with these.
module.exports = {decodeTensor, encodeTensor};

if (require.main === module) (async () => {
  const argv = process.argv.slice(2);
  if (argv[0] === '--idle') return;
  const ort = require('onnxruntime-node');
  if (argv[0] === '--make-inputs') await makeInputs(ort, argv[1], argv[2]);
  else await bench(ort, argv);
})().catch((e) => {
  console.error(`run_ort.js: ${e.message}`);
  process.exit(1);
});

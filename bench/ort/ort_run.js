// ONNX Runtime's side of the model benchmark (bench/models/run_bench.py): runs MODEL.onnx on
// inputs given as .npy files, as `gec run` does, and writes latency and peak memory as JSON.
//
//   node bench/ort/ort_run.js MODEL.onnx --input NAME=FILE.npy ... [--free-dim NAME=VALUE ...]
//       [--iterations N] [--warmup N] [--threads N] [--report FILE.json] [--output-dir DIR]
//   node bench/ort/ort_run.js --idle --report FILE.json    (ONNX Runtime loaded, no session)
//
// Session options: CPU provider, intraOpNumThreads = --threads, interOpNumThreads = 1,
// sequential execution, graphOptimizationLevel 'all'. Needs bench/ort/install.sh.
'use strict';

const fs = require('fs');
const path = require('path');

function fail(message) {
  process.stderr.write(`ort_run.js: ${message}\n`);
  process.exit(2);
}

function parseArgs(argv) {
  const args = {model: null, inputs: {}, freeDims: {}, iterations: 10, warmup: 1, threads: 1,
                report: null, outputDir: null, idle: false};
  const pair = (text, flag) => {
    const eq = text === undefined ? -1 : text.indexOf('=');
    if (eq <= 0) fail(`${flag} '${text}': expected NAME=VALUE`);
    return [text.slice(0, eq), text.slice(eq + 1)];
  };
  const count = (text, flag, min) => {
    const n = Number(text);
    if (!Number.isInteger(n) || n < min) fail(`${flag} '${text}': expected an integer >= ${min}`);
    return n;
  };
  for (let i = 0; i < argv.length; ++i) {
    const a = argv[i];
    if (a === '--input') {
      const [name, file] = pair(argv[++i], a);
      args.inputs[name] = file;
    } else if (a === '--free-dim') {
      const [name, value] = pair(argv[++i], a);
      args.freeDims[name] = count(value, a, 1);
    } else if (a === '--iterations') {
      args.iterations = count(argv[++i], a, 1);
    } else if (a === '--warmup') {
      args.warmup = count(argv[++i], a, 0);
    } else if (a === '--threads') {
      args.threads = count(argv[++i], a, 1);
    } else if (a === '--report') {
      args.report = argv[++i];
    } else if (a === '--output-dir') {
      args.outputDir = argv[++i];
    } else if (a === '--idle') {
      args.idle = true;
    } else if (a.startsWith('--')) {
      fail(`unknown option '${a}'`);
    } else if (args.model === null) {
      args.model = a;
    } else {
      fail(`unexpected argument '${a}'`);
    }
  }
  if (!args.idle && args.model === null) fail('no model given');
  return args;
}

// .npy (versions 1-3, little-endian, C order) <-> ONNX Runtime tensors.
const kNpyTypes = {
  '<f4': ['float32', Float32Array], '<f8': ['float64', Float64Array],
  '<i8': ['int64', BigInt64Array], '<i4': ['int32', Int32Array],
  '|u1': ['uint8', Uint8Array], '|i1': ['int8', Int8Array], '|b1': ['bool', Uint8Array],
};

function readNpy(ort, file) {
  const bytes = fs.readFileSync(file);
  if (bytes.length < 10 || bytes.toString('latin1', 0, 6) !== '\x93NUMPY') fail(`${file}: not a .npy file`);
  const major = bytes[6];
  const headerLen = major === 1 ? bytes.readUInt16LE(8) : bytes.readUInt32LE(8);
  const start = (major === 1 ? 10 : 12) + headerLen;
  const header = bytes.toString('latin1', major === 1 ? 10 : 12, start);
  const descr = /'descr':\s*'([^']+)'/.exec(header);
  const shape = /'shape':\s*\(([^)]*)\)/.exec(header);
  if (!descr || !shape || /'fortran_order':\s*True/.test(header)) fail(`${file}: unsupported header ${header.trim()}`);
  const type = kNpyTypes[descr[1]];
  if (!type) fail(`${file}: unsupported dtype ${descr[1]}`);
  const dims = shape[1].split(',').map((s) => s.trim()).filter((s) => s.length).map(Number);
  const [name, TypedArray] = type;
  const count = dims.reduce((a, b) => a * b, 1);
  const copy = new Uint8Array(count * TypedArray.BYTES_PER_ELEMENT);  // aligned for the typed array
  if (start + copy.length > bytes.length) fail(`${file}: ${count} elements of ${descr[1]} do not fit`);
  copy.set(bytes.subarray(start, start + copy.length));
  const data = name === 'bool' ? Array.from(copy, (v) => v !== 0) : new TypedArray(copy.buffer);
  return new ort.Tensor(name, data, dims);
}

function writeNpy(file, tensor) {
  const descr = Object.keys(kNpyTypes).find((k) => kNpyTypes[k][0] === tensor.type);
  if (!descr) return;  // a type the comparison does not read
  const dims = tensor.dims.length === 1 ? `${tensor.dims[0]},` : tensor.dims.join(', ');
  let header = `{'descr': '${descr}', 'fortran_order': False, 'shape': (${dims}), }`;
  header += ' '.repeat(63 - ((header.length + 10) % 64)) + '\n';
  const prefix = Buffer.alloc(10);
  prefix.write('\x93NUMPY', 0, 'latin1');
  prefix[6] = 1;
  prefix.writeUInt16LE(header.length, 8);
  const data = tensor.data;
  fs.writeFileSync(file, Buffer.concat([prefix, Buffer.from(header, 'latin1'),
                                        Buffer.from(data.buffer, data.byteOffset, data.byteLength)]));
}

// Peak resident set size of this process so far (the parent also measures it from outside).
function vmHwmKib() {
  const m = /VmHWM:\s*(\d+)\s*kB/.exec(fs.readFileSync('/proc/self/status', 'utf8'));
  return m ? Number(m[1]) : null;
}

function writeReport(file, report) {
  if (file) fs.writeFileSync(file, JSON.stringify(report, null, 2) + '\n');
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  let ort;
  try {
    ort = require('onnxruntime-node');
  } catch (e) {
    fail(`cannot load onnxruntime-node (${e.message.split('\n')[0]}); run bench/ort/install.sh`);
  }
  const version = ort.env.versions.node;
  if (args.idle) {
    writeReport(args.report, {ort_version: version, memory: {peak_resident_kib: vmHwmKib()}});
    return;
  }
  const created = process.hrtime.bigint();
  const session = await ort.InferenceSession.create(args.model, {
    executionProviders: ['cpu'],
    intraOpNumThreads: args.threads,
    interOpNumThreads: 1,
    executionMode: 'sequential',
    graphOptimizationLevel: 'all',
    // Fixes the model's symbolic dims to the fed shapes where the binding honours it; 1.30.0's
    // node binding ignores it (a wrong override does not fail), and a copy of the BERT-like
    // encoder with fixed dims ran no faster there.
    freeDimensionOverrides: args.freeDims,
  });
  const loadMs = Number(process.hrtime.bigint() - created) / 1e6;
  const feeds = {};
  for (const name of session.inputNames) {
    if (!(name in args.inputs)) fail(`no --input for the model's input '${name}'`);
    feeds[name] = readNpy(ort, args.inputs[name]);
    delete args.inputs[name];
  }
  const extra = Object.keys(args.inputs);
  if (extra.length) fail(`--input ${extra[0]}: the model has no such input (inputs: ${session.inputNames.join(', ')})`);

  let outputs;
  for (let i = 0; i < args.warmup; ++i) outputs = await session.run(feeds);
  const millis = [];
  for (let i = 0; i < args.iterations; ++i) {
    const start = process.hrtime.bigint();
    outputs = await session.run(feeds);
    millis.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  const sorted = millis.slice().sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)];  // as gec run reports it
  if (args.outputDir) {
    fs.mkdirSync(args.outputDir, {recursive: true});
    for (const name of session.outputNames) {
      writeNpy(path.join(args.outputDir, name.replace(/[/: \\]/g, '_') + '.npy'), outputs[name]);
    }
  }
  console.log(`onnxruntime-node ${version}: latency over ${args.iterations} run(s): min ` +
              `${sorted[0].toFixed(3)} ms, median ${median.toFixed(3)} ms, max ` +
              `${sorted[sorted.length - 1].toFixed(3)} ms; session created in ${loadMs.toFixed(1)} ms`);
  writeReport(args.report, {
    ort_version: version,
    iterations: args.iterations,
    session_create_ms: loadMs,
    latency_ms: {min: sorted[0], median, max: sorted[sorted.length - 1]},
    memory: {peak_resident_kib: vmHwmKib()},
  });
}

main().catch((e) => fail(e.stack || String(e)));

// ONNX Runtime's side of the ONNX conformance count: runs ONNX's backend test cases (a model.onnx
// and test_data_set_*/ of input_K.pb and expected output_K.pb) through ONNX Runtime and prints,
// as `gec onnx-test` does, `PASS name` or `FAIL name: reason` per case, then `N passed, M failed`.
//
//   node bench/ort/onnx_test.js DIR [DIR...] [--list-passed FILE] [--timeout SECONDS]
//
// Each DIR is a case directory or a directory of cases. --list-passed writes the passing case
// names, one per line; --timeout (default 60) bounds each case. Cases run one at a time in a child
// process, so a case that hangs or crashes ONNX Runtime fails alone. Comparison as ONNX's runner
// and gec: |got - want| <= 1e-7 + 1e-3 * |want|, NaN equals NaN, infinities exactly, integers,
// bool and strings exactly; shapes and dtypes must match. Values the binding cannot feed or
// return (sequences, maps, bfloat16, float8, ...) fail with that reason. Session options: CPU
// provider, one intra-op thread, graphOptimizationLevel 'all'. Needs bench/ort/install.sh.
'use strict';

const fs = require('fs');
const path = require('path');

function fail(message) {
  process.stderr.write(`onnx_test.js: ${message}\n`);
  process.exit(2);
}

// The message on one line (its own lines joined), at most 400 characters, as gec reports it.
function oneLine(text) {
  const line = String(text).replace(/\n/g, ' ');
  return line.length > 400 ? line.slice(0, 400) + '...' : line;
}

// Protobuf wire format: a message's fields as [number, wireType, value], where a varint is a
// BigInt, a length-delimited field a Buffer, and a fixed32/fixed64 its 4/8 bytes.
function readVarint(buf, at) {
  let v = 0n;
  for (let shift = 0n; ; shift += 7n) {
    if (at.pos >= buf.length) throw new Error('truncated protobuf');
    const b = buf[at.pos++];
    v |= BigInt(b & 0x7f) << shift;
    if (b < 0x80) return v;
  }
}

function* fields(buf) {
  const at = {pos: 0};
  const take = (n) => {
    if (at.pos + n > buf.length) throw new Error('truncated protobuf');
    return buf.subarray(at.pos, (at.pos += n));
  };
  while (at.pos < buf.length) {
    const key = Number(readVarint(buf, at));
    const wire = key & 7, sizes = {1: 8, 5: 4};
    if (wire === 0) yield [key >> 3, wire, readVarint(buf, at)];
    else if (wire === 2) yield [key >> 3, wire, take(Number(readVarint(buf, at)))];
    else if (wire in sizes) yield [key >> 3, wire, take(sizes[wire])];
    else throw new Error(`unsupported protobuf wire type ${wire}`);
  }
}

// A repeated scalar field's elements, packed (one Buffer) or not (one field per element).
function pushVarints(out, wire, value) {
  if (wire === 0) return out.push(value);
  for (const at = {pos: 0}; at.pos < value.length;) out.push(readVarint(value, at));
}
function pushFixed(out, value, size, read) {
  for (let i = 0; i + size <= value.length; i += size) out.push(read.call(value, i));
}

// onnx.TensorProto.DataType -> [name, typed array of ONNX Runtime's JS API (none: no such type)].
const kTypes = {
  1: ['float32', Float32Array], 2: ['uint8', Uint8Array], 3: ['int8', Int8Array],
  4: ['uint16', Uint16Array], 5: ['int16', Int16Array], 6: ['int32', Int32Array],
  7: ['int64', BigInt64Array], 8: ['string', Array], 9: ['bool', Uint8Array],
  10: ['float16', Uint16Array], 11: ['float64', Float64Array], 12: ['uint32', Uint32Array],
  13: ['uint64', BigUint64Array], 14: ['complex64'], 15: ['complex128'], 16: ['bfloat16'],
  17: ['float8e4m3fn'], 18: ['float8e4m3fnuz'], 19: ['float8e5m2'], 20: ['float8e5m2fnuz'],
  21: ['uint4', Uint8Array], 22: ['int4', Uint8Array], 23: ['float4e2m1'], 24: ['float8e8m0'],
  25: ['uint2'], 26: ['int2'],
};

// onnx.TensorProto -> {kind: 'tensor', type, dims, data} (4-bit types stay packed two per byte).
function decodeTensor(buf) {
  const dims = [], ints = [], floats = [], doubles = [], strings = [];
  let dataType = 0, raw = null;
  for (const [f, wire, v] of fields(buf)) {
    if (f === 1) pushVarints(dims, wire, v);
    else if (f === 2) dataType = Number(v);
    else if (f === 4) pushFixed(floats, v, 4, Buffer.prototype.readFloatLE);
    else if (f === 5 || f === 7 || f === 11) pushVarints(ints, wire, v);  // int32/int64/uint64
    else if (f === 6) strings.push(v.toString('utf8'));
    else if (f === 9) raw = v;
    else if (f === 10) pushFixed(doubles, v, 8, Buffer.prototype.readDoubleLE);
  }
  const shape = dims.map((d) => Number(BigInt.asIntN(64, d)));
  const [type, TypedArray] = kTypes[dataType] || [`data type ${dataType}`];
  if (!TypedArray) throw new Error(`${type} tensors: onnxruntime-node has no such tensor type`);
  if (type === 'string') return {kind: 'tensor', type, dims: shape, data: strings};
  const count = shape.reduce((a, b) => a * b, 1);
  const length = type.endsWith('int4') ? Math.ceil(count / 2) : count;
  let data;
  if (raw !== null) {
    const copy = new Uint8Array(length * TypedArray.BYTES_PER_ELEMENT);  // aligned for the view
    copy.set(raw.subarray(0, copy.length));
    data = new TypedArray(copy.buffer);
  } else if (type === 'float32' || type === 'float64') {
    data = TypedArray.from(type === 'float32' ? floats : doubles);
  } else {
    data = type.endsWith('int64') ? TypedArray.from(ints)
                                  : TypedArray.from(ints, (v) => Number(BigInt.asIntN(32, v)));
  }
  if (data.length !== length) throw new Error(`${data.length} elements for shape [${shape}]`);
  return {kind: 'tensor', type, dims: shape, data};
}

// onnx.SequenceProto / OptionalProto: tensor(s) = 3, sequence(s) = 5, map(s) = 6, optional(s) = 7.
function decodeValue(buf, kind) {
  if (kind === 'tensor') return decodeTensor(buf);
  if (kind !== 'sequence' && kind !== 'optional') return {kind};
  const items = [];
  for (const [f, , v] of fields(buf)) {
    const sub = {3: 'tensor', 5: 'sequence', 6: 'map', 7: 'optional'}[f];
    if (sub) items.push(decodeValue(v, sub));
  }
  return kind === 'sequence' ? {kind, items} : {kind, value: items.length ? items[0] : null};
}

// ModelProto.graph's inputs (less initializers) and outputs as [{name, kind}], the kind from
// TypeProto: tensor_type = 1, sequence_type = 4, map_type = 5, sparse_tensor_type = 8,
// optional_type = 9.
const kKinds = {1: 'tensor', 4: 'sequence', 5: 'map', 8: 'sparse tensor', 9: 'optional'};
function modelSignature(file) {
  const inputs = [], outputs = [], initializers = new Set();
  for (const [f, , graph] of fields(fs.readFileSync(file))) {
    for (const [g, , v] of f === 7 ? fields(graph) : []) {
      if (g === 5) {
        for (const [t, , x] of fields(v)) if (t === 8) initializers.add(x.toString('utf8'));
      } else if (g === 11 || g === 12) {
        const info = {name: '', kind: 'tensor'};
        for (const [t, , x] of fields(v)) {
          if (t === 1) info.name = x.toString('utf8');
          for (const [k] of t === 2 ? fields(x) : []) info.kind = kKinds[k] || info.kind;
        }
        (g === 11 ? inputs : outputs).push(info);
      }
    }
  }
  return {inputs: inputs.filter((i) => !initializers.has(i.name)), outputs};
}

function halfValue(h) {  // IEEE binary16 bits as a number
  const exp = (h >> 10) & 0x1f, mant = h & 0x3ff, sign = h & 0x8000 ? -1 : 1;
  if (exp === 0) return sign * mant * 2 ** -24;
  if (exp === 0x1f) return mant ? NaN : sign * Infinity;
  return sign * (mant + 1024) * 2 ** (exp - 25);
}

function cFixed(x) {  // as C++'s std::to_string(double), which gec's messages use
  if (!Number.isFinite(x)) return Number.isNaN(x) ? 'nan' : x > 0 ? 'inf' : '-inf';
  return Math.abs(x) < 1e21 ? x.toFixed(6) : BigInt(x).toString() + '.000000';
}

// "" when ONNX Runtime's tensor `got` matches the expected tensor `want`, else how it differs.
function compare(got, want) {
  if (got === null || got === undefined) return 'no value, expected a tensor';
  const dims = Array.from(got.dims, Number);
  if (dims.join() !== want.dims.join()) return `shape [${dims}], expected [${want.dims}]`;
  if (got.type !== want.type) return `dtype ${got.type}, expected ${want.type}`;
  const a = got.data, b = want.data, n = want.dims.reduce((x, y) => x * y, 1);
  if (a.length !== b.length) return 'byte size differs';
  if (want.type === 'float32' || want.type === 'float64' || want.type === 'float16') {
    const value = want.type === 'float16' ? halfValue : Number;
    for (let i = 0; i < n; ++i) {
      const x = value(a[i]), y = value(b[i]);
      if (Number.isNaN(x) && Number.isNaN(y)) continue;
      if ((!Number.isFinite(x) || !Number.isFinite(y)) && x === y) continue;
      if (!Number.isFinite(y) || !(Math.abs(x - y) <= 1e-7 + 1e-3 * Math.abs(y))) {
        return `element ${i} is ${cFixed(x)}, expected ${cFixed(y)}`;
      }
    }
    return '';
  }
  // 4-bit types are packed two per byte, low nibble first (an odd count leaves a pad nibble).
  const element = want.type.endsWith('int4') ? (d, i) => (d[i >> 1] >> (4 * (i & 1))) & 0xf
                                             : (d, i) => (typeof d[i] === 'boolean' ? +d[i] : d[i]);
  for (let i = 0; i < n; ++i) if (element(a, i) !== element(b, i)) return 'values differ';
  return '';
}

// One case: "" when it passes, else why not.
async function runCase(ort, dir) {
  const sets = fs.readdirSync(dir, {withFileTypes: true}).map((e) => e.isDirectory() && e.name)
      .filter((name) => name && name.startsWith('test_data_set_')).sort();
  if (!sets.length) return 'no test_data_set_* directory';
  const model = path.join(dir, 'model.onnx');
  const graph = modelSignature(model);
  // <prefix>_0.pb, <prefix>_1.pb, ... read as the model's K-th input/output type says.
  const read = (set, prefix, values) => {
    const out = [];
    for (let i = 0, file; fs.existsSync((file = path.join(dir, set, `${prefix}_${i}.pb`))); ++i) {
      const kind = i < values.length ? values[i].kind : 'tensor';
      if (kind === 'sparse tensor') throw new Error(`sparse tensors: not supported here`);
      out.push(decodeValue(fs.readFileSync(file), kind));
    }
    return out;
  };
  const data = sets.map((s) => ({inputs: read(s, 'input', graph.inputs),
                                 outputs: read(s, 'output', graph.outputs)}));
  if (data[0].inputs.length !== graph.inputs.length) {
    return `the model has ${graph.inputs.length} inputs, the data set ${data[0].inputs.length}`;
  }
  const unwrap = (v) => (v.kind === 'optional' ? v.value : v);  // an optional is its value
  for (const v of data.flatMap((d) => d.inputs).map(unwrap)) {  // the binding feeds tensors only
    if (v === null) return 'empty optional inputs: onnxruntime-node cannot feed them';
    if (v.kind !== 'tensor') return `${v.kind} inputs: onnxruntime-node cannot feed them`;
  }
  let session;
  try {
    session = await ort.InferenceSession.create(model, {
      executionProviders: ['cpu'], intraOpNumThreads: 1, interOpNumThreads: 1,
      executionMode: 'sequential', graphOptimizationLevel: 'all', logSeverityLevel: 4,
    });
  } catch (e) {
    return 'create: ' + oneLine(e.message);
  }
  try {
    for (const {inputs, outputs} of data) {
      const feeds = {};
      inputs.map(unwrap).forEach((v, i) => {
        feeds[graph.inputs[i].name] = new ort.Tensor(v.type, v.data, v.dims);
      });
      const other = outputs.map(unwrap).find((v) => v !== null && v.kind !== 'tensor');
      const cannot = other && `${other.kind} outputs: onnxruntime-node cannot return them`;
      let got;
      try {
        got = await session.run(feeds);
      } catch (e) {
        return other && /Non tensor type/.test(e.message) ? cannot : 'run: ' + oneLine(e.message);
      }
      const names = session.outputNames;
      if (names.length !== outputs.length) {
        return `${names.length} outputs, expected ${outputs.length}`;
      }
      for (let i = 0; i < names.length; ++i) {
        const want = unwrap(outputs[i]), value = got[names[i]];
        const diff = want === null ? (value == null ? '' : 'a value, expected none')
                                   : want.kind !== 'tensor' ? cannot : compare(value, want);
        if (diff) return `output ${i}: ${diff}`;
      }
    }
    return '';
  } finally {
    await session.release();
  }
}

function loadOrt() {
  try {
    return require('onnxruntime-node');
  } catch (e) {
    fail(`cannot load onnxruntime-node (${e.message.split('\n')[0]}); run bench/ort/install.sh`);
  }
}

// The child process: runs the cases the parent sends, one message each way per case.
function worker() {
  const ort = loadOrt();
  ort.env.logLevel = 'fatal';
  process.on('message', ({dir}) => {
    runCase(ort, dir).catch((e) => oneLine((e && e.message) || e))
        .then((why) => process.send({why}));
  });
}

async function main(argv) {
  const dirs = [];
  let listPassed = null, timeout = 60;
  for (let i = 0; i < argv.length; ++i) {
    if (argv[i] === '--list-passed') listPassed = argv[++i];
    else if (argv[i] === '--timeout') timeout = Number(argv[++i]);
    else if (argv[i].startsWith('--')) fail(`unknown option '${argv[i]}'`);
    else dirs.push(argv[i]);
  }
  if (!dirs.length) fail('usage: onnx_test.js DIR [DIR...] [--list-passed FILE] [--timeout S]');
  if (listPassed === undefined) fail('--list-passed needs a FILE');
  if (!(timeout > 0)) fail('--timeout needs a positive number of seconds');
  const isCase = (d) => fs.existsSync(path.join(d, 'model.onnx'));
  const cases = [];
  for (const d of dirs) {
    if (!fs.existsSync(d) || !fs.statSync(d).isDirectory()) fail(`'${d}' is not a directory`);
    if (isCase(d)) cases.push(d);
    else cases.push(...fs.readdirSync(d).map((e) => path.join(d, e)).filter(isCase));
  }
  const key = (p) => p.split(path.sep).join('\0');  // gec's order: path component by component
  cases.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
  if (!cases.length) fail('no test case (a directory with model.onnx) found');
  loadOrt();  // fails here, not once per case in the child

  let child = null, stderr = '';  // the child's stderr while on a case: the reason if it dies
  const runInChild = (dir) => new Promise((resolve) => {
    if (!child) {
      child = require('child_process').fork(__filename, ['--worker'],
                                            {stdio: ['ignore', 'ignore', 'pipe', 'ipc']});
      child.stderr.setEncoding('utf8').on('data', (text) => { stderr += text; });
    }
    const current = child;
    stderr = '';
    const finish = (why, kill) => {
      clearTimeout(timer);
      current.removeAllListeners('message').removeAllListeners('close');
      if (kill) {
        current.kill('SIGKILL');
        child = null;
      }
      resolve(why);
    };
    const timer = setTimeout(() => finish(`timeout after ${timeout} s`, true), timeout * 1000);
    current.on('message', (m) => finish(m.why, false));
    current.on('close', (code, signal) => {
      const lines = stderr.split('\n').map((l) => l.trim()).filter((l) => l);
      const said = lines.find((l) => /^FATAL ERROR|^terminate called|Error:/.test(l)) ||
                   lines.pop();
      const how = `crashed (${signal || 'exit code ' + code})`;
      finish(said ? `${how}: ${oneLine(said)}` : how, true);
    });
    current.send({dir: path.resolve(dir)});
  });

  const passed = [];
  let failed = 0;
  for (let i = 0; i < cases.length; ++i) {
    const name = path.basename(cases[i]);
    if (process.stderr.isTTY) {  // one line that rewrites itself, as gec's progress
      process.stderr.write(`\r\x1b[Kcase ${i + 1}/${cases.length} (${passed.length} passed, ` +
                           `${failed} failed): ${name}...`);
    }
    const why = await runInChild(cases[i]);
    if (process.stderr.isTTY) process.stderr.write('\r\x1b[K');
    if (why === '') passed.push(name);
    else ++failed;
    process.stdout.write(why === '' ? `PASS ${name}\n` : `FAIL ${name}: ${why}\n`);
  }
  if (child) child.disconnect();
  console.log(`${passed.length} passed, ${failed} failed`);
  if (listPassed) fs.writeFileSync(listPassed, passed.map((n) => n + '\n').join(''));
  process.exitCode = failed ? 1 : 0;  // as gec onnx-test
}

if (process.argv[2] === '--worker') worker();
else main(process.argv.slice(2)).catch((e) => fail(e.stack || String(e)));

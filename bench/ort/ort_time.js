// ort_time.js - time ONNX Runtime's CPU execution provider on one model:
//   node ort_time.js MODEL.onnx INPUT.npy THREADS REPEAT OUT.npy
// Feeds INPUT.npy (float32, C order) to the model's first input, runs it
// REPEAT times after a warm-up, prints one JSON line (median, min, max in
// ms) and writes the first output to OUT.npy for the caller to compare.
// onnxruntime-node comes from npm (bench/ort/package.json).
'use strict';
const fs = require('fs');
const ort = require('onnxruntime-node');

function readNpy(path) {
  const buf = fs.readFileSync(path);
  if (buf.toString('latin1', 1, 6) !== 'NUMPY') throw new Error(`${path}: not .npy`);
  const major = buf[6];
  const hlen = major === 1 ? buf.readUInt16LE(8) : buf.readUInt32LE(8);
  const start = (major === 1 ? 10 : 12) + hlen;
  const header = buf.toString('latin1', major === 1 ? 10 : 12, start);
  if (!header.includes("'<f4'") || header.includes("'fortran_order': True"))
    throw new Error(`${path}: only little-endian float32 in C order`);
  const shape = header.match(/'shape': \(([^)]*)\)/)[1].split(',')
    .map((s) => s.trim()).filter((s) => s).map(Number);
  const data = new Float32Array(buf.buffer.slice(buf.byteOffset + start,
                                                 buf.byteOffset + buf.length));
  return { shape, data };
}

function writeNpy(path, shape, data) {
  let header = `{'descr': '<f4', 'fortran_order': False, 'shape': (${shape.join(', ')}${shape.length === 1 ? ',' : ''}), }`;
  const total = 10 + header.length + 1;
  header += ' '.repeat((64 - (total % 64)) % 64) + '\n';
  const head = Buffer.alloc(10);
  head.write('\x93NUMPY', 0, 'latin1');
  head[6] = 1; head[7] = 0;
  head.writeUInt16LE(header.length, 8);
  fs.writeFileSync(path, Buffer.concat([head, Buffer.from(header, 'latin1'),
    Buffer.from(data.buffer, data.byteOffset, data.byteLength)]));
}

async function main() {
  const [model, input, threads, repeat, out] = process.argv.slice(2);
  const session = await ort.InferenceSession.create(model, {
    intraOpNumThreads: Number(threads), interOpNumThreads: 1,
    executionMode: 'sequential', graphOptimizationLevel: 'all',
  });
  const x = readNpy(input);
  const feeds = { [session.inputNames[0]]: new ort.Tensor('float32', x.data, x.shape) };
  let result;
  for (let i = 0; i < 10; i++) result = await session.run(feeds);
  const n = Number(repeat), t = [];
  for (let i = 0; i < n; i++) {
    const t0 = process.hrtime.bigint();
    result = await session.run(feeds);
    t.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  t.sort((a, b) => a - b);
  const y = result[session.outputNames[0]];
  writeNpy(out, y.dims, y.data);
  console.log(JSON.stringify({ median: t[Math.floor(n / 2)], min: t[0], max: t[n - 1] }));
}

main().catch((e) => { console.error(`ort_time: ${e.message}`); process.exit(1); });

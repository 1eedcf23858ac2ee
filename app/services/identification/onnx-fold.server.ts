/**
 * The text models' graphs made shorter before onnxruntime loads them, with the same arithmetic.
 *
 * PP-OCRv4's recogniser and detector (both on PP-LCNetV3) end 28 of the recogniser's 38
 * convolutions, and 24 of the detector's 62, with a learnable affine block, a hard-swish spelt out in
 * four operators and a second affine block:
 *
 *   x = a * conv(u) + b;   y = c * (x * clip(x + 3, 0, 6) / 6) + d
 *
 * onnxruntime runs each of those eight operators as a pass over the whole tensor, and reorders the
 * tensor out of and back into its blocked layout around them: they took about 55% of a line's time,
 * the convolutions the rest. Folded here, a block is
 *
 *   x' = conv'(u) (= c * x: a * c and c * b moved into the convolution's weights and bias)
 *   y  = x' * HardSigmoid(x'; alpha = 1 / (6c), beta = 0.5) + d
 *
 * d moves into the bias of a following 1 x 1 convolution, which has no padding for it to differ at
 * (12 of the recogniser's 28 blocks, 10 of the detector's 24); elsewhere it is added by a depthwise
 * 1 x 1 convolution, which onnxruntime keeps in its blocked layout where an addition would be
 * reordered out of it and back. A line of 320 columns took 15.1 ms and takes 10.6, its probabilities
 * the same within 1e-4 (float rounding); the detector's 512 x 512 map took 38-41 ms and takes 30-32,
 * and finds the same lines on every reference of both benchmark sets. Only the graph's nodes and the
 * weights they name change; a block that is not exactly this pattern is left as it is.
 *
 * The model is a protocol-buffer file (onnx.proto). The few messages read here are read field by
 * field; every other field is copied through as its bytes.
 */

// ------------------------------------------------------------------ protocol buffers

interface Field {
  no: number;
  /** wire type: 0 varint, 1 fixed 64, 2 bytes, 5 fixed 32 */
  wire: number;
  /** the varint's value, or the bytes of a fixed or length-delimited field */
  value: bigint | Uint8Array;
}

function readVarint(buf: Uint8Array, at: number): [bigint, number] {
  // numbers while they are exact (7 bytes, 49 bits: every length and most values), then BigInt
  let result = 0;
  let scale = 1;
  for (;;) {
    if (at >= buf.length) throw new Error("onnx: truncated varint");
    const byte = buf[at++];
    result += (byte & 0x7f) * scale;
    if (byte < 0x80) return [BigInt(result), at];
    scale *= 128;
    if (scale === 2 ** 49) return readBigVarint(buf, at, BigInt(result), 49n);
  }
}

function readBigVarint(buf: Uint8Array, at: number, sofar: bigint, shift: bigint): [bigint, number] {
  let result = sofar;
  for (;;) {
    if (at >= buf.length) throw new Error("onnx: truncated varint");
    const byte = buf[at++];
    result |= BigInt(byte & 0x7f) << shift;
    if (byte < 0x80) return [result, at];
    shift += 7n;
  }
}

function fieldsOf(buf: Uint8Array): Field[] {
  const out: Field[] = [];
  let at = 0;
  while (at < buf.length) {
    const [key, next] = readVarint(buf, at);
    at = next;
    const no = Number(key >> 3n);
    const wire = Number(key & 7n);
    if (wire === 0) {
      const [v, after] = readVarint(buf, at);
      out.push({ no, wire, value: v });
      at = after;
    } else if (wire === 2) {
      const [len, after] = readVarint(buf, at);
      const end = after + Number(len);
      if (end > buf.length) throw new Error("onnx: truncated field");
      out.push({ no, wire, value: buf.subarray(after, end) });
      at = end;
    } else if (wire === 1 || wire === 5) {
      const end = at + (wire === 1 ? 8 : 4);
      out.push({ no, wire, value: buf.subarray(at, end) });
      at = end;
    } else {
      throw new Error(`onnx: wire type ${wire}`);
    }
  }
  return out;
}

function varintSize(v: bigint): number {
  let n = v < 0n ? v + (1n << 64n) : v;
  let size = 1;
  while (n >= 0x80n) {
    n >>= 7n;
    size++;
  }
  return size;
}

function writeVarint(out: Uint8Array, at: number, v: bigint | number): number {
  if (typeof v === "number" && v >= 0 && v < 2 ** 49) {
    while (v >= 0x80) {
      out[at++] = (v % 128) | 0x80;
      v = Math.floor(v / 128);
    }
    out[at++] = v;
    return at;
  }
  let n = BigInt(v);
  if (n < 0n) n += 1n << 64n;
  while (n >= 0x80n) {
    out[at++] = Number(n & 0x7fn) | 0x80;
    n >>= 7n;
  }
  out[at++] = Number(n);
  return at;
}

const numberSize = (v: number) => (v < 0x80 ? 1 : v < 0x4000 ? 2 : v < 0x200000 ? 3 : v < 0x10000000 ? 4 : varintSize(BigInt(v)));

function encodeFields(fields: readonly Field[]): Uint8Array {
  let size = 0;
  for (const f of fields) {
    size += numberSize(f.no * 8 + f.wire);
    if (f.wire === 0) size += varintSize(f.value as bigint);
    else {
      const length = (f.value as Uint8Array).length;
      size += length + (f.wire === 2 ? numberSize(length) : 0);
    }
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const f of fields) {
    at = writeVarint(out, at, f.no * 8 + f.wire);
    if (f.wire === 0) at = writeVarint(out, at, f.value as bigint);
    else {
      const bytes = f.value as Uint8Array;
      if (f.wire === 2) at = writeVarint(out, at, bytes.length);
      out.set(bytes, at);
      at += bytes.length;
    }
  }
  return out;
}

const text = new TextDecoder();
const utf8 = new TextEncoder();
const bytesOf = (f: Field) => f.value as Uint8Array;
const stringsOf = (fields: Field[], no: number) => fields.filter((f) => f.no === no && f.wire === 2).map((f) => text.decode(bytesOf(f)));
const str = (no: number, s: string): Field => ({ no, wire: 2, value: utf8.encode(s) });

// ------------------------------------------------------------------ onnx messages

// NodeProto: input 1, output 2, name 3, op_type 4, attribute 5. AttributeProto: name 1, f 2, i 3,
// t 5, ints 8, type 20. TensorProto: dims 1, data_type 2, float_data 4, name 8, raw_data 9.
// GraphProto: node 1. ModelProto: graph 7.
const FLOAT = 1; // TensorProto.DataType.FLOAT
const ATTR_FLOAT = 1;
const ATTR_INT = 2;
const ATTR_TENSOR = 4;
const ATTR_INTS = 7;

interface Node {
  op: string;
  inputs: string[];
  outputs: string[];
  fields: Field[];
}

function nodeOf(bytes: Uint8Array): Node {
  const fields = fieldsOf(bytes);
  return { op: stringsOf(fields, 4)[0] ?? "", inputs: stringsOf(fields, 1), outputs: stringsOf(fields, 2), fields };
}

function attribute(node: Node, name: string): Field[] | null {
  for (const f of node.fields) {
    if (f.no !== 5 || f.wire !== 2) continue;
    const attr = fieldsOf(bytesOf(f));
    if (stringsOf(attr, 1)[0] === name) return attr;
  }
  return null;
}

function floatAttribute(node: Node, name: string): number | null {
  const f = attribute(node, name)?.find((a) => a.no === 2 && a.wire === 5);
  return f ? new DataView(bytesOf(f).buffer, bytesOf(f).byteOffset, 4).getFloat32(0, true) : null;
}

function intsAttribute(node: Node, name: string): number[] | null {
  const attr = attribute(node, name);
  if (!attr) return null;
  const out: number[] = [];
  for (const f of attr) {
    if (f.no === 3 && f.wire === 0) out.push(Number(f.value));
    if (f.no === 8 && f.wire === 0) out.push(Number(f.value));
    if (f.no === 8 && f.wire === 2) {
      const packed = bytesOf(f);
      for (let at = 0; at < packed.length; ) {
        const [v, next] = readVarint(packed, at);
        out.push(Number(v));
        at = next;
      }
    }
  }
  return out;
}

function encodeNode(op: string, inputs: string[], outputs: string[], name: string, floats: Record<string, number> = {}, ints: Record<string, number | number[]> = {}): Node {
  const fields: Field[] = [...inputs.map((i) => str(1, i)), ...outputs.map((o) => str(2, o)), str(3, name), str(4, op)];
  for (const [key, v] of Object.entries(floats)) {
    const f = new Uint8Array(4);
    new DataView(f.buffer).setFloat32(0, v, true);
    fields.push({ no: 5, wire: 2, value: encodeFields([str(1, key), { no: 2, wire: 5, value: f }, { no: 20, wire: 0, value: BigInt(ATTR_FLOAT) }]) });
  }
  for (const [key, v] of Object.entries(ints)) {
    const values = typeof v === "number" ? [{ no: 3, wire: 0, value: BigInt(v) }] : v.map((x): Field => ({ no: 8, wire: 0, value: BigInt(x) }));
    fields.push({ no: 5, wire: 2, value: encodeFields([str(1, key), ...values, { no: 20, wire: 0, value: BigInt(typeof v === "number" ? ATTR_INT : ATTR_INTS) }]) });
  }
  return { op, inputs, outputs, fields };
}

function mapFloats(values: Float32Array, f: (v: number, i: number) => number): Float32Array {
  const out = new Float32Array(values.length);
  for (let i = 0; i < values.length; i++) out[i] = f(values[i], i);
  return out;
}

/** A float tensor held by a Constant node: its shape and values (a copy). */
interface Weights {
  dims: number[];
  values: Float32Array;
}

function constantTensor(node: Node): Weights | null {
  if (node.op !== "Constant") return null;
  const t = attribute(node, "value")?.find((a) => a.no === 5 && a.wire === 2);
  if (!t) return null;
  const tensor = fieldsOf(bytesOf(t));
  if (tensor.some((f) => f.no === 2 && f.wire === 0 && Number(f.value) !== FLOAT)) return null;
  const dims: number[] = [];
  for (const f of tensor) if (f.no === 1 && f.wire === 0) dims.push(Number(f.value));
  const raw = tensor.find((f) => f.no === 9 && f.wire === 2);
  if (!raw || tensor.some((f) => f.no === 4)) return null;
  const bytes = bytesOf(raw);
  const count = dims.reduce((a, b) => a * b, 1);
  if (bytes.length !== count * 4) return null;
  const values = new Float32Array(count);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
  for (let i = 0; i < count; i++) values[i] = view.getFloat32(i * 4, true);
  return { dims, values };
}

function constantNode(name: string, w: Weights): Node {
  const raw = new Uint8Array(w.values.length * 4);
  const view = new DataView(raw.buffer);
  w.values.forEach((v, i) => view.setFloat32(i * 4, v, true));
  const tensor = encodeFields([
    ...w.dims.map((d): Field => ({ no: 1, wire: 0, value: BigInt(d) })),
    { no: 2, wire: 0, value: BigInt(FLOAT) },
    str(8, name),
    { no: 9, wire: 2, value: raw },
  ]);
  const attr = encodeFields([str(1, "value"), { no: 5, wire: 2, value: tensor }, { no: 20, wire: 0, value: BigInt(ATTR_TENSOR) }]);
  return { op: "Constant", inputs: [], outputs: [name], fields: [str(2, name), str(3, name), str(4, "Constant"), { no: 5, wire: 2, value: attr }] };
}

// ------------------------------------------------------------------ the fold

class Graph {
  nodes: (Node | null)[];
  private producer = new Map<string, number>();
  private users = new Map<string, number[]>();

  constructor(nodes: Node[]) {
    this.nodes = nodes;
    this.index();
  }

  index(): void {
    this.producer.clear();
    this.users.clear();
    this.nodes.forEach((n, i) => {
      if (!n) return;
      for (const o of n.outputs) this.producer.set(o, i);
      for (const input of n.inputs) this.users.set(input, [...(this.users.get(input) ?? []), i]);
    });
  }

  consumers(name: string): Node[] {
    return (this.users.get(name) ?? []).map((i) => this.nodes[i]).filter((n): n is Node => !!n);
  }

  /** The only node reading `name`, when it is an `op`. */
  onlyConsumer(name: string, op: string): Node | null {
    const users = this.consumers(name);
    return users.length === 1 && users[0].op === op ? users[0] : null;
  }

  constant(name: string): Weights | null {
    const i = this.producer.get(name);
    return i === undefined ? null : constantTensor(this.nodes[i]!);
  }

  /** The value of a one-element constant. */
  scalar(name: string): number | null {
    const w = this.constant(name);
    return w && w.values.length === 1 ? w.values[0] : null;
  }

  /** For a binary node reading `name`, its other input when that is a one-element constant. */
  otherScalar(node: Node, name: string): number | null {
    if (node.inputs.length !== 2) return null;
    const other = node.inputs[0] === name ? node.inputs[1] : node.inputs[1] === name ? node.inputs[0] : null;
    return other === null ? null : this.scalar(other);
  }

  setConstant(name: string, w: Weights): void {
    const i = this.producer.get(name);
    if (i === undefined) throw new Error(`onnx: no constant ${name}`);
    this.nodes[i] = constantNode(name, w);
  }

  replace(node: Node, by: Node | null): void {
    const i = this.nodes.indexOf(node);
    if (i >= 0) this.nodes[i] = by;
  }
}

interface Block {
  /** the nodes from the first affine block to the second's multiplication by c */
  spelt: Node[];
  a: number;
  b: number;
  c: number;
  d: number;
  /** the output of the multiplication by c, which the second block's addition of d reads */
  scaled: string;
  /** the second block's addition of d, its output the block's */
  shift: Node;
}

/** A Clip to [0, 6]: its bounds attributes (opset 9) or constant inputs (opset 11 on). */
function clipsToSix(g: Graph, clip: Node): boolean {
  if (clip.inputs.length === 1) return floatAttribute(clip, "min") === 0 && floatAttribute(clip, "max") === 6;
  return clip.inputs.length === 3 && g.scalar(clip.inputs[1]) === 0 && g.scalar(clip.inputs[2]) === 6;
}

/** The pattern conv -> (x a, + b) -> hard-swish -> (x c) -> + d, or null. */
function blockAt(g: Graph, conv: Node): Block | null {
  const t0 = conv.outputs[0];
  const mulA = g.onlyConsumer(t0, "Mul");
  const a = mulA && g.otherScalar(mulA, t0);
  if (!mulA || a === null) return null;
  const addB = g.onlyConsumer(mulA.outputs[0], "Add");
  const b = addB && g.otherScalar(addB, mulA.outputs[0]);
  if (!addB || b === null) return null;
  const x = addB.outputs[0];
  const users = g.consumers(x);
  const add3 = users.find((n) => n.op === "Add");
  const mulX = users.find((n) => n.op === "Mul");
  if (users.length !== 2 || !add3 || !mulX || g.otherScalar(add3, x) !== 3) return null;
  const clip = g.onlyConsumer(add3.outputs[0], "Clip");
  if (!clip || !clipsToSix(g, clip)) return null;
  if (!(mulX.inputs.includes(clip.outputs[0]) && g.consumers(clip.outputs[0]).length === 1)) return null;
  const div = g.onlyConsumer(mulX.outputs[0], "Div");
  if (!div || div.inputs[0] !== mulX.outputs[0] || g.scalar(div.inputs[1]) !== 6) return null;
  const mulC = g.onlyConsumer(div.outputs[0], "Mul");
  const c = mulC && g.otherScalar(mulC, div.outputs[0]);
  if (!mulC || c === null || c === 0) return null;
  const addD = g.onlyConsumer(mulC.outputs[0], "Add");
  const d = addD && g.otherScalar(addD, mulC.outputs[0]);
  if (!addD || d === null) return null;
  return { spelt: [mulA, addB, add3, clip, mulX, div, mulC], a, b, c, d, scaled: mulC.outputs[0], shift: addD };
}

/** A convolution's weights and bias (a zero bias when it has none), when no other node reads them. */
function convWeights(g: Graph, conv: Node): { w: Weights; bias: Weights } | null {
  if (conv.inputs.slice(1).some((name) => g.consumers(name).length !== 1)) return null;
  const w = g.constant(conv.inputs[1]);
  if (!w || w.dims.length !== 4) return null;
  const bias = conv.inputs[2] ? g.constant(conv.inputs[2]) : { dims: [w.dims[0]], values: new Float32Array(w.dims[0]) };
  return bias && bias.values.length === w.dims[0] ? { w, bias } : null;
}

/** A 1 x 1 convolution without padding, stride or groups reading `input` (its weights `w`): d can move into its bias. */
function pointwise(conv: Node, input: string, w: Weights): boolean {
  if (conv.op !== "Conv" || conv.inputs[0] !== input || conv.inputs.slice(1).includes(input)) return false;
  const k = intsAttribute(conv, "kernel_shape");
  const pads = intsAttribute(conv, "pads") ?? [0, 0, 0, 0];
  const group = intsAttribute(conv, "group")?.[0] ?? 1;
  return w.dims[2] === 1 && w.dims[3] === 1 && (!k || k.every((v) => v === 1)) && pads.every((p) => p === 0) && group === 1 && !attribute(conv, "auto_pad");
}

export interface FoldReport {
  /** blocks folded into convolution, HardSigmoid and Mul */
  blocks: number;
  /** of them, blocks whose d moved into the next convolution's bias */
  shifts: number;
}

/**
 * The model with every PP-LCNetV3 block folded (see the top of this file), and how many were. A
 * model without such blocks comes back as it was, byte for byte.
 */
export function foldAffineHardSwish(model: Uint8Array): { model: Uint8Array; report: FoldReport } {
  const top = fieldsOf(model);
  const graphField = top.find((f) => f.no === 7 && f.wire === 2);
  if (!graphField) return { model, report: { blocks: 0, shifts: 0 } };
  const graphFields = fieldsOf(bytesOf(graphField));
  const g = new Graph(graphFields.filter((f) => f.no === 1 && f.wire === 2).map((f) => nodeOf(bytesOf(f))));
  const report: FoldReport = { blocks: 0, shifts: 0 };
  // GraphProto.output 12: ValueInfoProto, its name field 1
  const graphOutputs = new Set(graphFields.filter((f) => f.no === 12 && f.wire === 2).map((f) => stringsOf(fieldsOf(bytesOf(f)), 1)[0]));
  const convs = g.nodes.filter((n): n is Node => n?.op === "Conv");

  for (const conv of convs) {
    const block = blockAt(g, conv);
    const weights = block && convWeights(g, conv);
    if (!block || !weights) continue;
    const { a, b, c, d } = block;
    const { w, bias } = weights;
    g.setConstant(conv.inputs[1], { dims: w.dims, values: mapFloats(w.values, (v) => v * a * c) });
    setBias(g, conv, { dims: [w.dims[0]], values: mapFloats(bias.values, (v) => c * (a * v + b)) });
    const x = conv.outputs[0];
    const gate = `${x}.hard_sigmoid`;
    for (const n of block.spelt) g.replace(n, null);
    const hs = encodeNode("HardSigmoid", [x], [gate], gate, { alpha: 1 / (6 * c), beta: 0.5 });
    const mul = encodeNode("Mul", [x, gate], [block.scaled], `${x}.hard_swish`);
    g.nodes.splice(g.nodes.indexOf(block.shift), 0, hs, mul);
    g.index();
    report.blocks++;

    // d into the following 1 x 1 convolutions
    const out = block.shift.outputs[0];
    const next = g.consumers(out);
    const nextWeights = next.map((n) => {
      const nw = n.op === "Conv" ? convWeights(g, n) : null;
      return nw && pointwise(n, out, nw.w) ? nw : null;
    });
    if (next.length === 0 || nextWeights.some((nw) => !nw)) {
      // a depthwise 1 x 1 convolution adding d: onnxruntime keeps it in its blocked layout
      const channels = w.dims[0];
      const ones = `${out}.shift_weight`, shiftBias = `${out}.shift_bias`;
      g.nodes.unshift(constantNode(ones, { dims: [channels, 1, 1, 1], values: new Float32Array(channels).fill(1) }), constantNode(shiftBias, { dims: [channels], values: new Float32Array(channels).fill(d) }));
      const shiftConv = encodeNode("Conv", [mul.outputs[0], ones, shiftBias], [out], `${out}.shift`, {}, { group: channels, kernel_shape: [1, 1] });
      g.replace(block.shift, shiftConv);
      g.index();
      continue;
    }
    next.forEach((n, k) => {
      const { w: nw, bias: nb } = nextWeights[k]!;
      const inCh = nw.dims[1];
      const values = mapFloats(nb.values, (v, o) => {
        let sum = 0;
        for (let i = 0; i < inCh; i++) sum += nw.values[o * inCh + i];
        return v + d * sum;
      });
      setBias(g, n, { dims: [nw.dims[0]], values });
      n.inputs[0] = mul.outputs[0];
      n.fields = rewriteInputs(n.fields, n.inputs);
    });
    g.replace(block.shift, null);
    g.index();
    report.shifts++;
  }

  if (report.blocks === 0) return { model, report };
  // the constants only the folded operators read (a, b, c, 3, 6, and d where it moved)
  g.nodes = g.nodes.map((n) => (n?.op === "Constant" && n.outputs.every((o) => g.consumers(o).length === 0 && !graphOutputs.has(o)) ? null : n));
  const kept = graphFields.filter((f) => !(f.no === 1 && f.wire === 2));
  const nodes = g.nodes.filter((n): n is Node => !!n).map((n): Field => ({ no: 1, wire: 2, value: encodeFields(n.fields) }));
  // nodes first, in order (a node may only read what an earlier node wrote), then the other fields
  const graph = encodeFields([...nodes, ...kept]);
  const rebuilt = encodeFields(top.map((f) => (f === graphField ? { no: 7, wire: 2, value: graph } : f)));
  return { model: rebuilt, report };
}

/** A convolution's bias set to `values`: its own constant replaced, or a new one given to it. */
function setBias(g: Graph, conv: Node, values: Weights): void {
  if (conv.inputs[2]) {
    g.setConstant(conv.inputs[2], values);
    return;
  }
  const name = `${conv.outputs[0]}.folded_bias`;
  g.nodes.unshift(constantNode(name, values));
  conv.inputs = [conv.inputs[0], conv.inputs[1], name];
  conv.fields = rewriteInputs(conv.fields, conv.inputs);
  g.index();
}

/** A node's fields with its inputs replaced, in place of the old ones. */
function rewriteInputs(fields: Field[], inputs: string[]): Field[] {
  const at = fields.findIndex((f) => f.no === 1);
  const rest = fields.filter((f) => f.no !== 1);
  const insertAt = at < 0 ? 0 : Math.min(at, rest.length);
  return [...rest.slice(0, insertAt), ...inputs.map((i) => str(1, i)), ...rest.slice(insertAt)];
}

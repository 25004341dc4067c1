// Counts newline bytes fast: a 16-lane WebAssembly SIMD loop over buffers that live in its own memory (reads land
// there directly, nothing is copied), so skipping a big file's lines costs about what reading it costs; plain
// Buffer.indexOf per line where WebAssembly SIMD is missing.

/** Counts the newlines in bytes [from, to) of `bytes` (a view of `memory` when one is given). */
export interface NewlineCounter {
  /** Buffers the counter reads fastest (views of its memory): `count` buffers of `size` bytes each. */
  buffers(count: number, size: number): Buffer[];
  count(bytes: Buffer, from: number, to: number): number;
  /** Done with the buffers: their memory serves the next counter (its pages already mapped: ~1.5 ms a read here). */
  release(): void;
}

// Opcodes (WebAssembly core and SIMD); the function below in text form:
//   (func (param $p i32) (param $end i32) (result i32) (local $total i32) (local $stop i32) (local $acc v128)
//     block loop                                  ;; 64 bytes a step, at most 63 steps per lane sum (4 × 63 < 256)
//       br_if 1 (i32.lt_u (i32.sub $end $p) 64)
//       $acc = 0; $stop = $p + (min(63, ($end - $p) >> 6) << 6)
//       loop $acc -= i8x16.eq(v128.load $p + k, splat 10) for k in 0,16,32,48; $p += 64; br_if 0 ($p < $stop) end
//       $total += sum of the lanes of i32x4.extadd_pairwise_u(i16x8.extadd_pairwise_u($acc))
//       br 0
//     end end
//     block loop br_if 1 ($p >= $end); $total += (load8_u $p == 10); $p += 1; br 0 end end
//     $total)
const OP = {
  block: 0x02,
  loop: 0x03,
  end: 0x0b,
  br: 0x0c,
  brIf: 0x0d,
  select: 0x1b,
  get: 0x20,
  set: 0x21,
  load8u: 0x2d,
  i32const: 0x41,
  eq: 0x46,
  ltU: 0x49,
  gtU: 0x4b,
  geU: 0x4f,
  add: 0x6a,
  sub: 0x6b,
  shl: 0x74,
  shrU: 0x76,
  void: 0x40,
} as const;
const simd = (op: number, ...rest: number[]): number[] => [0xfd, op, ...rest];
const V128_LOAD = 0x00;
const V128_CONST = 0x0c;
const I8X16_SPLAT = 0x0f;
const I32X4_EXTRACT = 0x1b;
const I8X16_EQ = 0x23;
const I8X16_SUB = 0x71;
const I16X8_PAIRWISE_U = 0x7d;
const I32X4_PAIRWISE_U = 0x7f;
const [P, END, TOTAL, STOP, ACC] = [0, 1, 2, 3, 4];

function countBody(): number[] {
  const { get, set, i32const, add } = OP;
  const lanes = (offset: number) => [
    get,
    ACC,
    get,
    P,
    ...simd(V128_LOAD, 4, offset),
    i32const,
    10,
    ...simd(I8X16_SPLAT),
    ...simd(I8X16_EQ),
    ...simd(I8X16_SUB),
    set,
    ACC,
  ];
  const laneSum = (lane: number) => [get, TOTAL, get, ACC, ...simd(I32X4_EXTRACT, lane), add, set, TOTAL];
  return [
    ...[OP.block, OP.void, OP.loop, OP.void],
    ...[get, END, get, P, OP.sub, i32const, 0xc0, 0x00, OP.ltU, OP.brIf, 1],
    ...[...simd(V128_CONST, ...new Array<number>(16).fill(0)), set, ACC],
    ...[get, P, i32const, 63, get, END, get, P, OP.sub, i32const, 6, OP.shrU, set, STOP],
    ...[get, STOP, get, STOP, i32const, 63, OP.gtU, OP.select, i32const, 6, OP.shl, add, set, STOP],
    ...[OP.loop, OP.void, ...lanes(0), ...lanes(16), ...lanes(32), ...lanes(48)],
    ...[get, P, i32const, 0xc0, 0x00, add, set, P, get, P, get, STOP, OP.ltU, OP.brIf, 0, OP.end],
    ...[get, ACC, ...simd(I16X8_PAIRWISE_U), ...simd(I32X4_PAIRWISE_U), set, ACC],
    ...laneSum(0),
    ...laneSum(1),
    ...laneSum(2),
    ...laneSum(3),
    ...[OP.br, 0, OP.end, OP.end],
    ...[OP.block, OP.void, OP.loop, OP.void, get, P, get, END, OP.geU, OP.brIf, 1],
    ...[get, TOTAL, get, P, OP.load8u, 0, 0, i32const, 10, OP.eq, add, set, TOTAL],
    ...[get, P, i32const, 1, add, set, P, OP.br, 0, OP.end, OP.end],
    ...[get, TOTAL, OP.end],
  ];
}

const uleb = (n: number): number[] => {
  const out: number[] = [];
  do {
    let byte = n & 0x7f;
    n >>>= 7;
    if (n !== 0) byte |= 0x80;
    out.push(byte);
  } while (n !== 0);
  return out;
};
const section = (id: number, content: number[]): number[] => [id, ...uleb(content.length), ...content];
const name = (text: string): number[] => [text.length, ...Buffer.from(text)];

/** The module's bytes: one function `count(p, end)` and its exported memory of `pages` 64 KB pages. */
function moduleBytes(pages: number): Uint8Array {
  const I32 = 0x7f;
  const V128 = 0x7b;
  // Locals: $total, $stop (i32), $acc (v128).
  const body = [2, 2, I32, 1, V128, ...countBody()];
  return new Uint8Array([
    ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
    ...section(1, [1, 0x60, 2, I32, I32, 1, I32]),
    ...section(3, [1, 0]),
    ...section(5, [1, 0, ...uleb(pages)]),
    ...section(7, [2, ...name('count'), 0, 0, ...name('memory'), 2, 0]),
    ...section(10, [1, ...uleb(body.length), ...body]),
  ]);
}

/** Buffer.indexOf from newline to newline: where WebAssembly SIMD is missing. */
function indexOfCounter(): NewlineCounter {
  return {
    buffers: (count, size) => Array.from({ length: count }, () => Buffer.allocUnsafe(size)),
    release() {},
    count(bytes, from, to) {
      let n = 0;
      for (let at = bytes.indexOf(10, from); at !== -1 && at < to; at = bytes.indexOf(10, at + 1)) n++;
      return n;
    },
  };
}

/** What this file uses of WebAssembly (Node's types leave the global out of this project's lib). */
interface Wasm {
  validate(bytes: Uint8Array): boolean;
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object) => { exports: CountExports };
}
interface CountExports {
  memory: { buffer: ArrayBuffer };
  count: (p: number, end: number) => number;
}

/** The compiled counter by its memory's pages (one size in practice): each read of a big file instantiates it. */
const compiled = new Map<number, object | null>();

function compiledModule(wasm: Wasm | undefined, pages: number): object | null {
  let module = compiled.get(pages);
  if (module === undefined) {
    const bytes = moduleBytes(pages);
    module = wasm?.validate(bytes) ? new wasm.Module(bytes) : null;
    compiled.set(pages, module);
  }
  return module;
}

/** Released instances by their memory's pages, for the next counter: a few, as reads of big files are few at once. */
const idle = new Map<number, CountExports[]>();
const MAX_IDLE = 2;

/** The fastest counter here; its buffers come from one memory, so ask for them once per counter. */
export function newlineCounter(): NewlineCounter {
  const wasm = (globalThis as { WebAssembly?: Wasm }).WebAssembly;
  const fallback = indexOfCounter();
  let exports: CountExports | undefined;
  let pages = 0;
  return {
    buffers(count, size) {
      pages = Math.max(1, Math.ceil((count * size) / 65536));
      const module = compiledModule(wasm, pages);
      if (!wasm || !module) return fallback.buffers(count, size);
      exports = idle.get(pages)?.pop() ?? new wasm.Instance(module).exports;
      const memory = exports.memory.buffer;
      return Array.from({ length: count }, (_, i) => Buffer.from(memory, i * size, size));
    },
    release() {
      if (!exports) return;
      const list = idle.get(pages) ?? [];
      if (list.length < MAX_IDLE) list.push(exports);
      idle.set(pages, list);
      exports = undefined;
    },
    count(bytes, from, to) {
      if (exports?.memory.buffer !== bytes.buffer) return fallback.count(bytes, from, to);
      return exports.count(bytes.byteOffset + from, bytes.byteOffset + to);
    },
  };
}

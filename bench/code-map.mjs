// Bench of get_codebase_map at scale (issue 19, item 4): a repository of ~28,000 files generated under /tmp (20
// packages of TypeScript and Python modules importing each other, and their tests), mapped by the tool's own code
// in a fresh process: cold (empty cache), then warm (cache in $XDG_CACHE_HOME/keel), with time and peak RSS against
// the bounds. KEEL_BENCH_MAP_REPO=<dir> maps a real checkout too (babel: ~28k files). Returns rows of
// [name, value, note, holds].
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { bundleScript, median } from './lib.mjs';

const PACKAGES = 20;
const TS_MODULES = 540;
const PY_MODULES = 360;
const TESTS = 500;
const PER_DIR = 40;

const tsModule = (p, i) => {
  const dep = (i * 7 + 3) % TS_MODULES;
  const other = (i * 13 + 5) % TS_MODULES;
  return `import { Widget${p}x${dep} } from '../g${Math.floor(dep / PER_DIR)}/m${dep}.js';
import { helper${p}x${other} } from '../g${Math.floor(other / PER_DIR)}/m${other}.js';
import type { Options } from '../options.js';

/** Keeps the items of widget ${i} and adds them up. */
export class Widget${p}x${i} {
  private readonly items: number[] = [];
  constructor(private readonly name: string, private readonly options?: Options) {}

  add(value: number): void {
    this.items.push(helper${p}x${other}(value));
  }

  total(): number {
    return this.items.reduce((sum, item) => sum + item, 0);
  }

  describe(): string {
    return \`\${this.name}: \${new Widget${p}x${dep}('inner').total()} \${this.options?.verbose ?? false}\`;
  }
}

/** Scales a value for widget ${i}. */
export function helper${p}x${i}(value: number): number {
  return value * ${(i % 7) + 1};
}

export const LIMIT_${p}_${i} = ${i};
`;
};

const pyModule = (p, i) => {
  const dep = (i * 11 + 1) % PY_MODULES;
  const other = (i * 17 + 2) % PY_MODULES;
  return `from ..g${Math.floor(dep / PER_DIR)}.m${dep} import Store${p}x${dep}
from ..g${Math.floor(other / PER_DIR)}.m${other} import (  # noqa: F401
    scale_${p}_${other},
)


class Store${p}x${i}:
    """Keeps the values of store ${i}."""

    def __init__(self, name):
        self.name = name
        self.values = []

    def add(self, value):
        self.values.append(scale_${p}_${other}(value))

    def total(self):
        return sum(self.values) + Store${p}x${dep}("inner").total()


def scale_${p}_${i}(value):
    """Scales a value for store ${i}."""
    return value * ${(i % 5) + 1}


LIMIT_${p}_${i} = ${i}
`;
};

const tsTest = (p, i) => {
  const a = i % TS_MODULES;
  return `import { Widget${p}x${a} } from '../src/ts/g${Math.floor(a / PER_DIR)}/m${a}.js';

export function testWidget${i}() {
  const widget = new Widget${p}x${a}('test');
  widget.add(${i});
  if (widget.total() < 0) throw new Error('negative');
}
`;
};

const pyTest = (p, i) => {
  const a = i % PY_MODULES;
  return `from py.g${Math.floor(a / PER_DIR)}.m${a} import Store${p}x${a}


def test_store_${i}():
    store = Store${p}x${a}("test")
    store.add(${i})
    assert store.total() >= 0
`;
};

/** Writes the repository: ~28,000 files in directories of at most PER_DIR. */
export async function generateRepository(dir) {
  const files = [];
  for (let p = 0; p < PACKAGES; p++) {
    const base = join(dir, 'packages', `pkg${p}`);
    files.push([join(base, 'package.json'), JSON.stringify({ name: `pkg${p}`, main: 'dist/index.js' })]);
    files.push([join(base, 'src/index.ts'), "export * from './ts/g0/m0.js';\n"]);
    files.push([join(base, 'src/ts/options.ts'), 'export interface Options {\n  verbose?: boolean;\n}\n']);
    for (let i = 0; i < TS_MODULES; i++)
      files.push([join(base, `src/ts/g${Math.floor(i / PER_DIR)}/m${i}.ts`), tsModule(p, i)]);
    for (let i = 0; i < PY_MODULES; i++)
      files.push([join(base, `src/py/g${Math.floor(i / PER_DIR)}/m${i}.py`), pyModule(p, i)]);
    for (let i = 0; i < TESTS; i++) {
      const ts = i % 2 === 0;
      const group = `t${Math.floor(i / PER_DIR)}`;
      files.push([
        join(base, ts ? `test/${group}/w${i}.test.ts` : `tests/${group}/test_s${i}.py`),
        ts ? tsTest(p, i) : pyTest(p, i),
      ]);
    }
  }
  files.push([
    join(dir, 'package.json'),
    JSON.stringify({ name: 'bench-monorepo', private: true, workspaces: ['packages/*'] }),
  ]);
  const dirs = new Set(files.map(([file]) => join(file, '..')));
  for (const d of dirs) await mkdir(d, { recursive: true });
  for (let i = 0; i < files.length; i += 256)
    await Promise.all(files.slice(i, i + 256).map(([file, text]) => writeFile(file, text)));
  return files.length;
}

/** The map in a fresh process (so peak RSS is the map's own): time of index load plus map, and peak RSS. */
function mapInChild(harness, repo, cacheDir) {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [harness, repo, cacheDir], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) reject(new Error(`code map bench failed (exit ${code}): ${err}`));
      else resolvePromise(JSON.parse(out));
    });
  });
}

async function measure(harness, repo, label, runs) {
  const cache = await mkdtemp(join(tmpdir(), 'keel-bench-map-xdg-'));
  const cold = [];
  const warm = [];
  let last;
  try {
    for (let i = 0; i < runs; i++) {
      await rm(join(cache, 'keel'), { recursive: true, force: true });
      last = await mapInChild(harness, repo, join(cache, 'keel'));
      cold.push(last);
      warm.push(await mapInChild(harness, repo, join(cache, 'keel')));
    }
  } finally {
    await rm(cache, { recursive: true, force: true });
  }
  const seconds = (rs, key = 'ms') => `${(median(rs.map((r) => r[key])) / 1000).toFixed(3)} s`;
  // The machine may be shared: CPU time (user + sys, until the answer) says what wall time would on a quiet one.
  const load = `load ${loadavg()[0].toFixed(1)}`;
  const rss = (rs) => `${Math.max(...rs.map((r) => r.rssMb)).toFixed(0)} MiB`;
  const ms = (rs) => median(rs.map((r) => r.ms));
  return [
    [`code map ${label}, cold (${last.files} files)`, seconds(cold), 'target ≤ 5 s', ms(cold) <= 5000],
    [`code map ${label}, cold CPU`, seconds(cold, 'cpuMs'), load],
    [
      `code map ${label}, cold peak RSS`,
      rss(cold),
      'target ≤ 500 MiB',
      Math.max(...cold.map((r) => r.rssMb)) <= 500,
    ],
    [`code map ${label}, warm`, seconds(warm), 'target ≤ 0.5 s', ms(warm) <= 500],
    [`code map ${label}, warm CPU`, seconds(warm, 'cpuMs'), load],
    [`code map ${label}, warm peak RSS`, rss(warm), ''],
  ];
}

export async function codeMapBench({ root, runs = 3 }) {
  // Bundled inside the repository, so its require() finds @ast-grep in node_modules.
  const harness = join(root, 'dist', 'bench-code-map.mjs');
  await bundleScript({
    root,
    contents: `import { loadRepoMap } from './src/code/map-cache.ts';
const [repo, cacheDir] = process.argv.slice(2);
const started = performance.now();
const cpu = process.cpuUsage();
const { files } = await loadRepoMap(repo, { cacheDir }, 2000, '');
const ms = performance.now() - started;
const used = process.cpuUsage(cpu);
const cpuMs = (used.user + used.system) / 1000;
process.stdout.write(JSON.stringify({ ms, cpuMs, files, rssMb: process.resourceUsage().maxRSS / 1024 }));`,
    outfile: harness,
    external: ['@ast-grep/*'],
  });
  const repo = await mkdtemp(join(tmpdir(), 'keel-bench-map-repo-'));
  const rows = [];
  try {
    const files = await generateRepository(repo);
    rows.push(...(await measure(harness, repo, `generated ${files}`, Math.min(runs, 3))));
    const real = process.env.KEEL_BENCH_MAP_REPO;
    if (real) rows.push(...(await measure(harness, real, real.split('/').pop(), 1)));
  } finally {
    await rm(repo, { recursive: true, force: true });
    await rm(harness, { force: true });
  }
  return rows;
}

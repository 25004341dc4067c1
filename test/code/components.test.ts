// Vue and Svelte components in the code index: their <script> blocks read as TypeScript where they stand (lines are
// the file's own), the markup left out; imports of them resolve; edits, renames and barrels leave them alone.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { planBarrel } from '../../src/code/barrel.js';
import { type CodeIndex, loadCodeIndex } from '../../src/code/code-index.js';
import { indexLanguageOf, indexSource, languageOf } from '../../src/code/languages.js';
import { ImportResolver } from '../../src/code/module-graph.js';
import { inspectSymbolTool } from '../../src/tools/inspect-symbol.js';
import { makeWorkspace } from '../tools/helpers.js';

const vue = [
  '<template>',
  '  <button @click="inc">{{ count }} {{ label(count) }}</button>',
  '</template>',
  '',
  '<script setup lang="ts">',
  "import { ref } from 'vue';",
  "import { label } from './format';",
  'const count = ref(0);',
  'function inc() {',
  '  count.value += 1;',
  '}',
  '</script>',
  '',
  '<style scoped>',
  'button { color: red; }',
  '</style>',
  '',
].join('\n');

let dir: string;
let index: CodeIndex;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'keel-components-'));
  const files: Record<string, string> = {
    'src/Counter.vue': vue,
    'src/format.ts': "export function label(n: number): string {\n  return String(n) + ' clicks';\n}\n",
    'src/Card.svelte':
      '<script context="module" lang="ts">\n  export const cards = 3;\n</script>\n<script lang="ts">\n  export let title: string;\n</script>\n<h1>{title}</h1>\n',
    'src/main.ts':
      "import Counter from './Counter.vue';\nimport Card from './Card.svelte';\nexport { Counter, Card };\n",
  };
  for (const [file, content] of Object.entries(files)) {
    await mkdir(path.join(dir, path.dirname(file)), { recursive: true });
    await writeFile(path.join(dir, file), content);
  }
  index = await loadCodeIndex(dir);
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

test('a component is read by the index as TypeScript, and by nothing else', () => {
  expect(indexLanguageOf('src/Counter.vue')?.id).toBe('typescript');
  expect(indexLanguageOf('src/Card.svelte')?.id).toBe('typescript');
  expect(languageOf('src/Counter.vue')).toBeUndefined();
  const masked = indexSource('src/Counter.vue', vue);
  expect(masked.split('\n')).toHaveLength(vue.split('\n').length);
  expect(masked).not.toContain('button');
  expect(masked.split('\n')[8]).toBe('function inc() {');
});

test("an Astro component's frontmatter and scripts are its code, lines kept", () => {
  const astro =
    "---\nimport Layout from '../layouts/Layout.astro';\nconst title = 'Home';\n---\n<Layout title={title}>\n  <h1>{title}</h1>\n</Layout>\n<script>\n  const el = 1;\n</script>\n";
  const masked = indexSource('src/pages/index.astro', astro).split('\n');
  expect(masked[1]).toBe("import Layout from '../layouts/Layout.astro';");
  expect(masked[2]).toBe("const title = 'Home';");
  expect(masked[5]!.trim()).toBe('');
  expect(masked[8]).toBe('  const el = 1;');
  expect(masked).toHaveLength(astro.split('\n').length);
});

test("a component's definitions and imports are indexed at their own lines, and imports of it resolve", () => {
  const counter = index.files.get('src/Counter.vue')!;
  expect(counter.definitions.map((d) => [d.name, d.line])).toEqual([
    ['count', 8],
    ['inc', 9],
  ]);
  expect(counter.imports.map((i) => i.module)).toEqual(['vue', './format']);
  expect(index.files.get('src/Card.svelte')!.definitions.map((d) => d.name)).toEqual(['cards', 'title']);
  const resolver = new ImportResolver(index);
  const main = index.files.get('src/main.ts')!;
  expect(
    main.imports.filter((i) => !i.reexport).map((i) => resolver.resolve('src/main.ts', i, main.language)),
  ).toEqual([['src/Counter.vue'], ['src/Card.svelte']]);
  expect(resolver.resolve('src/Counter.vue', counter.imports[1]!, counter.language)).toEqual([
    'src/format.ts',
  ]);
});

test('a barrel re-exports no component', () => {
  const barrel = planBarrel(index, 'src');
  expect(typeof barrel === 'string' ? barrel : barrel.modules).toEqual(['format.ts']);
});

test("inspect_symbol of a component's function says its markup's uses are not counted", async () => {
  const ws = await makeWorkspace();
  try {
    await ws.write('src/Counter.vue', vue);
    const result = await inspectSymbolTool.execute({ name: 'inc' }, ws.ctx);
    expect(result.output).toContain('function inc at src/Counter.vue:9-11');
    expect(result.output).toContain("uses in components' markup are not counted");
  } finally {
    await ws.cleanup();
  }
});

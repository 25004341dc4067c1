// The layer order of docs/architecture.md, checked: every import in src/ points down or sideways, none closes a cycle.
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { cruise, type ICruiseResult, type IForbiddenRuleType } from 'dependency-cruiser';
import { beforeAll, describe, expect, it } from 'vitest';

/**
 * The layers of src/, top to bottom. A folder may import from its own layer and the layers below it,
 * never from a layer above. docs/architecture.md shows this table (checked below); change both together.
 */
const LAYERS: readonly (readonly string[])[] = [
  ['cli', 'acp', 'api'],
  ['runtime'],
  ['agent', 'ui', 'mcp', 'extend', 'evals'],
  ['tools', 'session', 'plan', 'providers'],
  ['safety', 'exec', 'checkpoint', 'code', 'project', 'git'],
  ['config', 'core'],
];

const root = fileURLToPath(new URL('../..', import.meta.url));

/** One forbidden rule per layer: its folders may not import any folder of a layer above it. */
function layerRules(): IForbiddenRuleType[] {
  return LAYERS.slice(1).map((layer, index) => {
    const above = LAYERS.slice(0, index + 1).flat();
    return {
      name: `layer:${layer.join('|')}`,
      comment: `${layer.join(', ')} may not import ${above.join(', ')}`,
      severity: 'error',
      from: { path: `^src/(${layer.join('|')})/` },
      to: { path: `^src/(${above.join('|')})/` },
    };
  });
}

const cycleRule: IForbiddenRuleType = {
  name: 'no-cycle',
  severity: 'error',
  from: { path: '^src/' },
  to: { circular: true },
};

let result: ICruiseResult;

beforeAll(async () => {
  const cruised = await cruise(
    ['src'],
    {
      // Paths in the result are relative to the repository root, whatever the working directory.
      baseDir: root,
      validate: true,
      skipAnalysisNotInRules: true,
      ruleSet: { forbidden: [...layerRules(), cycleRule] },
      // Count type-only imports too: they are erased at compile time but still couple the modules.
      tsPreCompilationDeps: true,
      tsConfig: { fileName: `${root}tsconfig.json` },
      doNotFollow: { path: 'node_modules' },
      exclude: { path: '\\.test\\.ts$' },
    },
    { extensions: ['.ts', '.js', '.mjs', '.cjs', '.json'] },
  );
  result = cruised.output as ICruiseResult;
}, 60_000);

const folderOf = (file: string): string => file.split('/')[1] ?? file;

/** Each offending import as `from → to (why)`, each cycle as the chain of modules that closes it. */
function violations(prefix: string): string[] {
  return result.summary.violations
    .filter((violation) => violation.rule.name.startsWith(prefix))
    .map((violation) =>
      violation.cycle
        ? `${violation.from} → ${violation.cycle.map((step) => step.name).join(' → ')}`
        : `${violation.from} → ${violation.to} (${folderOf(violation.from)} is below ${folderOf(violation.to)})`,
    );
}

describe('layering of src/', () => {
  it('puts every folder of src/ in the layer table, and no file beside them', () => {
    const unplaced = readdirSync(`${root}src`, { withFileTypes: true })
      .filter((entry) => !entry.isDirectory() || !LAYERS.flat().includes(entry.name))
      .map((entry) => `src/${entry.name}`);
    expect(unplaced, 'entries of src/ in no layer of LAYERS').toEqual([]);
  });

  it('is the layer table docs/architecture.md shows, row for row', () => {
    const doc = readFileSync(`${root}docs/architecture.md`, 'utf8');
    const section = doc.slice(doc.indexOf('## Layers, checked'));
    const table = section.slice(0, section.indexOf('\n\n', section.indexOf('| 1 |')));
    const rows = [...table.matchAll(/^\| \d+ \| (.+) \|$/gm)].map((row) =>
      [...(row[1] ?? '').matchAll(/`(\w+)`/g)].map((folder) => folder[1]),
    );
    expect(rows, "docs/architecture.md's layer table").toEqual(LAYERS.map((layer) => [...layer]));
  });

  it('sees the imports, type-only imports included', () => {
    const tool = result.modules.find((module) => module.source === 'src/tools/tool.ts');
    expect(tool, 'src/tools/tool.ts was not cruised').toBeDefined();
    expect(result.summary.totalCruised).toBeGreaterThan(100);
    const typeOnly = result.modules.flatMap((module) =>
      module.dependencies.filter((dependency) => dependency.dependencyTypes.includes('type-only')),
    );
    expect(typeOnly.length, 'no type-only import was seen').toBeGreaterThan(0);
  });

  it('has no import that points up the layer order', () => {
    expect(violations('layer:'), 'imports against the layer order').toEqual([]);
  });

  it('has no import cycle', () => {
    expect(violations('no-cycle'), 'import cycles').toEqual([]);
  });
});

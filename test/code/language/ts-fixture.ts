// A small TypeScript project reproducing the shapes that broke name-based renames: a barrel re-export with
// importers inside and outside the tsconfig's `include`, a static `create` beside an unrelated object's `create`,
// a local shadowing an import, #private members, parameters and a default export.
export const tsProject: Record<string, string> = {
  'tsconfig.json': JSON.stringify({
    compilerOptions: {
      strict: true,
      target: 'ES2022',
      module: 'ESNext',
      moduleResolution: 'Bundler',
      noEmit: true,
    },
    include: ['src'],
  }),
  'src/greet.ts': "export function greet(name: string): string {\n  return 'hi ' + name;\n}\n",
  'src/index.ts': "export { greet } from './greet';\nexport { Shape, factory } from './shapes';\n",
  'src/app.ts': "import { greet } from './index';\n\nexport const message = greet('you');\n",
  'test/app.test.ts':
    "import { greet } from '../src/index';\n\nexport const checked = greet('test') === 'hi test';\n",
  'src/shapes.ts':
    'export class Shape {\n  static create(): Shape {\n    return new Shape();\n  }\n}\n\nexport const factory = {\n  create(): number {\n    return 1;\n  },\n};\n',
  'src/use-shapes.ts':
    "import { Shape, factory } from './index';\n\nexport const shape = Shape.create();\nexport const made = factory.create();\n",
  'src/shadow.ts':
    "import { greet } from './greet';\n\nexport function local(): number {\n  const greet = 2;\n  return greet;\n}\nexport const said = greet('x');\n",
  'src/counter.ts':
    'export class Counter {\n  #count = 0;\n  inc(): number {\n    this.#count += 1;\n    return this.#count;\n  }\n}\n',
  'src/scale.ts':
    'export function scale(value: number, factor: number): number {\n  return value * factor;\n}\n',
  'src/make.ts': 'export default function makeThing(): number {\n  return 1;\n}\n',
  'src/use-make.ts': "import makeThing from './make';\n\nexport const thing = makeThing();\n",
};

// The code-intelligence tools as one `code` tool: folded in the request, unfolded into the named tool's call.
import { describe, expect, it } from 'vitest';
import { CODE_TOOL, foldCodeTools, unfoldCodeCall } from '../../src/agent/code-tool.js';
import { CODE_TOOLS } from '../../src/agent/tool-offer.js';
import { createRegistry, defaultTools } from '../../src/tools/registry.js';

const all = createRegistry(defaultTools()).specs();
const call = (name: string, input: unknown) => ({
  id: 'c1',
  name,
  input: typeof input === 'string' ? input : JSON.stringify(input),
});

describe('foldCodeTools', () => {
  it('offers one code tool in place of the code-intelligence tools, the others unchanged and in order', () => {
    const folded = foldCodeTools(all);
    const names = folded.map((s) => s.name);
    for (const name of CODE_TOOLS) expect(names).not.toContain(name);
    expect(names.filter((n) => n === CODE_TOOL)).toHaveLength(1);
    const others = all.filter((s) => !(CODE_TOOLS as readonly string[]).includes(s.name));
    expect(folded.filter((s) => s.name !== CODE_TOOL)).toEqual(others);
  });

  it("lists every folded tool as an action and carries each tool's parameters", () => {
    const code = foldCodeTools(all).find((s) => s.name === CODE_TOOL)!;
    const properties = code.inputSchema.properties as Record<string, { enum?: string[] }>;
    expect(properties.action!.enum!.slice().sort()).toEqual([...CODE_TOOLS].sort());
    for (const key of ['name', 'path', 'line', 'column', 'occurrence', 'new_name', 'query', 'paths', 'dir'])
      expect(properties, key).toHaveProperty(key);
    expect(code.inputSchema.required).toEqual(['action']);
  });

  it('costs well under the ten tools it replaces', () => {
    const size = (specs: unknown) => JSON.stringify(specs).length;
    const code = all.filter((s) => (CODE_TOOLS as readonly string[]).includes(s.name));
    expect(size(foldCodeTools(code))).toBeLessThan(size(code) / 2);
  });

  it('leaves a single code tool (a sub-agent allowed one) and no code tool as they are', () => {
    const one = all.filter((s) => s.name === 'search_code' || s.name === 'read_file');
    expect(foldCodeTools(one)).toEqual(one);
  });
});

describe('unfoldCodeCall', () => {
  it.each([
    [
      { action: 'rename_symbol', name: 'a', new_name: 'b', path: 'x.ts' },
      'rename_symbol',
      { name: 'a', new_name: 'b', path: 'x.ts' },
    ],
    [{ action: 'get_codebase_map' }, 'get_codebase_map', {}],
  ])('%j runs as %s with the other arguments', (input, name, args) => {
    const unfolded = unfoldCodeCall(call(CODE_TOOL, input));
    expect(unfolded.name).toBe(name);
    expect(JSON.parse(unfolded.input)).toEqual(args);
    expect(unfolded.id).toBe('c1');
    expect(unfolded.refused).toBeUndefined();
  });

  it.each([
    [{ name: 'a' }, 'it needs an action'],
    [{ action: 'write_file', path: 'x' }, '"write_file" is not one of its actions'],
    ['{not json', 'it needs an action'],
  ])('refuses %j, saying why and naming the actions', (input, why) => {
    const unfolded = unfoldCodeCall(call(CODE_TOOL, input));
    expect(unfolded.refused).toContain(why);
    expect(unfolded.refused).toContain('get_codebase_map');
  });

  it('leaves other calls, and direct calls of a code tool, as they are', () => {
    const direct = call('rename_symbol', { name: 'a', new_name: 'b' });
    expect(unfoldCodeCall(direct)).toBe(direct);
  });
});

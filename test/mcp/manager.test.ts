// The MCP manager against the real server-everything over stdio: tools into a registry, prompts as slash
// commands, and the config helpers (${VAR} expansion, prompt arguments, tool filters).
import { describe, expect, it } from 'vitest';
import { mcpServerSchema } from '../../src/config/mcp-schema.js';
import { expandEnv } from '../../src/mcp/config.js';
import { McpManager } from '../../src/mcp/manager.js';
import { promptArguments } from '../../src/mcp/prompts.js';
import { exposedName, toolFilter } from '../../src/mcp/tool-adapter.js';
import { createRegistry } from '../../src/tools/registry.js';
import { everythingEntry } from '../support/mcp.js';

const server = (fields: Record<string, unknown>) => mcpServerSchema.parse(fields);

describe('McpManager with server-everything', () => {
  it('registers its tools, turns its prompts into slash commands and removes the tools on close', async () => {
    const registry = createRegistry([]);
    const warnings: string[] = [];
    const manager = new McpManager({
      servers: { ev: server({ command: process.execPath, args: [everythingEntry, 'stdio'] }) },
      env: process.env,
      workspace: process.cwd(),
      version: 'test',
      registry,
      warn: (message) => warnings.push(message),
    });
    try {
      manager.start();
      await manager.settled();
      expect(warnings).toEqual([]);
      expect(registry.get('ev__echo')?.safety).toBe('caution');
      const commands = manager.prompts();
      const simple = commands.find((command) => command.name === 'ev__simple-prompt');
      expect(simple?.source).toBe('mcp:ev');
      expect(await simple?.expand('')).toBe('This is a simple prompt without arguments.');
      const args = commands.find((command) => command.name === 'ev__args-prompt');
      expect(await args?.expand('Paris')).toContain('Paris');
      expect(await args?.expand('city=Lyon state=Rhone')).toMatch(/Lyon.*Rhone/s);
      // Its arguments are shown after its name; one left out is a usage error saying which, not an internal error.
      expect(args?.argumentHint).toBe('<city> [state]');
      await expect(args?.expand('')).rejects.toMatchObject({
        name: 'KeelError',
        code: 'usage',
        message: '/ev__args-prompt needs <city>',
        hint: '/ev__args-prompt <city> [state]: words in order, or name=value pairs',
      });
      expect(simple?.argumentHint).toBeUndefined();
    } finally {
      await manager.close();
    }
    expect(registry.get('ev__echo')).toBeUndefined();
    expect(manager.states()[0]?.status).toBe('ready');
  });

  it('reports a command that cannot start as failed, with one warning', async () => {
    const warnings: string[] = [];
    const manager = new McpManager({
      servers: { nope: server({ command: '/nonexistent/mcp-server' }) },
      env: process.env,
      workspace: process.cwd(),
      version: 'test',
      warn: (message) => warnings.push(message),
    });
    manager.start();
    await manager.settled();
    await manager.close();
    expect(manager.states()[0]?.status).toBe('failed');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toBe(
      'MCP server nope did not start: command not found: /nonexistent/mcp-server (install it, or give its full path in mcp.servers.nope.command); going on without it',
    );
  });
});

describe('MCP config helpers', () => {
  it('expands variables from the environment and names a missing one without any value', () => {
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the config's own ${VAR} syntax.
    expect(expandEnv('Bearer ${TOKEN}', { TOKEN: 'abc' }, 'h')).toBe('Bearer abc');
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the config's own ${VAR} syntax.
    expect(() => expandEnv('${MISSING}', {}, 'mcp.servers.x.headers A')).toThrow(
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the config's own ${VAR} syntax.
      'mcp.servers.x.headers A uses ${MISSING}, which is not set',
    );
  });

  it('needs exactly one of command and url', () => {
    expect(mcpServerSchema.safeParse({}).success).toBe(false);
    expect(mcpServerSchema.safeParse({ command: 'x', url: 'http://h/mcp' }).success).toBe(false);
    expect(mcpServerSchema.safeParse({ url: 'http://h/mcp' }).success).toBe(true);
  });

  it('lets deny win over allow, globs included', () => {
    const offered = toolFilter(
      server({ command: 'x', tools: { allow: ['read_*', 'echo'], deny: ['read_secret'] } }),
    );
    expect(['read_file', 'echo', 'read_secret', 'write_file'].filter(offered)).toEqual(['read_file', 'echo']);
  });

  it('names tools <server>__<tool> with only the characters providers accept', () => {
    expect(exposedName('fs', 'read.file/v2')).toBe('fs__read_file_v2');
  });

  it('reads prompt arguments as key=value pairs or as words in order', () => {
    const prompt = { name: 'p', arguments: [{ name: 'city' }, { name: 'note' }] };
    expect(promptArguments('city=Paris note="very nice"', prompt)).toEqual({
      city: 'Paris',
      note: 'very nice',
    });
    expect(promptArguments('Paris is lovely', prompt)).toEqual({ city: 'Paris', note: 'is lovely' });
    expect(promptArguments('', prompt)).toEqual({});
  });
});

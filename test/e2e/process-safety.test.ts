// The environment commands get, background commands ending with the run, and the sandbox as a run chooses it
// (--sandbox, full mode's default, --no-sandbox, bubblewrap missing). Runs are assembled in-process as keel run
// assembles them; the built binary runs where the process's own life is the point (background commands at its end).
import { existsSync } from 'node:fs';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { commandEnv } from '../../src/exec/command-env.js';
import { probeBubblewrap } from '../../src/exec/sandbox-choice.js';
import { runAgent } from '../support/agent-in-process.js';
import { runOllama, toolMessages, useE2E } from '../support/e2e.js';
import { processesWith, uniqueDuration } from '../support/processes.js';

const { server, workspace } = useE2E();
const unavailable = await probeBubblewrap(false, commandEnv(process.env));

/** A PATH holding bash and the few programs a test command needs, but no bwrap. */
async function pathWithoutBwrap(): Promise<string> {
  const bin = await workspace();
  for (const program of ['bash', 'env', 'touch', 'cat']) {
    await symlink(join('/usr/bin', program), join(bin, program)).catch(() =>
      symlink(join('/bin', program), join(bin, program)),
    );
  }
  return bin;
}

describe('commands end to end', () => {
  it('get the allowlisted environment (certificate bundles too) plus safety.env_passthrough, never API keys', async () => {
    const ws = await workspace();
    const config = join(await workspace(), 'config.yaml');
    await writeFile(config, 'safety:\n  env_passthrough: [MY_PASS]\n');
    const s = await server([
      { toolCalls: [{ name: 'execute_command', args: { command: 'env' } }] },
      { text: 'ok' },
    ]);
    const r = await runAgent(s, ws, 'x', {
      configFile: config,
      mode: 'full',
      sandbox: false,
      env: {
        OPENAI_API_KEY: 'sk-e2e-secret',
        MY_SECRET_X: 'hunter2',
        AWS_SECRET_ACCESS_KEY: 'aws',
        MY_PASS: 'passed',
        // Where the trusted certificates are: commands behind a company's proxy need it.
        SSL_CERT_FILE: '/company/ca.pem',
      },
    });
    expect(r.result.reason).toBe('done');
    const [result] = toolMessages(s.requests[1]!.body);
    expect(result).toContain('MY_PASS=passed');
    expect(result).toContain('SSL_CERT_FILE=/company/ca.pem');
    for (const secret of ['sk-e2e-secret', 'hunter2', 'AWS_SECRET_ACCESS_KEY'])
      expect(result).not.toContain(secret);
  });

  it('the binary kills background commands, and what they detached, when the run ends', async () => {
    const ws = await workspace();
    const sleep = `sleep ${uniqueDuration()}`;
    const s = await server([
      {
        toolCalls: [
          { name: 'execute_command', args: { command: `setsid ${sleep} & ${sleep}`, background: true } },
        ],
      },
      { toolCalls: [{ name: 'command_output', args: { id: 'bg1' } }] },
      { text: 'ok' },
    ]);
    const r = await runOllama(s, ws, ['--allow-dangerous', '--no-sandbox', '--prompt', 'x']);
    expect(r.code).toBe(0);
    expect(toolMessages(s.requests[1]!.body)[0]).toMatch(/^background command bg1: running/);
    expect(toolMessages(s.requests[2]!.body).at(-1)).toMatch(/^bg1: running/);
    expect(processesWith(sleep)).toEqual([]);
  });
});

describe('the sandbox from the CLI', () => {
  it('--sandbox without bubblewrap is an error with the reason and the fix (exit 2), before any request', async () => {
    const ws = await workspace();
    const s = await server([{ text: 'never asked' }]);
    const run = runAgent(s, ws, 'x', { sandbox: true, env: { PATH: '/nonexistent' } });
    await expect(run).rejects.toThrow('the sandbox was asked for, but bubblewrap (bwrap) is not installed');
    await expect(run).rejects.toMatchObject({
      exitCode: 2,
      hint: expect.stringContaining('install bubblewrap'),
    });
    expect(s.requests).toEqual([]);
  });

  it('full mode without bubblewrap warns once and runs commands unsandboxed', async () => {
    const ws = await workspace();
    const s = await server([
      { toolCalls: [{ name: 'execute_command', args: { command: 'touch made.txt' } }] },
      { text: 'ok' },
    ]);
    const r = await runAgent(s, ws, 'x', { mode: 'full', env: { PATH: await pathWithoutBwrap() } });
    expect(r.result.reason).toBe('done');
    expect(r.warnings.join('\n').match(/without a sandbox/g)).toHaveLength(1);
    expect(existsSync(join(ws, 'made.txt'))).toBe(true);
  });

  it.skipIf(unavailable !== undefined)(
    `full mode sandboxes commands by default; --no-sandbox opts out${unavailable ? ` (skipped: ${unavailable})` : ''}`,
    async () => {
      const ws = await workspace();
      const outside = await workspace();
      await mkdir(join(outside, 'sub'));
      const command = `touch in-workspace.txt; touch ${join(outside, 'sub', 'canary')} || echo refused`;
      const script = () => [{ toolCalls: [{ name: 'execute_command', args: { command } }] }, { text: 'ok' }];

      // The policy lets the outside path through (an allowed path), so only the sandbox stands in the way.
      const config = join(outside, 'config.yaml');
      await writeFile(config, `safety:\n  allowed_paths: ["${outside}/**"]\n`);
      const s = await server(script());
      const r = await runAgent(s, ws, 'x', { configFile: config, mode: 'full' });
      expect(r.result.reason).toBe('done');
      expect(r.warnings.join('\n')).not.toContain('without a sandbox');
      // The model is told, so a refused write outside the workspace makes sense to it.
      expect(JSON.stringify(s.requests[0]!.body)).toContain('Commands run in a sandbox');
      expect(toolMessages(s.requests[1]!.body)[0]).toContain('refused');
      expect(existsSync(join(ws, 'in-workspace.txt'))).toBe(true);
      expect(existsSync(join(outside, 'sub', 'canary'))).toBe(false);

      const s2 = await server(script());
      const r2 = await runAgent(s2, ws, 'x', { configFile: config, mode: 'full', sandbox: false });
      expect(r2.result.reason).toBe('done');
      expect(JSON.stringify(s2.requests[0]!.body)).not.toContain('Commands run in a sandbox');
      expect(existsSync(join(outside, 'sub', 'canary'))).toBe(true);
    },
  );
});

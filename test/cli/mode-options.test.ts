// The default execution mode: the configured one, else auto where the sandbox works (probed only then), else the
// command's own default (restricted for run, interactive for chat).
import { describe, expect, it } from 'vitest';
import { defaultMode } from '../../src/cli/mode-options.js';
import { nextMode } from '../../src/safety/modes.js';

const works = async () => undefined;
const broken = async () => 'bubblewrap (bwrap) is not installed or not on PATH';
const never = async (): Promise<string | undefined> => {
  throw new Error('the probe ran although the answer did not matter');
};

describe('the default mode', () => {
  it.each([
    {
      case: 'auto where the sandbox works',
      sandbox: undefined,
      probe: works,
      fallback: 'restricted',
      mode: 'auto',
    },
    {
      case: 'run keeps restricted without bubblewrap',
      sandbox: undefined,
      probe: broken,
      fallback: 'restricted',
      mode: 'restricted',
    },
    {
      case: 'chat keeps interactive without bubblewrap',
      sandbox: undefined,
      probe: broken,
      fallback: 'interactive',
      mode: 'interactive',
    },
    {
      case: 'the fallback under --no-sandbox, unprobed',
      sandbox: false,
      probe: never,
      fallback: 'restricted',
      mode: 'restricted',
    },
    {
      case: 'auto under --sandbox where it works',
      sandbox: true,
      probe: works,
      fallback: 'interactive',
      mode: 'auto',
    },
  ] as const)('$case', async ({ sandbox, probe, fallback, mode }) => {
    const choice = await defaultMode({ configured: undefined, sandbox, fallback, probe });
    expect(choice.mode).toBe(mode);
    expect(choice.why).toBeTruthy();
  });

  it('says why the sandbox is missing', async () => {
    const choice = await defaultMode({
      configured: undefined,
      sandbox: undefined,
      fallback: 'restricted',
      probe: broken,
    });
    expect(choice.why).toBe('no sandbox here: bubblewrap (bwrap) is not installed or not on PATH');
  });

  it('takes agent.terminal.default_mode without probing', async () => {
    const choice = await defaultMode({
      configured: 'auto',
      sandbox: undefined,
      fallback: 'restricted',
      probe: never,
    });
    expect(choice).toEqual({ mode: 'auto', why: 'agent.terminal.default_mode sets it' });
  });
});

describe("the chat's Shift+Tab cycle", () => {
  it.each([
    ['plan', 'interactive'],
    ['interactive', 'restricted'],
    ['restricted', 'auto'],
    ['auto', 'plan'],
    ['full', 'plan'],
  ] as const)('goes from %s to %s', (from, to) => {
    expect(nextMode(from)).toBe(to);
  });
});

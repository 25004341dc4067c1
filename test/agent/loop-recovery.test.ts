// The loop's recovery pieces on their own: loop detection, turn-warning stages, tool error kinds, and the
// batch of one turn's calls (which run concurrently, in what order results and events come back, interrupts).
import { describe, expect, it } from 'vitest';
import { callKey, RepetitionGuard } from '../../src/agent/repetition.js';
import { type CallAssessment, concurrentCalls, runToolBatch } from '../../src/agent/tool-batch.js';
import { turnWarning, warningTurns } from '../../src/agent/turn-warnings.js';
import type { AgentEvent } from '../../src/core/events.js';
import type { ToolCall } from '../../src/core/messages.js';
import { classifyResult, withRecoveryHint } from '../../src/tools/error-kinds.js';
import { fail, ok } from '../../src/tools/tool.js';

const call = (id: string, name = 'read_file', input = `{"path":"${id}"}`): ToolCall => ({ id, name, input });

describe('RepetitionGuard', () => {
  it('sees the same call with reordered keys and an equivalent path as the same call', () => {
    expect(callKey(call('1', 'grep', '{"pattern":"x","path":"./src/"}'))).toBe(
      callKey(call('2', 'grep', '{"path":"src","pattern":"x"}')),
    );
  });

  it('notes the third identical call in a row, and not two', () => {
    const guard = new RepetitionGuard();
    expect(guard.afterTurn([call('1', 'read_file', '{"path":"a"}')])).toBeUndefined();
    expect(guard.afterTurn([call('2', 'read_file', '{"path":"a"}')])).toBeUndefined();
    expect(guard.afterTurn([call('3', 'read_file', '{"path":"a"}')])).toMatch(/same call 3 times in a row/);
    expect(guard.afterTurn([call('4', 'read_file', '{"path":"a"}')])).toMatch(/same call 4 times in a row/);
    expect(guard.afterTurn([call('5', 'read_file', '{"path":"b"}')])).toBeUndefined();
  });

  it('holds only its last few calls over a long run, and still counts the whole run of identical ones', () => {
    const guard = new RepetitionGuard();
    let note: string | undefined;
    for (let i = 0; i < 1000; i++) note = guard.afterTurn([call(String(i), 'read_file', '{"path":"a"}')]);
    expect(note).toMatch(/same call 1000 times in a row/);
    expect(guard.held).toBeLessThanOrEqual(4);
  });

  it('notes A→B→A→B, and not A→B→A or A→B→C→B', () => {
    const a = () => call('a', 'glob', '{"pattern":"*.ts"}');
    const b = () => call('b', 'list_files', '{}');
    const guard = new RepetitionGuard();
    expect(guard.afterTurn([a(), b()])).toBeUndefined();
    expect(guard.afterTurn([a()])).toBeUndefined();
    expect(guard.afterTurn([b()])).toMatch(/alternating between the same two calls/);
    const other = new RepetitionGuard();
    expect(other.afterTurn([a(), b(), call('c', 'grep', '{"pattern":"x"}'), b()])).toBeUndefined();
  });
});

describe('turn warnings', () => {
  it('scales CodeCraft 10/13/16 of 16 and keeps only the last turn for tiny limits', () => {
    expect([...warningTurns(16)]).toEqual([
      [10, 'wrap-up'],
      [13, 'finish'],
      [16, 'last'],
    ]);
    expect([...warningTurns(100).keys()]).toEqual([62, 81, 100]);
    expect([...warningTurns(5).keys()]).toEqual([3, 4, 5]);
    // 2.5 and 3.25 both floor towards turn 2 and 3: distinct, none before turn 2.
    expect([...warningTurns(4).keys()]).toEqual([2, 3, 4]);
    expect([...warningTurns(3).keys()]).toEqual([3]);
    expect([...warningTurns(2).keys()]).toEqual([2]);
    expect([...warningTurns(1).keys()]).toEqual([]);
    expect(turnWarning(9, 16)).toBeUndefined();
    expect(turnWarning(13, 16)?.note).toContain('only 3 left');
  });
});

describe('tool error kinds', () => {
  it.each([
    [fail('no such file or directory: src/x.ts'), 'FILE_NOT_FOUND'],
    [fail('path "../x" is outside the workspace /w; use a path inside the workspace'), 'OUTSIDE_WORKSPACE'],
    [fail('cannot edit a.ts: old_string not found.\n…'), 'EDIT_CONFLICT'],
    [fail('refused by policy: `rm x` is not read-only', { policy: 'deny' }), 'PERMISSION_DENIED'],
    [fail('command timed out after 5s; it was killed'), 'TIMEOUT'],
    [fail('find_todos timed out after 1s; it and the processes it started were killed'), 'TIMEOUT'],
    [fail('command exited with code 2'), 'COMMAND_FAILED'],
    [fail('invalid arguments for read_file: missing required field path (string)'), 'INVALID_ARGS'],
    [fail('aborted'), 'INTERRUPTED'],
    [fail('something odd'), 'TOOL_ERROR'],
    // What an error quotes after its first line is not what went wrong: a rename's compiler errors name no file.
    [
      fail(
        "renaming isHTTPError to isKyError would introduce 16 errors; nothing was written:\n  source/core/Ky.ts:528:56: TS2339 Property 'response' does not exist on type 'KyError'.",
      ),
      'TOOL_ERROR',
    ],
    [
      fail('cannot edit a.py: new_string has an omission placeholder that old_string does not'),
      'EDIT_CONFLICT',
    ],
    [ok('no matches for "x"'), 'NO_MATCHES'],
    [ok('no files match **/*.rs'), 'NO_MATCHES'],
  ])('%#: %o is %s', (result, kind) => {
    expect(classifyResult(result)?.kind).toBe(kind);
  });

  it('leaves an ordinary success unclassified', () => {
    expect(classifyResult(ok('a.ts:1: match'))).toBeUndefined();
  });

  it.each([
    [
      "renaming a to b would introduce 1 errors; nothing was written:\n  x.ts:1:1: TS2339 Property 'q' does not exist",
      undefined,
    ],
    [
      'cannot edit a.py: new_string has an omission placeholder that old_string does not: `# ...`.',
      undefined,
    ],
    ['cannot edit a.py: old_string not found.\nnearest region: …', 'read_file the file again'],
    ['cannot edit a.py: old_string matches 2 times:\n  line 3: x', 'pass replace_all: true'],
    ['no such file or directory: src/x.ts', 'find the right path first'],
    ['command timed out after 5s; it was killed', 'start it with background: true'],
    // A config-defined tool has no background option: execute_command's advice is not for it.
    ['find_todos timed out after 1s; it and the processes it started were killed', undefined],
  ])('the hint after %j fits its kind: %s', (error, hint) => {
    const output = withRecoveryHint(fail(error)).output;
    if (hint) expect(output).toContain(hint);
    else expect(output).not.toContain('Hint:');
  });

  it("sends the model to Keel's file tools only after their own errors, not an MCP server's", () => {
    const missing = fail('ENOENT: no such file or directory, open /srv/notes/a.md');
    expect(withRecoveryHint(missing).output).toContain('Hint: find the right path first: glob');
    const fromServer = withRecoveryHint(missing, false);
    expect(fromServer.output).not.toContain('Hint:');
    expect(fromServer.metadata.error_kind).toBe('FILE_NOT_FOUND');
    expect(withRecoveryHint(fail('request timed out after 60 s'), false).output).not.toContain(
      'background: true',
    );
    // A hint that names no tool of Keel's still applies.
    const invalid = fail('invalid arguments for fs__read: missing required field path (string)');
    expect(withRecoveryHint(invalid, false).output).toContain(
      'Hint: call the tool again with the fields its schema lists',
    );
  });
});

const readOnly = (reads: string[] = [], command?: string): CallAssessment => ({
  readOnly: true,
  reads,
  writes: [],
  ...(command ? { command } : {}),
});
const writes = (paths: string[], command?: string): CallAssessment => ({
  readOnly: false,
  reads: [],
  writes: paths,
  ...(command ? { command } : {}),
});

describe('concurrentCalls', () => {
  it('takes read-only calls ahead of file writes they do not read', () => {
    const ws = '/w';
    expect([...concurrentCalls([readOnly(['/w/a']), writes(['/w/c']), readOnly(['/w/b'])], ws)]).toEqual([
      0, 2,
    ]);
    // A read of the written path, or a command naming it, waits for the write.
    expect([...concurrentCalls([readOnly(['/w/a']), writes(['/w/c']), readOnly(['/w/c'])], ws)]).toEqual([0]);
    expect([...concurrentCalls([readOnly(), writes(['/w/c.txt']), readOnly([], 'cat c.txt')], ws)]).toEqual([
      0,
    ]);
    // After a mutating command (or a tool naming no paths) anything may have changed.
    expect([
      ...concurrentCalls([readOnly(), writes([], 'npm run build'), readOnly(['/w/dist'])], ws),
    ]).toEqual([0]);
    expect([...concurrentCalls([readOnly(), writes([]), readOnly()], ws)]).toEqual([0]);
  });
});

describe('runToolBatch', () => {
  const deferred = () => {
    let resolve!: () => void;
    const promise = new Promise<void>((r) => {
      resolve = r;
    });
    return { promise, resolve };
  };

  it('runs read-only calls together, the write after them, results and events in order', async () => {
    const calls = [call('a'), call('w', 'write_file'), call('b')];
    const gates = { a: deferred(), b: deferred() };
    const started: string[] = [];
    const emitted: string[] = [];
    const done = runToolBatch(calls, {
      assess: async (c) => (c.name === 'write_file' ? writes(['/w/out']) : readOnly([`/w/${c.id}`])),
      run: async (c, concurrent) => {
        started.push(c.id);
        const emit =
          concurrent?.emit ??
          ((e: AgentEvent) =>
            emitted.push(`${e.type}:${'id' in e ? e.id : e.type === 'warning' ? e.message : ''}`));
        emit({ type: 'tool_call', turn: 1, id: c.id, name: c.name, args: {} });
        if (c.id === 'a' || c.id === 'b') await gates[c.id].promise;
        emit({ type: 'warning', message: c.id });
        return { content: `result ${c.id}`, isError: false };
      },
      emit: (e) => emitted.push(`${e.type}:${'id' in e ? e.id : e.type === 'warning' ? e.message : ''}`),
      signal: new AbortController().signal,
      workspace: '/w',
    });
    await new Promise((r) => setTimeout(r, 10));
    // Both reads are running at once; b's events wait for a's.
    expect(started).toEqual(['a', 'b']);
    gates.b.resolve();
    await new Promise((r) => setTimeout(r, 10));
    expect(emitted).toEqual(['tool_call:a']);
    gates.a.resolve();
    const outcomes = await done;
    expect(started).toEqual(['a', 'b', 'w']);
    expect(outcomes.map((o) => o.content)).toEqual(['result a', 'result w', 'result b']);
    expect(emitted).toEqual([
      'tool_call:a',
      'warning:a',
      'tool_call:b',
      'warning:b',
      'tool_call:w',
      'warning:w',
    ]);
  });

  it('gives every call a result when interrupted: those not started are answered as interrupted', async () => {
    const controller = new AbortController();
    const calls = [call('a'), call('w', 'write_file'), call('b')];
    const outcomes = await runToolBatch(calls, {
      assess: async (c) => (c.name === 'write_file' ? writes(['/w/out']) : readOnly()),
      run: async (c) => {
        // Both reads have started by now; the interrupt comes while they run.
        await Promise.resolve();
        controller.abort();
        return { content: `Error: ${c.id} aborted`, isError: true };
      },
      emit: () => {},
      signal: controller.signal,
      workspace: '/w',
    });
    expect(outcomes.map((o) => o.content)).toEqual([
      'Error: a aborted',
      'Error: interrupted before this tool ran',
      'Error: b aborted',
    ]);
  });

  it('never runs more than 8 calls at once', async () => {
    let running = 0;
    let most = 0;
    const calls = Array.from({ length: 20 }, (_, i) => call(`c${i}`));
    await runToolBatch(calls, {
      assess: async () => readOnly(),
      run: async () => {
        most = Math.max(most, ++running);
        await new Promise((r) => setTimeout(r, 5));
        running--;
        return { content: '', isError: false };
      },
      emit: () => {},
      signal: new AbortController().signal,
      workspace: '/w',
    });
    expect(most).toBe(8);
  });
});

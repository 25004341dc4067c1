// `keel eval llm` against the scripted model server, which answers each case as a test script says, so the
// harness's scores are known exactly (this checks the harness, not a model): in process, through the command
// function the CLI calls; the built CLI once, for its flags (--repeat, --filter, --report) and the text table. The
// scores of other answers come from the same harness given a Model answering in memory (no wire in between).
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CODE_TOOLS } from '../../src/agent/tool-offer.js';
import { type EvalOptions, evalLlmCommand } from '../../src/cli/eval-command.js';
import type { Model, ModelEvent } from '../../src/core/model.js';
import { type LlmCase, loadLlmCases } from '../../src/evals/llm-cases.js';
import { runLlmEvals } from '../../src/evals/llm-evals.js';
import { type LlmCaseResult, type LlmSummary, summarize } from '../../src/evals/llm-score.js';
import { runKeel } from '../support/cli.js';
import { homeEnv, useE2E, wireProviders } from '../support/e2e.js';
import type { ModelServer, ReceivedRequest, ScriptedReply } from '../support/model-server.js';

const { server, workspace } = useE2E();
const evals = resolve(import.meta.dirname, '../../evals');
let cases: LlmCase[] = [];

beforeAll(async () => {
  cases = await loadLlmCases(evals);
});

const saved = { ...process.env };
/** A temp workspace to run in (never the repository's own config). */
let cwd = '';
beforeEach(async () => {
  cwd = await workspace();
  Object.assign(process.env, { ...homeEnv(cwd), NO_COLOR: '1' });
});
afterEach(() => {
  process.env = { ...saved };
});

interface Report {
  provider: string;
  model: string;
  summary: LlmSummary;
  results: LlmCaseResult[];
}

/** The case a user message asks about: its prompt, perhaps with Keel's notes after it. */
function caseFor(content: unknown): LlmCase {
  const text = String(content);
  const found = cases.find((c) => text === c.prompt || text.startsWith(`${c.prompt}\n\n[Keel: `));
  if (!found) throw new Error(`no case has the prompt ${text}`);
  return found;
}

/** The case a request asks about, found by its prompt. */
function caseOf(request: ReceivedRequest): LlmCase {
  const user = (request.body.messages as { role: string; content: string }[]).find((m) => m.role === 'user');
  return caseFor(user?.content);
}

/** A call of `tool` with `args` as a run's request offers it: a code-intelligence tool through `code`. */
function callAsOffered(tool: string, args: unknown): { name: string; args: unknown } {
  return (CODE_TOOLS as readonly string[]).includes(tool)
    ? { name: 'code', args: { action: tool, ...(args as Record<string, unknown>) } }
    : { name: tool, args };
}

/** A server answering every request with `answer(case)`. */
function scripted(answer: (c: LlmCase) => ScriptedReply, count = 200): Promise<ModelServer> {
  return server(Array.from({ length: count }, () => (request: ReceivedRequest) => answer(caseOf(request))));
}

/** `keel eval llm --dir evals --output json …` in process: the report it printed on stdout. */
async function evalLlmJson(options: Partial<EvalOptions>): Promise<Report> {
  const printed = { stdout: '', stderr: '' };
  const code = await evalLlmCommand(
    { cwd, dir: evals, output: 'json', ...options },
    {
      stdout: { write: (t: string) => (printed.stdout += t) },
      stderr: { write: (t: string) => (printed.stderr += t) },
    },
  );
  if (code !== 0) throw new Error(`keel eval llm failed (${code}): ${printed.stderr}`);
  return JSON.parse(printed.stdout) as Report;
}

/** The scripted server as an OpenAI-compatible provider, model m. */
async function evalLlm(s: ModelServer): Promise<{ report: Report }> {
  return {
    report: await evalLlmJson({ provider: 'openai-compatible', baseUrl: s.openaiUrl, model: 'm' }),
  };
}

/** What a model answers a case: a tool call, or text. */
type Answer = { tool: string; args: Record<string, unknown> } | { text: string };

/** Every case through the harness with a model answering `answer(case)` in memory: the scores and their summary. */
async function scoreInMemory(answer: (c: LlmCase) => Answer): Promise<Report> {
  const model: Model = {
    provider: 'scripted',
    modelId: 'm',
    async *stream(request): AsyncIterable<ModelEvent> {
      const c = caseFor(request.messages.find((m) => m.role === 'user')?.content);
      const a = answer(c);
      if ('text' in a) yield { type: 'text', delta: a.text };
      else yield { type: 'tool-call', call: { id: 'c1', name: a.tool, input: JSON.stringify(a.args) } };
      yield { type: 'usage', usage: { inputTokens: 100, outputTokens: 10 } };
    },
  };
  const results = await runLlmEvals(cases, {
    model,
    evalsDir: evals,
    repeat: 1,
    signal: new AbortController().signal,
  });
  return { provider: model.provider, model: model.modelId, summary: summarize(results), results };
}

const usage = { input: 100, output: 10 };
/** The names of the tools a request offered (OpenAI-style body). */
const toolNames = (request: ReceivedRequest): string[] =>
  (request.body.tools as { function: { name: string } }[]).map((t) => t.function.name);
/** The user message a request sent (OpenAI-style body). */
const userContent = (request: ReceivedRequest): string =>
  (request.body.messages as { role: string; content: string }[]).find((m) => m.role === 'user')!.content;

describe('keel eval llm', () => {
  it('has at least 60 cases, ten or more for every intent', () => {
    expect(cases.length).toBeGreaterThanOrEqual(60);
    for (const intent of ['explain', 'implement', 'refactor', 'debug', 'test', 'analyze']) {
      expect(cases.filter((c) => c.intent === intent).length, intent).toBeGreaterThanOrEqual(10);
    }
  });

  it('scores a script answering every case with its expected tool and reference arguments 100 % exact', async () => {
    const s = await scripted((c) => ({ toolCalls: [callAsOffered(c.expected_tool, c.reference)], usage }));
    const { report } = await evalLlm(s);
    expect(report.summary).toMatchObject({
      total: cases.length,
      exact: cases.length,
      acceptable: 0,
      wrong: 0,
      none: 0,
      forbidden: 0,
      errors: 0,
      parameterQuality: 1,
      inputTokens: 100 * cases.length,
      outputTokens: 10 * cases.length,
    });
    expect(report.results.every((r) => r.inputTokens === 100 && r.outputTokens === 10)).toBe(true);
    // One request per case: the first turn only, at temperature 0, with the agent's tools and system prompt.
    expect(s.requests).toHaveLength(cases.length);
    for (const request of s.requests) {
      expect(request.body.temperature).toBe(0);
      expect(request.body.messages[0].role).toBe('system');
      // As a run's first request: the basic tools, the code-intelligence tools folded into `code`.
      expect(toolNames(request)).toEqual(
        expect.arrayContaining(['read_file', 'edit_file', 'grep', 'execute_command']),
      );
      for (const tool of CODE_TOOLS) expect(toolNames(request)).not.toContain(tool);
    }
    // The groups join as each prompt calls for them, not every tool for every case.
    expect(s.requests.some((r) => toolNames(r).includes('code'))).toBe(true);
    expect(s.requests.some((r) => !toolNames(r).includes('code'))).toBe(true);
    // A prompt read with confidence carries the intent's steering note.
    const guide = s.requests.find((r) => caseOf(r).id === 'explain-guide')!;
    expect(toolNames(guide)).toContain('code');
    expect(userContent(guide)).toBe(
      `${caseOf(guide).prompt}\n\n[Keel: analyze. Report what you find; change nothing.]`,
    );
  });

  it('scores calls of forbidden tools as forbidden, and plain text answers as none', async () => {
    const { summary } = await scoreInMemory((c) =>
      c.forbidden_tools.length > 0
        ? { tool: c.forbidden_tools[0]!, args: {} }
        : { text: 'I would rather not.' },
    );
    const withForbidden = cases.filter((c) => c.forbidden_tools.length > 0).length;
    expect(withForbidden).toBeGreaterThan(50);
    expect(summary).toMatchObject({
      exact: 0,
      acceptable: 0,
      wrong: 0,
      forbidden: withForbidden,
      none: cases.length - withForbidden,
    });
    // Parameters are judged only for a right tool.
    expect(summary.parameterQuality).toBeUndefined();
  });

  it('scores acceptable alternatives as acceptable and any other tool as wrong', async () => {
    const listed = (c: LlmCase) => [c.expected_tool, ...c.acceptable_tools, ...c.forbidden_tools];
    const other = (c: LlmCase) =>
      ['list_files', 'glob', 'read_file', 'grep', 'copy_path'].find((t) => !listed(c).includes(t))!;
    const { summary } = await scoreInMemory((c) => ({ tool: c.acceptable_tools[0] ?? other(c), args: {} }));
    const withAcceptable = cases.filter((c) => c.acceptable_tools.length > 0).length;
    expect(summary).toMatchObject({
      exact: 0,
      acceptable: withAcceptable,
      wrong: cases.length - withAcceptable,
      none: 0,
      forbidden: 0,
    });
  });

  it('scores a call of `code` as the tool its action names, and one without a known action as wrong', async () => {
    const folded = await scoreInMemory((c) => {
      const call = callAsOffered(c.expected_tool, c.reference);
      return { tool: call.name, args: call.args as Record<string, unknown> };
    });
    expect(folded.summary).toMatchObject({ exact: cases.length, parameterQuality: 1 });
    const unknown = await scoreInMemory(() => ({ tool: 'code', args: { action: 'frobnicate' } }));
    expect(unknown.summary).toMatchObject({ exact: 0, acceptable: 0, wrong: cases.length });
    expect(unknown.results[0]!.detail).toContain('code: "frobnicate" is not one of its actions');
  });

  it('scores the right tool with missing arguments 0 % parameter quality', async () => {
    const report = await scoreInMemory((c) => ({ tool: c.expected_tool, args: {} }));
    expect(report.summary.exact).toBe(cases.length);
    expect(report.summary.parameterQuality).toBe(0);
    const checked = report.results.filter((r) => r.parameterScore !== undefined);
    expect(checked.length).toBe(
      cases.filter((c) => c.parameters.some((p) => (p.tool ?? c.expected_tool) === c.expected_tool)).length,
    );
  });

  it("prints CodeCraft's metrics table, runs each case --repeat times, only those --filter names, and writes the --report file — from a directory without evals/, with the evals Keel ships", async () => {
    const s = await scripted((c) => ({ toolCalls: [callAsOffered(c.expected_tool, c.reference)], usage }));
    const file = join(cwd, 'report.json');
    const r = await runKeel(
      [
        'eval',
        'llm',
        '--provider',
        'openai-compatible',
        '--base-url',
        s.openaiUrl,
        '--model',
        'm',
        '--repeat',
        '2',
        '--filter',
        'analyze',
        '--report',
        file,
      ],
      { timeoutMs: 60_000 },
    );
    expect(r.code, r.stderr).toBe(0);
    for (const row of [
      'Exact matches',
      'Acceptable matches',
      'Wrong tool',
      'No tool',
      'Forbidden tool',
      'Parameter quality',
    ]) {
      expect(r.stdout).toContain(row);
    }
    const analyze = cases.filter((c) => c.intent === 'analyze' || c.id.includes('analyze')).length;
    expect(analyze).toBe(11);
    expect(r.stdout).toMatch(/^Exact matches\s+22\s+100\.0%$/m);
    expect(r.stdout).toMatch(
      /^analyze-cycles#2\s+analyze\s+exact\s+build_dependency_graph\s+-\s+110\s+[\d.]+ s$/m,
    );
    const written = JSON.parse(await readFile(file, 'utf8')) as Report;
    expect(written.summary.total).toBe(2 * analyze);
    expect(written.summary.exact).toBe(2 * analyze);
    expect(written.results.filter((x) => x.run === 2)).toHaveLength(analyze);
    expect(written.model).toBe('m');
    expect(s.requests).toHaveLength(2 * analyze);
  });

  it('--record saves the responses, and --cassette replays them offline to the same scores', async () => {
    // Only tools the request offers (a replay refuses a call of another): the expected one, else grep.
    const s = await server(
      Array.from({ length: 50 }, () => (request: ReceivedRequest) => {
        const c = caseOf(request);
        const call = callAsOffered(c.expected_tool, c.reference);
        const offered = toolNames(request).includes(call.name);
        return { toolCalls: [offered ? call : { name: 'grep', args: { pattern: 'x' } }], usage };
      }),
    );
    const record = join(cwd, 'eval.cassette.json');
    const live = await evalLlmJson({
      provider: 'openai-compatible',
      baseUrl: s.openaiUrl,
      model: 'm',
      filter: 'refactor',
      record,
    });
    expect(live.summary.exact).toBeGreaterThan(0);
    await s.close();
    const replayed = await evalLlmJson({ cassette: record, filter: 'refactor' });
    expect(replayed.summary).toMatchObject({
      total: live.summary.total,
      exact: live.summary.exact,
      parameterQuality: live.summary.parameterQuality,
    });
    expect(replayed.results.map((r) => [r.id, r.outcome, r.tool])).toEqual(
      live.results.map((r) => [r.id, r.outcome, r.tool]),
    );
  });

  it('warns when a replayed cassette was recorded for other cases', async () => {
    const s = await scripted((c) => ({ toolCalls: [callAsOffered(c.expected_tool, c.reference)], usage }));
    const record = join(cwd, 'eval.cassette.json');
    await evalLlmJson({
      provider: 'openai-compatible',
      baseUrl: s.openaiUrl,
      model: 'm',
      filter: 'refactor',
      record,
    });
    const printed = { stdout: '', stderr: '' };
    await evalLlmCommand(
      { cwd, dir: evals, output: 'text', cassette: record, filter: 'debug' },
      {
        stdout: { write: (t: string) => (printed.stdout += t) },
        stderr: { write: (t: string) => (printed.stderr += t) },
      },
    );
    expect(printed.stderr).toContain(
      `warning: cassette ${record} was recorded for another goal than this run's`,
    );
  });

  it('refuses a --report path it cannot write before the first model request, exit 2', async () => {
    const s = await server([{ text: 'never asked' }]);
    for (const [report, problem] of [
      [join(cwd, 'missing/report.json'), `${join(cwd, 'missing')} does not exist`],
      [cwd, 'it is a directory'],
    ] as const) {
      const printed = { stdout: '', stderr: '' };
      const code = await evalLlmCommand(
        {
          cwd,
          dir: evals,
          output: 'text',
          provider: 'openai-compatible',
          baseUrl: s.openaiUrl,
          model: 'm',
          report,
        },
        {
          stdout: { write: (t: string) => (printed.stdout += t) },
          stderr: { write: (t: string) => (printed.stderr += t) },
        },
      );
      expect(code).toBe(2);
      expect(printed.stderr).toContain(`cannot write the report to ${report}: ${problem}`);
      expect(printed.stderr).not.toContain('internal error');
    }
    expect(s.requests).toHaveLength(0);
  });

  it.each(wireProviders)('sends temperature 0 through $provider', async (p) => {
    // One case, answered as it expects: caseOf reads only the OpenAI-style body, which not every wire sends.
    const guide = cases.find((c) => c.id === 'explain-guide')!;
    const s = await server([{ toolCalls: [callAsOffered(guide.expected_tool, guide.reference)] }]);
    if (p.envVar) process.env[p.envVar] = 'sk-scripted-test';
    const report = await evalLlmJson({
      provider: p.provider,
      baseUrl: s[p.url],
      model: 'test-model',
      filter: 'explain-guide',
    });
    const body = s.requests.at(-1)!.body;
    const temperature =
      p.provider === 'ollama'
        ? body.options.temperature
        : p.provider === 'gemini'
          ? body.generationConfig.temperature
          : body.temperature;
    expect(temperature).toBe(0);
    // Answered on the first request and scored, not an error after retries.
    expect(s.requests).toHaveLength(1);
    expect(report.summary).toMatchObject({ exact: 1 });
  });
});

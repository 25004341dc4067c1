// Tool evals: each case calls one tool with given arguments on a copy of a fixture workspace as the fixture is,
// through the real executor (full mode, no approvals: what the agent runs), and checks the output or error and the
// files after. The tools come from the run assembly (runtime/tool-host.ts caseToolsOpener), which the CLI passes in.
import { mkdirSync, rmSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import * as z from 'zod';
import type { ToolCall } from '../core/messages.js';
import type { ToolResult } from '../tools/tool.js';
import { checkFixture, matchesFilter, readEvalFiles } from './eval-files.js';
import { checkText, textExpectationSchema } from './expectations.js';
import {
  copyFixture,
  type FixtureCopy,
  type FixtureTree,
  fixtureDir,
  readTree,
  restoreFixture,
} from './fixture-workspace.js';

const args = z.union([z.record(z.string(), z.unknown()), z.string()]);
const callSchema = z.object({ tool: z.string(), args }).strict();

const caseSchema = z
  .object({
    name: z.string(),
    /** Default: the file's tool. */
    tool: z.string().optional(),
    /** A directory under evals/fixtures; default: the file's, else an empty workspace. */
    fixture: z.string().optional(),
    /** The arguments, or a raw argument text (to test what invalid JSON gets). */
    args,
    /** Calls made first, each of which must succeed (start a background command, write a file). */
    setup: z.array(callSchema).optional(),
    /**
     * The errors a change introduces, checked by a language service after write_file, edit_file and the like
     * (code.diagnostics); off unless a case is about them, since each case would start its own service.
     */
    diagnostics: z.boolean().optional(),
    expect: z
      .object({
        output: textExpectationSchema.optional(),
        error: textExpectationSchema.optional(),
        /** Files after the call, relative to the workspace: their text, or `absent`. */
        files: z
          .record(z.string(), textExpectationSchema.extend({ absent: z.boolean().optional() }))
          .optional(),
      })
      .strict()
      .refine((e) => (e.output === undefined) !== (e.error === undefined), {
        message: 'give exactly one of output and error',
      }),
  })
  .strict();

export const toolEvalFileSchema = z
  .object({ tool: z.string(), fixture: z.string().optional(), cases: z.array(caseSchema).min(1) })
  .strict();

export type ToolEvalCase = z.infer<typeof caseSchema> & { tool: string; file: string };

export interface ToolCaseResult {
  tool: string;
  name: string;
  file: string;
  passed: boolean;
  problems: string[];
  /** What the tool returned (output, or the error), for the failure report. */
  got: string;
}

/** The workspace's temp path in outputs reads as `$ROOT`, so expectations do not depend on it. */
const ROOT = '$ROOT';

/** A case's tools, opened on its fixture copy. */
export interface CaseTools {
  execute(call: ToolCall, turn: number, signal: AbortSignal): Promise<ToolResult>;
  /** Ends the commands the case started. */
  close(): void;
}

/** Where a case runs: its workspace, a state directory of its own, and what was put back since the last case. */
export interface CaseWorkspace {
  root: string;
  stateDir: string;
  /** Paths (relative) restored to the fixture's since the last case on this workspace: a warm service rereads them. */
  restored: readonly string[];
}

/**
 * Opens each case's tools. The cases on one workspace may share what is costly to start (language servers) until
 * `close`; the opener is told which files were put back between them.
 */
export interface CaseToolsOpener {
  open(workspace: CaseWorkspace, options?: { diagnostics?: boolean }): Promise<CaseTools>;
  close(): Promise<void>;
}

const caseFields =
  'a tool eval file is {"tool", "fixture"?, "cases": [...]}; a case: name, args, expect (output or error, files?), ' +
  'and optionally tool, fixture, setup, diagnostics';

export async function loadToolCases(evalsDir: string, filter?: string): Promise<ToolEvalCase[]> {
  const files = await readEvalFiles(join(evalsDir, 'tools'), toolEvalFileSchema, caseFields);
  const cases: ToolEvalCase[] = [];
  for (const { file, value, at } of files) {
    await checkFixture(evalsDir, value.fixture, at(['fixture']));
    for (const [index, c] of value.cases.entries()) {
      await checkFixture(evalsDir, c.fixture, at(['cases', index, 'fixture']));
      const tool = c.tool ?? value.tool;
      if (matchesFilter(filter, tool, c.name))
        cases.push({ ...c, tool, fixture: c.fixture ?? value.fixture, file });
    }
  }
  return cases;
}

/** One case on `workspace` (a copy of its fixture, as the fixture is). */
export async function runToolCase(
  c: ToolEvalCase,
  workspace: CaseWorkspace,
  signal: AbortSignal,
  opener: CaseToolsOpener,
): Promise<ToolCaseResult> {
  let tools: CaseTools | undefined;
  try {
    tools = await opener.open(workspace, { diagnostics: c.diagnostics === true });
    const { execute } = tools;
    const call = (tool: string, input: Record<string, unknown> | string, id: string): ToolCall => ({
      id,
      name: tool,
      input: typeof input === 'string' ? input : JSON.stringify(input),
    });
    for (const [i, step] of (c.setup ?? []).entries()) {
      const done = await execute(call(step.tool, step.args, `setup-${i}`), 0, signal);
      if (!done.success) {
        return result(c, [`setup call ${step.tool} failed: ${done.error ?? ''}`], done.error ?? '');
      }
    }
    const outcome = await execute(call(c.tool, c.args, 'eval'), 1, signal);
    const normal = (text: string) => text.split(workspace.root).join(ROOT);
    const got = normal(outcome.success ? outcome.output : (outcome.error ?? ''));
    const problems: string[] = [];
    if (c.expect.output) {
      if (!outcome.success) problems.push('expected success, got an error');
      else problems.push(...checkText(got, c.expect.output));
    } else if (c.expect.error) {
      if (outcome.success) problems.push('expected an error, got success');
      else problems.push(...checkText(got, c.expect.error));
    }
    for (const [path, expected] of Object.entries(c.expect.files ?? {})) {
      const absolute = join(workspace.root, path);
      const exists = await stat(absolute).then(
        () => true,
        () => false,
      );
      if (expected.absent) {
        if (exists) problems.push(`${path}: expected it not to exist`);
        continue;
      }
      if (!exists) {
        problems.push(`${path}: expected it to exist`);
        continue;
      }
      const { absent: _absent, ...text } = expected;
      const isFile = (await stat(absolute)).isFile();
      const content = isFile ? await readFile(absolute, 'utf8') : '';
      problems.push(...checkText(content, text).map((p) => `${path}: ${p}`));
    }
    return result(c, problems, got);
  } finally {
    tools?.close();
  }
}

function result(c: ToolEvalCase, problems: string[], got: string): ToolCaseResult {
  return { tool: c.tool, name: c.name, file: c.file, passed: problems.length === 0, problems, got };
}

/**
 * Runs the cases one after another, each on its fixture's files. The cases of one fixture share a copy, put back
 * to the fixture's files before each (what a case changed, created or removed is undone), so a language server
 * started for one case serves the next instead of starting cold; each case gets a fresh state directory.
 */
export async function runToolEvals(
  evalsDir: string,
  cases: readonly ToolEvalCase[],
  signal: AbortSignal,
  opener: CaseToolsOpener,
): Promise<ToolCaseResult[]> {
  const fixtures = join(evalsDir, 'fixtures');
  const copies = new Map<string, { copy: FixtureCopy; tree: FixtureTree }>();
  const results: ToolCaseResult[] = [];
  try {
    for (const c of cases) {
      // Ctrl-C: the cases run so far are reported.
      if (signal.aborted) break;
      const key = c.fixture ?? '';
      let used = copies.get(key);
      let restored: string[] = [];
      if (used) {
        const { copy, tree } = used;
        try {
          restored = await restoreFixture(copy.root, tree);
          // Synchronous: the directory is small, and an asynchronous round trip per call cost more than the work.
          rmSync(copy.stateDir, { recursive: true, force: true });
          mkdirSync(copy.stateDir);
        } catch {
          // A case left something that cannot be put back (a directory it made unreadable): a fresh copy.
          copies.delete(key);
          await copy.dispose();
          used = undefined;
        }
      }
      if (!used) {
        const source = c.fixture === undefined ? undefined : await fixtureDir(fixtures, c.fixture);
        const tree = await readTree(source);
        used = { copy: await copyFixture(fixtures, c.fixture), tree };
        copies.set(key, used);
      }
      const { root, stateDir } = used.copy;
      const result = await runToolCase(c, { root, stateDir, restored }, signal, opener);
      // The case Ctrl-C cut short did not fail: it is left out of the report, as the cases after it are.
      if (signal.aborted) break;
      results.push(result);
    }
  } finally {
    await opener.close();
    await Promise.all([...copies.values()].map(({ copy }) => copy.dispose()));
  }
  return results;
}

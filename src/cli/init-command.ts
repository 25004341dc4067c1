// `keel init`: analyses the workspace (project type, conventions, overview), asks the model once for a concise
// AGENTS.md with no tools offered, and writes it atomically, or updates the existing one after showing the diff.
import { readFile } from 'node:fs/promises';
import { cacheDir, stateDir } from '../config/paths.js';
import { ExitCode, KeelError } from '../core/errors.js';
import {
  AGENTS_FILE,
  agentsFileContent,
  diffCounts,
  INIT_SYSTEM_PROMPT,
  initPrompt,
} from '../project/agents-md.js';
import { extractConventions, formatConventions } from '../project/conventions.js';
import { detectProjectType, formatProjectType } from '../project/detect.js';
import { formatOverview, projectOverview } from '../project/overview.js';
import { scanProject } from '../project/scan.js';
import { writeFileAtomic } from '../tools/atomic-write.js';
import { fileChangeDiff } from '../tools/file-diff.js';
import { OVERVIEW_MAP_TOKENS } from '../tools/get-project-overview.js';
import { type CommandOutput, processOutput } from '../ui/command-output.js';
import type { GlobalOptions } from './global-options.js';
import { reportFailure, runExitCode } from './report.js';
import { startRun } from './run-options.js';
import { interruptSignal } from './signals.js';

export interface InitOptions extends GlobalOptions {
  dryRun?: boolean;
}

export async function initCommand(options: InitOptions, out: CommandOutput = processOutput): Promise<number> {
  const json = options.output !== 'text';
  try {
    const agent = await startRun(options, {
      // No tools are offered, so the mode decides nothing; restricted is the safest to name.
      mode: () => 'restricted',
      streamText: false,
      tools: [],
      systemPrompt: INIT_SYSTEM_PROMPT,
      printAnswer: false,
      dryRun: options.dryRun,
      // An analysis, not a conversation: nothing to resume, so no session (and no active marker) is kept.
      session: { save: false },
    });
    const target = await agent.workspace.resolve(AGENTS_FILE);
    const existing = await readFile(target, 'utf8').catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return undefined;
      throw error;
    });
    const interrupt = interruptSignal(agent.runner);
    try {
      const { signal } = interrupt;
      const { workspace } = agent;
      const scan = await scanProject(workspace.root, signal, undefined, (file) => workspace.secretLink(file));
      const analyses = {
        projectType: formatProjectType(await detectProjectType(scan), scan.truncated),
        conventions: formatConventions(await extractConventions(scan, { runner: agent.runner, signal })),
        overview: formatOverview(
          await projectOverview(scan, {
            signal,
            cacheDir: cacheDir(process.env),
            mapTokens: OVERVIEW_MAP_TOKENS,
          }),
        ),
      };
      agent.conversation.push({ role: 'user', content: initPrompt(analyses, existing) });
      const result = await agent.run(signal);
      if (result.reason !== 'done') return runExitCode(result, options.debug);
      const content = agentsFileContent(result.answer);
      if (content === '') {
        throw new KeelError(
          'empty_answer',
          ExitCode.failed,
          `the model's answer was empty; ${AGENTS_FILE} not written`,
          {
            hint: 'run keel init again, or try another model',
          },
        );
      }
      // With --output json the run's JSON object owns stdout; the summary goes to stderr.
      const say = json ? out.notice : out.print;
      const diff = existing === undefined ? undefined : fileChangeDiff(AGENTS_FILE, existing, content);
      if (existing === content) {
        say(`${AGENTS_FILE} is up to date\n`);
        return ExitCode.ok;
      }
      if (options.dryRun) {
        say(`${diff ?? content.trimEnd()}\n`);
        out.notice(`dry run: ${AGENTS_FILE} not written\n`);
        return ExitCode.ok;
      }
      // `keel undo` takes the write back, as it does a file tool's.
      await agent.checkpoint({
        callId: 'keel-init',
        tool: 'keel init',
        preview: { reads: [], writes: [target], summary: `write ${AGENTS_FILE}` },
      });
      await writeFileAtomic(target, content, {
        workspace: agent.workspace,
        signal,
        stateDir: stateDir(process.env),
      });
      if (diff === undefined) {
        say(`wrote ${AGENTS_FILE} (${content.split('\n').length - 1} lines)\n`);
      } else {
        const { added, removed } = diffCounts(diff);
        say(`${diff}\nupdated ${AGENTS_FILE} (+${added} -${removed})\n`);
      }
      return ExitCode.ok;
    } finally {
      interrupt.dispose();
      await agent.close().catch(() => {});
    }
  } catch (error) {
    return reportFailure(error, { debug: options.debug, json, out });
  }
}

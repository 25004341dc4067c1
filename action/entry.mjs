// The GitHub Action's logic (action.yml runs it): the task from the `prompt` input or a comment mentioning the
// trigger, `keel run` headless with the event as piped context, the answer to the job summary, the `answer`
// output and, when asked, a comment posted with `gh`. Plain Node, no dependencies, so it runs and tests as is.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { appendFileSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const DEFAULT_ASSOCIATIONS = 'OWNER,MEMBER,COLLABORATOR';

/** What started the workflow: the comment, review, issue or pull request it is about (any may be absent). */
function subject(event) {
  const item = event.issue ?? event.pull_request;
  const said = event.comment ?? event.review;
  return { item, said, text: said?.body ?? item?.body ?? '' };
}

/**
 * The task a mention asks for: the text after the trigger (`@keel fix the typo` → `fix the typo`); a bare mention
 * asks Keel to handle the issue or pull request itself. Undefined when the trigger is not mentioned.
 */
export function mentionedTask(event, trigger) {
  const { item, text } = subject(event);
  const escaped = trigger.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const match = new RegExp(`(^|\\s)${escaped}(?![\\w-])`, 'i').exec(text ?? '');
  if (!match) return undefined;
  const asked = text.slice(match.index + match[0].length).trim();
  if (asked) return asked;
  return item
    ? `Handle this ${event.pull_request || item.pull_request ? 'pull request' : 'issue'}.`
    : undefined;
}

/** Whether the mention's author may start Keel: by default only the repository's owner, members and collaborators. */
export function mayTrigger(event, allowed) {
  const { item, said } = subject(event);
  const association = (said ?? item)?.author_association;
  const list = allowed.split(',').map((name) => name.trim().toUpperCase());
  return list.includes('*') || (typeof association === 'string' && list.includes(association));
}

/** The event as context for the model: what it is about, not the whole payload (most of which is URLs and ids). */
export function eventContext(event, name, repository) {
  const { item, said } = subject(event);
  const context = {
    event: name,
    repository,
    ...(item
      ? {
          number: item.number,
          kind: event.pull_request || item.pull_request ? 'pull request' : 'issue',
          title: item.title,
          author: item.user?.login,
          body: item.body ?? '',
          url: item.html_url,
        }
      : {}),
    ...(event.pull_request?.head
      ? { head: event.pull_request.head.ref, base: event.pull_request.base?.ref }
      : {}),
    ...(said ? { comment: { author: said.user?.login, body: said.body ?? '' } } : {}),
  };
  return `GitHub event that started this run:\n${JSON.stringify(context, null, 2)}\n`;
}

/** `keel run`'s arguments for the inputs. */
export function keelArgs(inputs, prompt) {
  // --prompt=…: a task starting with a dash stays the task.
  const args = ['run', '--output', 'json', '--mode', inputs.mode || 'auto', `--prompt=${prompt}`];
  if (inputs.provider) args.push('--provider', inputs.provider);
  if (inputs.model) args.push('--model', inputs.model);
  if (inputs.baseUrl) args.push('--base-url', inputs.baseUrl);
  if (inputs.maxTurns) args.push('--max-turns', inputs.maxTurns);
  return args;
}

/** One `name=value` entry of $GITHUB_OUTPUT, multi-line safe: a delimiter the value cannot contain. */
export function outputEntry(name, value) {
  let delimiter;
  do delimiter = `keel_${randomBytes(8).toString('hex')}`;
  while (value.includes(delimiter));
  return `${name}<<${delimiter}\n${value}\n${delimiter}\n`;
}

function run(command, args, options) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { ...options, stdio: ['pipe', 'pipe', 'inherit'] });
    let stdout = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.on('error', (error) => resolve({ code: 127, stdout, error }));
    child.on('close', (code) => resolve({ code: code ?? 1, stdout }));
    child.stdin.on('error', () => {});
    child.stdin.end(options.input ?? '');
  });
}

function readInputs(env) {
  return {
    prompt: env.INPUT_PROMPT?.trim() ?? '',
    trigger: env.INPUT_TRIGGER?.trim() || '@keel',
    mode: env.INPUT_MODE?.trim() || 'auto',
    provider: env.INPUT_PROVIDER?.trim() ?? '',
    model: env.INPUT_MODEL?.trim() ?? '',
    baseUrl: env.INPUT_BASE_URL?.trim() ?? '',
    maxTurns: env.INPUT_MAX_TURNS?.trim() ?? '',
    comment: env.INPUT_COMMENT?.trim().toLowerCase() === 'true',
    associations: env.INPUT_ALLOWED_ASSOCIATIONS?.trim() || DEFAULT_ASSOCIATIONS,
  };
}

export async function main(env = process.env) {
  const inputs = readInputs(env);
  const event = env.GITHUB_EVENT_PATH ? JSON.parse(readFileSync(env.GITHUB_EVENT_PATH, 'utf8')) : {};
  const output = (name, value) =>
    env.GITHUB_OUTPUT && appendFileSync(env.GITHUB_OUTPUT, outputEntry(name, value));
  const summary = (text) => env.GITHUB_STEP_SUMMARY && appendFileSync(env.GITHUB_STEP_SUMMARY, text);
  let prompt = inputs.prompt;
  if (!prompt) {
    prompt = mentionedTask(event, inputs.trigger) ?? '';
    const skip = !prompt
      ? `no prompt input and no ${inputs.trigger} mention in the event: nothing to do`
      : !mayTrigger(event, inputs.associations)
        ? `the mention's author is not one of ${inputs.associations} (input allowed-associations)`
        : undefined;
    if (skip) {
      console.log(`keel: ${skip}`);
      output('answer', '');
      output('skipped', 'true');
      return 0;
    }
  }
  output('skipped', 'false');
  // gh's token is for the comment alone: Keel and whatever it runs never see it.
  const { GH_TOKEN: _token, ...keelEnv } = env;
  const keel = env.KEEL_BIN || join(dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'keel.js');
  const result = await run(process.execPath, [keel, ...keelArgs(inputs, prompt)], {
    cwd: env.GITHUB_WORKSPACE || process.cwd(),
    env: keelEnv,
    input: eventContext(event, env.GITHUB_EVENT_NAME ?? '', env.GITHUB_REPOSITORY ?? ''),
  });
  let report;
  try {
    report = JSON.parse(result.stdout.trim().split('\n').at(-1) ?? '');
  } catch {
    report = undefined;
  }
  const answer = typeof report?.answer === 'string' ? report.answer : '';
  output('answer', answer);
  output('reason', report?.reason ?? 'failed');
  const failure = report?.error ? `\n\n> **${report.reason}:** ${report.error.message}` : '';
  const usage = report?.usage
    ? ` · ${report.usage.input_tokens} in / ${report.usage.output_tokens} out tokens`
    : '';
  summary(
    `## Keel\n\n**Task:** ${prompt.split('\n')[0]}\n\n${answer || '_no answer_'}${failure}\n\n` +
      `<sub>${report?.reason ?? 'failed'} after ${report?.turns ?? 0} turns${usage}</sub>\n`,
  );
  let code = result.code;
  const { item } = subject(event);
  if (inputs.comment && answer && item?.number !== undefined) {
    const posted = await run(
      'gh',
      ['issue', 'comment', String(item.number), '--repo', env.GITHUB_REPOSITORY ?? '', '--body-file', '-'],
      { env, input: answer },
    );
    if (posted.code !== 0) {
      console.log(`::warning::keel: the comment could not be posted with gh (exit ${posted.code})`);
      code ||= 1;
    }
  }
  return code;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().then(
    (code) => {
      process.exitCode = code;
    },
    (error) => {
      console.log(`::error::keel: ${error instanceof Error ? error.message : error}`);
      process.exitCode = 1;
    },
  );
}

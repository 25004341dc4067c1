// The programs start-up is measured against (issue 20, item 8): the previous Keel build — a git ref of this
// repository built once into node_modules/.cache/keel-bench/prev-<sha> and reused — and codex. Each resolves to
// { command, args, label } to spawn, or { missing: 'why' } so its rows say n/a and the bench goes on.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { cp, mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join, resolve } from 'node:path';
import { keelLaunch } from './lib.mjs';

const lastLine = (text) => String(text).trim().split('\n').at(-1)?.slice(0, 160) ?? '';

/**
 * The previous Keel build: KEEL_BENCH_PREVIOUS (a git ref, or the path of a built dist/keel.js), else the ref in
 * bench/previous-build. A ref is built from `git archive` with this checkout's node_modules, once per commit.
 */
export async function previousBuild(root) {
  const spec =
    process.env.KEEL_BENCH_PREVIOUS?.trim() ||
    readFileSync(join(root, 'bench/previous-build'), 'utf8').trim();
  if (spec.endsWith('.js')) {
    const keel = resolve(spec);
    return existsSync(keel) ? { ...keelLaunch(keel), label: spec } : { missing: `${spec} not found` };
  }
  let sha;
  try {
    sha = execFileSync('git', ['rev-parse', '--verify', '--quiet', `${spec}^{commit}`], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'ignore'],
    })
      .toString()
      .trim();
  } catch {
    return { missing: `ref ${spec} not found; set KEEL_BENCH_PREVIOUS` };
  }
  const label = `${spec === sha ? sha.slice(0, 7) : spec}`;
  const cached = join(root, 'node_modules/.cache/keel-bench', `prev-${sha}`);
  const keel = join(cached, 'dist/keel.js');
  if (existsSync(keel)) return { ...keelLaunch(keel), label };
  // Built in the temp dir; only dist/ (and package.json) is kept, under node_modules so its require() finds the
  // packages it keeps external.
  const src = await mkdtemp(join(tmpdir(), 'keel-bench-prev-'));
  try {
    const unpack = spawnSync('sh', ['-c', `git archive --format=tar ${sha} | tar -x -C "${src}"`], {
      cwd: root,
      encoding: 'utf8',
    });
    if (unpack.status !== 0) return { missing: `git archive ${label} failed: ${lastLine(unpack.stderr)}` };
    await symlink(join(root, 'node_modules'), join(src, 'node_modules'));
    process.stderr.write(`bench: building the previous build ${label} (once; cached in ${cached})\n`);
    const built = spawnSync(process.execPath, ['scripts/build.mjs'], {
      cwd: src,
      encoding: 'utf8',
      timeout: 300_000,
    });
    if (built.status !== 0 || !existsSync(join(src, 'dist/keel.js')))
      return {
        missing: `build of ${label} failed: ${lastLine(built.stderr || built.stdout || built.error)}`,
      };
    await mkdir(cached, { recursive: true });
    await cp(join(src, 'dist'), join(cached, 'dist'), { recursive: true });
    await cp(join(src, 'package.json'), join(cached, 'package.json'));
    await writeFile(join(cached, 'REF'), `${spec} ${sha}\n`);
    return { ...keelLaunch(keel), label };
  } finally {
    await rm(src, { recursive: true, force: true });
  }
}

/** codex: KEEL_BENCH_CODEX (the path of its binary), else `codex` on PATH. */
export function findCodex() {
  const given = process.env.KEEL_BENCH_CODEX?.trim();
  const found = given
    ? existsSync(given) && given
    : (process.env.PATH ?? '')
        .split(delimiter)
        .map((dir) => join(dir, 'codex'))
        .find((path) => existsSync(path));
  if (!found) return { missing: given ? `${given} not found` : 'codex not found; set KEEL_BENCH_CODEX' };
  const version = spawnSync(found, ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  if (version.status !== 0) return { missing: `${found} --version failed: ${lastLine(version.stderr)}` };
  return { command: found, args: [], label: lastLine(version.stdout) || 'codex' };
}

/** A home for codex under node_modules/.cache (codex will not put its helper binaries under /tmp). */
export async function codexHome(root) {
  const base = join(root, 'node_modules/.cache/keel-bench');
  await mkdir(base, { recursive: true });
  return mkdtemp(join(base, 'codex-home-'));
}

/**
 * codex exec pointed at the scripted model server's Responses route: its own shell tool (exec_command) reads and
 * writes, in its workspace-write sandbox, stdin ignored.
 */
export function codexExecArgs(serverUrl, ws, prompt) {
  return [
    'exec',
    '--skip-git-repo-check',
    '-s',
    'workspace-write',
    '-C',
    ws,
    '-m',
    'gpt-5',
    '-c',
    'model_provider="local"',
    '-c',
    `model_providers.local={name="local",base_url="${serverUrl}/v1",wire_api="responses"}`,
    prompt,
  ];
}

/** The bench task as codex does it with its own tool: read with cat, write with printf, then done. */
export const codexScript = () => [
  { toolCalls: [{ name: 'exec_command', args: { cmd: 'cat notes.txt' } }] },
  {
    toolCalls: [{ name: 'exec_command', args: { cmd: "printf 'BUY MILK\\nCALL BOB\\n' > NOTES_UPPER.txt" } }],
  },
  { text: 'done' },
];

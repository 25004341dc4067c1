// Go files when gopls is missing but the go command is on PATH: `go vet ./...` over their module, for the check
// after a change and for get_diagnostics, with the user's GOFLAGS (a vendored module's -mod=vendor; go.mod is read-only by default
// since Go 1.16). Never a download (GOPROXY=off, GOTOOLCHAIN=local): a module whose dependencies are not in
// the module cache, or a go too old for it, is not checked here (the by-name note is).
import { spawn } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { Diagnostic } from '../code/language/service.js';
import { findOnPath } from '../exec/probe-cache.js';
import type { Changed } from './broken-imports.js';
import type { ToolContext } from './tool.js';

/** `./route.go:12:3: undefined: Route`: a compiler's or an analyzer's finding (`vet: ` before it from vet's own type check). */
const FINDING = /^(?:vet: )?(\S+?\.go):(\d+):(\d+): (.+)$/;

/** The folder holding the go.mod a workspace file belongs to (inside the workspace), or undefined. */
async function moduleRoot(root: string, file: string): Promise<string | undefined> {
  for (let dir = path.dirname(path.join(root, file)); ; dir = path.dirname(dir)) {
    if (
      await fs.access(path.join(dir, 'go.mod')).then(
        () => true,
        () => false,
      )
    )
      return dir;
    if (dir === root || !dir.startsWith(`${root}${path.sep}`)) return undefined;
  }
}

/** Runs `go vet` in `cwd`: its findings, or undefined when it could not check (no finding, yet a failure). */
function vet(go: string, cwd: string, signal: AbortSignal): Promise<string[] | undefined> {
  return new Promise((resolve) => {
    const child = spawn(go, ['vet', './...'], {
      cwd,
      signal,
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { ...process.env, GOPROXY: 'off', GOTOOLCHAIN: 'local' },
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < 1_000_000) stderr += chunk.toString('utf8');
    });
    child.on('error', () => resolve(undefined));
    child.on('close', (code) => {
      if (code === 0) return resolve([]);
      const found = stderr.split('\n').filter((line) => FINDING.test(line));
      resolve(found.length > 0 ? found : undefined);
    });
  });
}

/** The lines as diagnostics, workspace-relative. */
function diagnostics(lines: readonly string[], root: string, cwd: string): Diagnostic[] {
  return lines.map((line) => {
    const [, file, row, column, message] = FINDING.exec(line)!;
    return {
      path: path.relative(root, path.resolve(cwd, file!)).split(path.sep).join('/'),
      line: Number(row),
      column: Number(column),
      severity: 'error' as const,
      message: message!,
    };
  });
}

/** What go vet said after the change: its errors the change made, and a note of the others. */
export interface GoVetted {
  errors: Diagnostic[];
  note?: string;
}

/**
 * What `go vet` finds in the module of the first changed Go file after the change: the errors in the changed files
 * or naming a definition the change took away are the change's; any others are named in a note, as they may be
 * older (vet cannot see the module as it was: it reads files, not -overlay, before Go 1.21). Undefined when nothing
 * was checked (no Go file, no go command, no go.mod, a module go cannot build here).
 */
export async function goVetErrors(
  ctx: ToolContext,
  files: readonly Changed[],
  budgetMs: number,
  /** The definitions each changed file's old text had and its new one does not. */
  removed: (file: Changed) => readonly string[],
): Promise<GoVetted | undefined> {
  const changed = files.filter((f) => f.path.endsWith('.go'));
  const go = changed.length > 0 ? findOnPath('go', process.env.PATH) : undefined;
  if (!go) return undefined;
  const root = ctx.workspace.root;
  const cwd = await moduleRoot(root, changed[0]!.path);
  if (!cwd) return undefined;
  const signal = AbortSignal.any([ctx.signal, AbortSignal.timeout(budgetMs)]);
  const after = await vet(go, cwd, signal);
  if (!after) return undefined;
  const found = diagnostics(after, root, cwd);
  const paths = new Set(changed.map((f) => f.path));
  const names = [...new Set(changed.flatMap((f) => removed(f)))];
  const naming = names.length === 0 ? undefined : new RegExp(`\\b(${names.join('|')})\\b`);
  const ours = found.filter((d) => paths.has(d.path) || naming?.test(d.message) === true);
  const others = found.filter((d) => !ours.includes(d));
  if (others.length === 0) return { errors: ours };
  const first = others[0]!;
  return {
    errors: ours,
    note: `(go vet also reports ${others.length} error${others.length === 1 ? '' : 's'} this change may not have made, first ${first.path}:${first.line}: ${first.message})`,
  };
}

/** What go vet found in some Go files: their findings, the files it checked, and the others with why not. */
export interface GoVetReport {
  found: Diagnostic[];
  /** Its findings in the modules' other files. */
  elsewhere: Diagnostic[];
  checked: string[];
  unchecked: { path: string; why: string }[];
}

/**
 * The findings of `go vet` in `files` (workspace-relative Go files no language service reads), one vet per module;
 * undefined when the go command is not on PATH.
 */
export async function goVetFiles(
  ctx: ToolContext,
  files: readonly string[],
  budgetMs: number,
): Promise<GoVetReport | undefined> {
  const go = findOnPath('go', process.env.PATH);
  if (!go) return undefined;
  const root = ctx.workspace.root;
  const report: GoVetReport = { found: [], elsewhere: [], checked: [], unchecked: [] };
  const byModule = new Map<string, string[]>();
  for (const file of files) {
    const cwd = await moduleRoot(root, file);
    if (!cwd) report.unchecked.push({ path: file, why: 'no go.mod above it in the workspace' });
    else byModule.set(cwd, [...(byModule.get(cwd) ?? []), file]);
  }
  const signal = AbortSignal.any([ctx.signal, AbortSignal.timeout(budgetMs)]);
  for (const [cwd, paths] of byModule) {
    const lines = await vet(go, cwd, signal);
    if (ctx.signal.aborted) throw ctx.signal.reason;
    if (!lines) {
      const why = signal.aborted
        ? `go vet took over ${budgetMs / 1000} s`
        : 'go vet could not build its module here (dependencies not downloaded?)';
      report.unchecked.push(...paths.map((path) => ({ path, why })));
      continue;
    }
    const wanted = new Set(paths);
    for (const found of diagnostics(lines, root, cwd))
      (wanted.has(found.path) ? report.found : report.elsewhere).push(found);
    report.checked.push(...paths);
  }
  return report;
}

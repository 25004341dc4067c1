// One walk of a project for the init analyses: its files as git sees them (.gitignore honoured), without
// dependency and build directories, capped; plus small helpers to read the manifests among them.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { SKIPPED_DIRS, walkEntries, walkFiles } from './file-walk.js';

/** A project larger than this is described from its first files in name order, and the root's own files. */
export const MAX_SCANNED_FILES = 20_000;
/** Manifests and configs larger than this are not read (a lockfile is only noticed, never parsed). */
const MAX_READ_BYTES = 256 * 1024;

export interface ProjectScan {
  /** The directory analysed (absolute). */
  root: string;
  /** Paths relative to root, with `/`, in walk order. */
  files: string[];
  truncated: boolean;
  has(file: string): boolean;
  /** A file's text, or undefined when missing, unreadable, too large or a hard link to a secret file. */
  read(file: string): Promise<string | undefined>;
  /** A JSON (or JSONC) file's object, or undefined. */
  readJson(file: string): Promise<Record<string, unknown> | undefined>;
  /** The secret file a file is a hard link to (the workspace's `secretLink`): never read, nor indexed. */
  secretLink?: (absolute: string) => string | undefined;
}

export async function scanProject(
  root: string,
  signal: AbortSignal,
  limit = MAX_SCANNED_FILES,
  secretLink?: (absolute: string) => string | undefined,
): Promise<ProjectScan> {
  const files: string[] = [];
  let truncated = false;
  for await (const full of walkFiles(root, root, signal, (name) => SKIPPED_DIRS.has(name))) {
    if (files.length >= limit) {
      truncated = true;
      break;
    }
    files.push(path.relative(root, full).split(path.sep).join('/'));
  }
  // Cut short in name order, the walk missed the root's own files after the big directory (babel's packages/ hid
  // tsconfig.json and yarn.lock): they describe the project most, so they are always in.
  if (truncated) {
    const listed = new Set(files);
    for await (const entry of walkEntries(root, root, { signal, recursive: false })) {
      const rel = path.relative(root, entry.path).split(path.sep).join('/');
      if (entry.isFile && !listed.has(rel)) files.push(rel);
    }
  }
  const present = new Set(files);
  const texts = new Map<string, Promise<string | undefined>>();
  const read = (file: string): Promise<string | undefined> => {
    if (!present.has(file)) return Promise.resolve(undefined);
    let text = texts.get(file);
    if (!text) {
      text = readSmall(path.join(root, file), secretLink);
      texts.set(file, text);
    }
    return text;
  };
  return {
    root,
    files,
    truncated,
    has: (file) => present.has(file),
    read,
    ...(secretLink ? { secretLink } : {}),
    readJson: async (file) => {
      const text = await read(file);
      if (text === undefined) return undefined;
      try {
        const value: unknown = JSON.parse(stripJsonComments(text));
        return typeof value === 'object' && value !== null && !Array.isArray(value)
          ? (value as Record<string, unknown>)
          : undefined;
      } catch {
        return undefined;
      }
    },
  };
}

async function readSmall(
  file: string,
  secretLink: ((absolute: string) => string | undefined) | undefined,
): Promise<string | undefined> {
  const info = await fs.stat(file).catch(() => undefined);
  if (!info?.isFile() || info.size > MAX_READ_BYTES) return undefined;
  if (info.nlink > 1 && secretLink?.(file) !== undefined) return undefined;
  return fs.readFile(file, 'utf8').catch(() => undefined);
}

/** JSONC to JSON: comments and trailing commas removed, strings (which may hold `//`) left alone. */
export function stripJsonComments(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      const start = i;
      for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === '\\') i++;
      out += text.slice(start, i + 1);
    } else if (c === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') i++;
      out += '\n';
    } else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      i = end < 0 ? text.length : end + 1;
    } else out += c;
  }
  return out.replace(/,(\s*[}\]])/g, '$1');
}

/** The lines of a TOML or INI section (`[tool.ruff]`), up to the next header; '' when absent. */
export function tomlSection(text: string, header: string): string {
  const lines = text.split(/\r?\n/);
  const start = lines.findIndex((line) => line.trim() === `[${header}]`);
  if (start < 0) return '';
  const end = lines.findIndex((line, i) => i > start && /^\s*\[/.test(line));
  return lines.slice(start + 1, end < 0 ? undefined : end).join('\n');
}

/** `key = value` (TOML, INI, editorconfig) in a block of lines, quotes removed. */
export function keyValue(block: string, key: string): string | undefined {
  const escaped = key.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&');
  const match = new RegExp(`^\\s*${escaped}\\s*[=:]\\s*["']?([^"'#\\r\\n]*?)["']?\\s*(?:#.*)?$`, 'm').exec(
    block,
  );
  return match?.[1];
}

/** Object keys of a JSON value that may be an object. */
export function keysOf(value: unknown): string[] {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? Object.keys(value) : [];
}

/** Nested property of parsed JSON, or undefined. */
export function prop(value: unknown, ...keys: string[]): unknown {
  let current = value;
  for (const key of keys) {
    if (typeof current !== 'object' || current === null) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

/** Files at most `depth` directories below the root (0: the root itself) whose base name is `name`. */
export function filesNamed(scan: ProjectScan, name: string, depth = 2): string[] {
  const found = scan.files.filter((f) => {
    const parts = f.split('/');
    return parts.length - 1 <= depth && parts.at(-1) === name;
  });
  // Shallowest first, then by path: the root's own file is the one named, not the walk's first.
  const level = (f: string) => f.split('/').length;
  return found.sort((a, b) => level(a) - level(b) || (a < b ? -1 : a > b ? 1 : 0));
}

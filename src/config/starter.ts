// The starter config file: every key with its default and a one-line comment, written by `keel config init`.
import { randomBytes } from 'node:crypto';
import { link, mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { stringify } from 'yaml';
import * as z from 'zod';
import { ConfigError } from '../core/errors.js';
import { type ConfigLeaf, configGroups, configOutline } from './keys.js';

const header = [
  '# Keel configuration.',
  '# Precedence: command-line flags > environment variables > project file (<workspace>/.keel.yaml)',
  '# > this file > built-in defaults. Every key is optional; the values below are the defaults.',
  '# `keel config show` prints the merged result and where each value came from.',
];

function leafComment(leaf: ConfigLeaf): string {
  const options = leaf.schema instanceof z.ZodEnum ? ` (${leaf.schema.options.join(', ')})` : '';
  return `${leaf.description ?? ''}${options}`;
}

export function starterConfig(): string {
  const lines = [...header];
  const groups = new Map(configGroups().map((group) => [group.key, group]));
  for (const item of configOutline()) {
    const indent = '  '.repeat(item.depth);
    if (item.kind === 'group') {
      const description = groups.get(item.key)?.description;
      if (item.depth === 0) lines.push('');
      if (description) lines.push(`${indent}# ${description}`);
      lines.push(`${indent}${item.name}:`);
      continue;
    }
    const { leaf, name } = item;
    // Keys without a default are shown commented out, so the file still loads as-is.
    const entry =
      leaf.defaultValue === undefined ? `# ${name}:` : `${name}: ${stringify(leaf.defaultValue).trimEnd()}`;
    lines.push(`${indent}${entry}  # ${leafComment(leaf)}`);
  }
  return `${lines.join('\n')}\n`;
}

/** Writes the starter file atomically; an existing file is kept unless `force` is set. */
export async function writeStarterConfig(path: string, options: { force?: boolean } = {}): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const temporary = join(dirname(path), `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
  await writeFile(temporary, starterConfig(), { mode: 0o600 });
  try {
    if (options.force) {
      await rename(temporary, path);
      return;
    }
    // link() fails when the target exists, so a file created meanwhile is never clobbered.
    await link(temporary, path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') {
      throw new ConfigError(`config file already exists: ${path}`, {
        hint: 'use --force to overwrite it, or edit it directly',
      });
    }
    throw new ConfigError(`cannot write config file ${path}: ${(error as Error).message}`, { cause: error });
  } finally {
    await rm(temporary, { force: true });
  }
}

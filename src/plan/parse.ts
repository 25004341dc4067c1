// Reads a plan file (JSON, YAML or Markdown, by extension) into a Plan; problems become PlanErrors naming file and line.
import { readFile } from 'node:fs/promises';
import { extname } from 'node:path';
import { PlanError } from '../core/errors.js';
import { CONVERT_HINT, utf8Problem, utf16ToUtf8 } from '../core/utf8.js';
import { parseMarkdownPlan } from './markdown.js';
import type { Plan } from './plan.js';
import { parseJsonPlan, parseYamlPlan } from './structured.js';

export type { Plan, PlanContextEntry } from './plan.js';

const parsers: Record<string, (text: string, file: string) => Plan> = {
  '.json': parseJsonPlan,
  '.yaml': parseYamlPlan,
  '.yml': parseYamlPlan,
  '.md': parseMarkdownPlan,
  '.markdown': parseMarkdownPlan,
};

/** Parses plan text; the format follows the extension of `file`. */
export function parsePlan(text: string, file: string): Plan {
  const extension = extname(file).toLowerCase();
  const parse = parsers[extension];
  if (parse === undefined) {
    const shown = extension ? `\`${extension}\`` : 'no extension';
    throw new PlanError(`${file}: unknown plan format (${shown}): use .json, .yaml, .yml or .md`, {
      hint: 'rename the file to match its format',
    });
  }
  // A byte-order mark would otherwise break JSON.parse and shift YAML columns.
  return parse(text.replace(/^\uFEFF/, ''), file);
}

export async function loadPlan(file: string): Promise<Plan> {
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') {
      throw new PlanError(`plan file not found: ${file}`, {
        hint: 'check the path; it is relative to the current directory',
      });
    }
    if (code === 'EISDIR') {
      throw new PlanError(`plan file is a directory: ${file}`, {
        hint: 'point at a .json, .yaml or .md file',
      });
    }
    throw new PlanError(`cannot read plan file ${file}: ${code ?? String(error)}`, {
      hint: 'check the file permissions',
      cause: error,
    });
  }
  const utf8 = utf16ToUtf8(bytes) ?? bytes;
  const problem = utf8Problem(utf8);
  if (problem) {
    throw new PlanError(`plan file ${file} is not UTF-8 text: ${problem} is not valid UTF-8`, {
      hint: CONVERT_HINT,
    });
  }
  return parsePlan(utf8.toString('utf8'), file);
}

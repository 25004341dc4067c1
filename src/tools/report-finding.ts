// report_finding: how `keel review` receives findings — one validated call per problem (a malformed call is
// refused with the reason, so the model corrects it), plus, for models that write them in their answer instead,
// JSON lines read defensively. Severities are data: info < low < medium < high < critical.
import * as z from 'zod';
import { defineTool, ok, type Tool } from './tool.js';

export const SEVERITIES = ['info', 'low', 'medium', 'high', 'critical'] as const;
export type Severity = (typeof SEVERITIES)[number];

/** Words models use for the same levels. */
const ALIASES: Readonly<Record<string, Severity>> = {
  note: 'info',
  nit: 'info',
  suggestion: 'info',
  minor: 'low',
  warning: 'medium',
  moderate: 'medium',
  major: 'high',
  error: 'high',
  blocker: 'critical',
};

/** A severity as written (any case, or an alias), or undefined. */
export function severityOf(word: unknown): Severity | undefined {
  if (typeof word !== 'string') return undefined;
  const w = word.trim().toLowerCase();
  return (SEVERITIES as readonly string[]).includes(w) ? (w as Severity) : ALIASES[w];
}

export const severityRank = (s: Severity): number => SEVERITIES.indexOf(s);

export interface Finding {
  path: string;
  /** 1-based; 0 when the finding is about the file as a whole. */
  line: number;
  severity: Severity;
  message: string;
}

const schema = z.strictObject({
  path: z.string().trim().min(1).describe('workspace-relative file'),
  line: z.coerce.number().int().min(0).describe('1-based line in the new version; 0: whole file'),
  severity: z.preprocess((v) => severityOf(v) ?? v, z.enum(SEVERITIES)),
  message: z.string().trim().min(1).describe('the problem and the fix, one or two sentences'),
});

/** The tool of one review: each accepted finding goes to `report`. */
export function reportFindingTool(report: (finding: Finding) => void): Tool {
  return defineTool({
    name: 'report_finding',
    description: 'Report one problem in the change under review.',
    schema,
    safety: 'safe',
    async preview(args) {
      return { reads: [], writes: [], summary: `${args.path}:${args.line} ${args.severity}` };
    },
    async execute(args) {
      report({ path: args.path, line: args.line, severity: args.severity, message: args.message });
      return ok('recorded');
    },
  }) as Tool;
}

/** One finding from a parsed object, if it has the fields (line as a number or numeric string). */
function findingFrom(value: unknown): Finding | undefined {
  const parsed = schema.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}

/**
 * Findings written in an answer as JSON lines (or one JSON array, fenced or not). `unreadable` counts lines that
 * look like findings (start with `{`) but do not parse as one.
 */
export function findingsInText(text: string): { findings: Finding[]; unreadable: number } {
  const findings: Finding[] = [];
  let unreadable = 0;
  const body = text.replace(/```(?:json|jsonl)?\n?/g, '');
  const array = /^\s*\[[\s\S]*\]\s*$/.exec(body);
  if (array) {
    try {
      const values: unknown = JSON.parse(array[0]);
      if (Array.isArray(values)) {
        for (const v of values) {
          const f = findingFrom(v);
          if (f) findings.push(f);
          else unreadable += 1;
        }
        return { findings, unreadable };
      }
    } catch {
      // Not one array: read it line by line.
    }
  }
  for (const raw of body.split('\n')) {
    const line = raw.trim().replace(/,$/, '');
    if (!line.startsWith('{')) continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      unreadable += 1;
      continue;
    }
    const f = findingFrom(value);
    if (f) findings.push(f);
    else unreadable += 1;
  }
  return { findings, unreadable };
}

// A saved session as a document: Markdown, one self-contained HTML page (tool calls folded, diffs coloured, no
// external assets), or JSON (the summary, the messages and the events).
import { Marked, type Tokens } from 'marked';
import { formatCost } from '../core/cost.js';
import type { AgentEvent } from '../core/events.js';
import { describeImage, type Message } from '../core/messages.js';
import { type SessionRecord, sessionMessages } from './session-file.js';
import { type SessionSummary, summarize } from './session-summary.js';
import { subagentRuns } from './subagent-runs.js';

export type ExportFormat = 'md' | 'html' | 'json';

export function exportSession(record: SessionRecord, format: ExportFormat): string {
  if (format === 'json') {
    const { meta, events } = record;
    return `${JSON.stringify({ ...summarize(record), price: meta.price, messages: sessionMessages(record), events }, null, 2)}\n`;
  }
  return format === 'md' ? toMarkdown(record) : toHtml(record);
}

/** What the user saw of each tool call's result (a diff, a summary), by call id. */
function displays(events: readonly AgentEvent[]): Map<string, string> {
  const shown = new Map<string, string>();
  for (const e of events) if (e.type === 'tool_result' && e.parent === undefined) shown.set(e.id, e.display);
  return shown;
}

/** `[image: shot.png (image/png, 6 KB)]` per image a message carried (the bytes stay beside the session). */
const imageNotes = (m: Message): string[] =>
  m.role === 'user' || m.role === 'tool'
    ? (m.images ?? []).map((image) => `[image: ${describeImage(image)}]`)
    : [];

const fence = (text: string, lang = '') => {
  const ticks = '`'.repeat(Math.max(3, ...[...text.matchAll(/`+/g)].map((m) => m[0].length + 1)));
  return `${ticks}${lang}\n${text.replace(/\n$/, '')}\n${ticks}`;
};

function heading(s: SessionSummary): [title: string, where: string, when: string] {
  const cost = s.cost === undefined ? '' : ` · ${formatCost(s.cost, s.cost_partial)}`;
  const cached = s.cache_read_tokens > 0 ? ` (${s.cache_read_tokens} cached)` : '';
  return [
    `${s.title}`,
    `session ${s.id} · ${s.provider}/${s.model} · ${s.workspace}`,
    `${s.started} – ${s.updated} · ${s.turns} turn${s.turns === 1 ? '' : 's'} · ${s.input_tokens} in${cached} / ${s.output_tokens} out tokens${cost}`,
  ];
}

export function toMarkdown(record: SessionRecord): string {
  const out = markdownHeading(summarize(record));
  const subruns = subagentRuns(record.events);
  for (const m of sessionMessages(record)) out.push(...markdownMessage(m, subruns));
  return `${out.join('\n').trimEnd()}\n`;
}

/** The Markdown's first lines: the title, where and when; joined by newlines, as each message's lines are. */
export function markdownHeading(summary: SessionSummary): string[] {
  const [title, where, when] = heading(summary);
  return [`# ${title}`, '', `${where}  `, when, ''];
}

/** One message's lines in the Markdown, a blank one last; `subruns`: each task call's sub-agent work. */
export function markdownMessage(m: Message, subruns: ReadonlyMap<string, readonly string[]>): string[] {
  switch (m.role) {
    case 'system':
      return ['<details><summary>System prompt</summary>', '', fence(m.content), '', '</details>', ''];
    case 'user':
      return ['## User', '', m.content, ...imageNotes(m).map((note) => `\n${note}`), ''];
    case 'assistant': {
      const out = ['## Assistant', ''];
      if (m.reasoning) out.push(`> ${m.reasoning.replace(/\n/g, '\n> ')}`, '');
      if (m.content.trim()) out.push(m.content, '');
      for (const call of m.toolCalls ?? []) {
        out.push(`**${call.name}** \`${call.id}\``, '', fence(call.input, 'json'), '');
        const sub = subruns.get(call.id);
        if (sub) out.push('Sub-agent:', '', fence(sub.join('\n')), '');
      }
      return out;
    }
    case 'tool':
      return [
        `### Result of ${m.toolName}${m.isError ? ' (error)' : ''}`,
        '',
        fence(m.content),
        ...imageNotes(m),
        '',
      ];
  }
}

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

/** Links the page may carry: web, mail and in-page ones; anything else (javascript:, data:) stays plain text. */
const SAFE_HREF = /^(https?:|mailto:|#)/i;

/**
 * Markdown of the model's answers as HTML. The text is the model's, so it is untrusted: raw HTML is shown as text,
 * links keep only safe schemes, and images become links (the page loads nothing from outside).
 */
const markdown = new Marked({
  gfm: true,
  renderer: {
    html: (token: Tokens.HTML | Tokens.Tag) => escapeHtml(token.text),
    link(token: Tokens.Link) {
      const text = this.parser.parseInline(token.tokens);
      return SAFE_HREF.test(token.href) ? `<a href="${escapeHtml(token.href)}">${text}</a>` : text;
    },
    image: (token: Tokens.Image) =>
      SAFE_HREF.test(token.href)
        ? `<a href="${escapeHtml(token.href)}">${escapeHtml(token.text || token.href)}</a>`
        : escapeHtml(token.text),
  },
});

const renderMarkdown = (text: string): string => markdown.parse(text, { async: false });

/** A unified diff's lines coloured; any other text as is. Each line is a block, so colours span the width. */
function pre(text: string): string {
  const lines = text.split('\n').map((line) => {
    const cls = /^\+(?!\+\+)/.test(line)
      ? 'add'
      : /^-(?!--)/.test(line)
        ? 'del'
        : /^@@/.test(line)
          ? 'hunk'
          : '';
    return `<span${cls ? ` class="${cls}"` : ''}>${escapeHtml(line) || ' '}</span>`;
  });
  return `<pre>${lines.join('')}</pre>`;
}

const STYLE = `body{font:15px/1.5 system-ui,sans-serif;max-width:960px;margin:2em auto;padding:0 1em;color:#222;background:#fafafa}
header p{color:#666;margin:.2em 0}.msg{border-radius:8px;padding:.6em 1em;margin:1em 0;background:#fff;border:1px solid #ddd}
.user{background:#eef4ff;border-color:#c8d8f5}.role{font-weight:600;font-size:.85em;color:#555;text-transform:uppercase}
.reasoning{color:#777;font-style:italic;white-space:pre-wrap}.text{white-space:pre-wrap}.md>:first-child{margin-top:.2em}.md>:last-child{margin-bottom:.2em}
.md code{background:#f0f0f0;padding:0 .25em;border-radius:3px;font:13px ui-monospace,monospace}.md pre code{padding:0;background:none}
.md table{border-collapse:collapse}.md th,.md td{border:1px solid #ddd;padding:.2em .5em}
details{margin:.5em 0;border:1px solid #e3e3e3;border-radius:6px;padding:.3em .6em;background:#f6f6f6}
summary{cursor:pointer;font-family:ui-monospace,monospace}pre span{display:block}pre{overflow-x:auto;background:#f0f0f0;padding:.6em;border-radius:4px;font:13px/1.4 ui-monospace,monospace}
.add{color:#116329;background:#dafbe1}.del{color:#82071e;background:#ffebe9}.hunk{color:#0550ae}.error summary{color:#a00}`;

export function toHtml(record: SessionRecord): string {
  const [title, where, when] = heading(summarize(record));
  const shown = displays(record.events);
  const subruns = subagentRuns(record.events);
  const results = new Map<string, Extract<Message, { role: 'tool' }>>();
  const messages = sessionMessages(record);
  for (const m of messages) if (m.role === 'tool') results.set(m.toolCallId, m);
  const body: string[] = [];
  for (const m of messages) {
    if (m.role === 'system') {
      body.push(`<details><summary>System prompt</summary>${pre(m.content)}</details>`);
    } else if (m.role === 'user') {
      body.push(
        `<div class="msg user"><div class="role">User</div><div class="text">${escapeHtml([m.content, ...imageNotes(m)].join('\n'))}</div></div>`,
      );
    } else if (m.role === 'assistant') {
      const parts = [`<div class="role">Assistant</div>`];
      if (m.reasoning) parts.push(`<div class="reasoning">${escapeHtml(m.reasoning)}</div>`);
      if (m.content.trim()) parts.push(`<div class="md">${renderMarkdown(m.content)}</div>`);
      for (const call of m.toolCalls ?? []) {
        const result = results.get(call.id);
        const display = shown.get(call.id);
        const sub = subruns.get(call.id);
        // A change's diff is what a reader looks for: that call is shown unfolded.
        const open = display && /^@@/m.test(display) ? ' open' : '';
        parts.push(
          `<details class="${result?.isError ? 'error' : ''}"${open}><summary>${escapeHtml(call.name)} ${escapeHtml(call.input.slice(0, 120))}</summary>` +
            `${pre(call.input)}${sub ? pre(sub.join('\n')) : ''}${display ? pre(display) : ''}${result ? pre([result.content, ...imageNotes(result)].join('\n')) : ''}</details>`,
        );
      }
      body.push(`<div class="msg assistant">${parts.join('')}</div>`);
    }
  }
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title ?? '')}</title><style>${STYLE}</style></head>
<body><header><h1>${escapeHtml(title ?? '')}</h1><p>${escapeHtml(where ?? '')}</p><p>${escapeHtml(when ?? '')}</p></header>
${body.join('\n')}
</body></html>
`;
}

// The configured hooks as lines for `keel policy show`: event, match, command, timeout, and where they came from.
import type { HooksConfig } from '../config/extend-schema.js';

export function formatHooks(hooks: HooksConfig, sources: Readonly<Record<string, string>>): string {
  const lines: string[] = [];
  for (const [event, list] of Object.entries(hooks)) {
    if (list.length === 0) continue;
    lines.push(`  ${event} (${sources[`hooks.${event}`] ?? 'config'}):`);
    for (const hook of list) {
      const match = event === 'pre_tool' || event === 'post_tool' ? `match ${hook.match}  ` : '';
      lines.push(`    ${match}${hook.command}  (timeout ${hook.timeout_seconds}s)`);
    }
  }
  return lines.length === 0
    ? 'Hooks: none (config key `hooks`).'
    : ['Hooks (run without the policy; a pre_tool hook exiting 2 blocks the call):', ...lines].join('\n');
}

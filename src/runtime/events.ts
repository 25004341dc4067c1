// A run's event stream: the caller's consumers first (what renders the run), then the audit log, then the durable
// ones (the session store). Every command and file change, run or refused, is audited; read-only tools are not.
import { atPath, environmentError } from '../core/errors.js';
import { createEventStream, type EventSink, type EventStream } from '../core/events.js';
import { auditLogPath, createAuditLog } from '../safety/audit.js';
import type { Redactor } from '../safety/redact.js';
import type { ToolRegistry } from '../tools/registry.js';

export interface RunEventsOptions {
  /** What renders or watches the run, in order (the CLI's outputs; a library caller's own sink). */
  consumers: readonly EventSink[];
  /** Written after the audit log: the session store's sink. */
  durable?: readonly EventSink[];
  /** The audit log's place and what it leaves out; absent: nothing is audited (tool evals). */
  audit?: { stateDir: string; cwd: string; registry: ToolRegistry; redact: Redactor };
}

export function runEvents(options: RunEventsOptions): EventStream {
  const { audit } = options;
  const auditLog = audit
    ? createAuditLog({
        file: auditLogPath(audit.stateDir),
        cwd: audit.cwd,
        redact: audit.redact,
        audited: (name) => (audit.registry.get(name)?.safety ?? 'safe') !== 'safe',
        onError: (error) =>
          queueMicrotask(() =>
            events.emit({
              type: 'warning',
              message: `audit log not written: ${environmentError(atPath(error, auditLogPath(audit.stateDir)))?.message ?? (error instanceof Error ? error.message : String(error))}`,
            }),
          ),
      })
    : undefined;
  const events = createEventStream(
    ...options.consumers,
    ...(auditLog ? [auditLog] : []),
    ...(options.durable ?? []),
  );
  return events;
}

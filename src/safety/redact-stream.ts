// Redaction of an event stream (image bytes left out): every event through the redactor, and streamed text held back at a word's end, so a
// secret split across two deltas (`sk-ab` + `c123`) is redacted whole. A secret has no white space in it.
import { type AgentEvent, type EventSink, withoutImageData } from '../core/events.js';
import { type Redactor, redactDeep } from './redact.js';

type DeltaType = 'text_delta' | 'reasoning_delta';

export function redactingSink(sink: EventSink, redact: Redactor): EventSink {
  // The unfinished last word of each stream of deltas (its kind and, for a sub-agent's, its parent task call), with
  // the turn it belongs to: sub-agents running side by side never join each other's words.
  const held = new Map<string, { type: DeltaType; turn: number; parent?: string; text: string }>();
  const release = (type: DeltaType, text: string, turn: number, parent: string | undefined) => {
    if (text !== '')
      sink({ type, turn, delta: redactDeep(text, redact), ...(parent ? { parent } : {}) } as AgentEvent);
  };
  const flush = () => {
    for (const { type, turn, parent, text } of held.values()) release(type, text, turn, parent);
    held.clear();
  };
  return (event) => {
    if (event.type === 'text_delta' || event.type === 'reasoning_delta') {
      const key = `${event.type} ${event.parent ?? ''}`;
      const before = held.get(key);
      if (before && before.turn !== event.turn) {
        release(before.type, before.text, before.turn, before.parent);
        held.delete(key);
      }
      const text = (held.get(key)?.text ?? '') + event.delta;
      const cut = text.search(/\S*$/);
      held.set(key, {
        type: event.type,
        turn: event.turn,
        ...(event.parent ? { parent: event.parent } : {}),
        text: text.slice(cut),
      });
      release(event.type, text.slice(0, cut), event.turn, event.parent);
      return;
    }
    flush();
    // Image bytes stay out of what is printed for machines: the hash and size say which image it was.
    return sink(redactDeep(withoutImageData(event), redact));
  };
}

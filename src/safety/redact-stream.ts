// Redaction of an event stream (image bytes left out): every event through the redactor, and streamed text held back at a word's end, so a
// secret split across two deltas (`sk-ab` + `c123`) is redacted whole. A secret has no white space in it.
import { type AgentEvent, type EventSink, withoutImageData } from '../core/events.js';
import { type Redactor, redactDeep } from './redact.js';

type DeltaType = 'text_delta' | 'reasoning_delta';

export function redactingSink(sink: EventSink, redact: Redactor): EventSink {
  // The unfinished last word of each kind of delta, with the turn it belongs to.
  const held = new Map<DeltaType, { turn: number; text: string }>();
  const release = (type: DeltaType, text: string, turn: number) => {
    if (text !== '') sink({ type, turn, delta: redactDeep(text, redact) } as AgentEvent);
  };
  const flush = () => {
    for (const [type, { turn, text }] of held) release(type, text, turn);
    held.clear();
  };
  return (event) => {
    if (event.type === 'text_delta' || event.type === 'reasoning_delta') {
      const before = held.get(event.type);
      if (before && before.turn !== event.turn) flush();
      const text = (held.get(event.type)?.text ?? '') + event.delta;
      const cut = text.search(/\S*$/);
      held.set(event.type, { turn: event.turn, text: text.slice(cut) });
      release(event.type, text.slice(0, cut), event.turn);
      return;
    }
    flush();
    // Image bytes stay out of what is printed for machines: the hash and size say which image it was.
    return sink(redactDeep(withoutImageData(event), redact));
  };
}

// JSON lines: C1 controls and bidi overrides are escaped on the wire, and parse back to the same text.
import { describe, expect, it } from 'vitest';
import { jsonLine } from '../../src/ui/json-output.js';

describe('jsonLine', () => {
  it('escapes what a terminal would act on, keeping the value the same', () => {
    const value = { text: 'a\u202eb\u009bc\u0007\nd', ok: 'plain é' };
    const line = jsonLine(value);
    expect(line).toBe('{"text":"a\\u202eb\\u009bc\\u0007\\nd","ok":"plain é"}\n');
    expect(JSON.parse(line)).toEqual(value);
  });
});

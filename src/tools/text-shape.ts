// A text file's shape — byte-order mark, line endings, final newline — taken off before an edit and put back
// after, so an edit changes only what it says (a CRLF or CR file keeps its endings, a file without a final newline
// stays so).

/** A file's line break: LF, CRLF (Windows) or CR alone (classic Mac OS). */
export type LineEnding = '\n' | '\r\n' | '\r';

export interface TextShape {
  bom: boolean;
  /** Every line break is this one: the text is edited with LF and written back with it. Mixed endings: LF. */
  eol: LineEnding;
  finalNewline: boolean;
}

const BOM = '\uFEFF';

const count = (text: string, part: string): number => text.split(part).length - 1;

/** The file's line ending: CRLF when every LF follows a CR, CR when there is no LF but a CR, else LF. */
function lineEnding(text: string): LineEnding {
  const lf = count(text, '\n');
  const crlf = count(text, '\r\n');
  if (crlf > 0 && crlf === lf) return '\r\n';
  return lf === 0 && text.includes('\r') ? '\r' : '\n';
}

/** The text with LF line endings (when they were all CRLF, or all CR) and no BOM, and its shape. */
export function takeShape(raw: string): { body: string; shape: TextShape } {
  const bom = raw.startsWith(BOM);
  const text = bom ? raw.slice(1) : raw;
  const eol = lineEnding(text);
  const body = eol === '\n' ? text : text.replaceAll(eol, '\n');
  return { body, shape: { bom, eol, finalNewline: body.endsWith('\n') } };
}

/** Text the model sent, in the LF form a body of this shape is edited in: CRLF always, a lone CR in a CR file. */
export function toLf(text: string, shape: TextShape): string {
  const lf = text.replaceAll('\r\n', '\n');
  return shape.eol === '\r' ? lf.replaceAll('\r', '\n') : lf;
}

/** The edited body written back in the file's shape. */
export function putShape(body: string, shape: TextShape): string {
  let text = body;
  if (shape.finalNewline && text !== '' && !text.endsWith('\n')) text += '\n';
  if (!shape.finalNewline && text.endsWith('\n')) text = text.slice(0, -1);
  if (shape.eol !== '\n') text = text.replaceAll('\n', shape.eol);
  return shape.bom ? BOM + text : text;
}

// A text file's shape — byte-order mark, line endings, final newline — taken off before an edit and put back
// after, so an edit changes only what it says (a CRLF file stays CRLF, a file without a final newline stays so).

export interface TextShape {
  bom: boolean;
  /** Every line break is CRLF: the text is edited with LF and written back with CRLF. */
  crlf: boolean;
  finalNewline: boolean;
}

const BOM = '\uFEFF';

/** The text with LF line endings (when it was all CRLF) and no BOM, and its shape. */
export function takeShape(raw: string): { body: string; shape: TextShape } {
  const bom = raw.startsWith(BOM);
  const text = bom ? raw.slice(1) : raw;
  const crlfCount = text.split('\r\n').length - 1;
  const lfCount = text.split('\n').length - 1;
  const crlf = crlfCount > 0 && crlfCount === lfCount;
  const body = crlf ? text.replaceAll('\r\n', '\n') : text;
  return { body, shape: { bom, crlf, finalNewline: body.endsWith('\n') } };
}

/** Text the model sent, in the LF form bodies are edited in. */
export const toLf = (text: string): string => text.replaceAll('\r\n', '\n');

/** The edited body written back in the file's shape. */
export function putShape(body: string, shape: TextShape): string {
  let text = body;
  if (shape.finalNewline && text !== '' && !text.endsWith('\n')) text += '\n';
  if (!shape.finalNewline && text.endsWith('\n')) text = text.slice(0, -1);
  if (shape.crlf) text = text.replaceAll('\n', '\r\n');
  return shape.bom ? BOM + text : text;
}

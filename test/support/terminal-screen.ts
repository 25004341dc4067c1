// What a terminal shows after some output: a small emulator of the sequences Keel writes (SGR styles, carriage
// return, newline, cursor up, erase below and erase line, deferred wrap at the width), so tests assert the screen
// a redrawn line leaves rather than the bytes that drew it.

/**
 * The screen's rows, each cell's style marked where it changes (`{1;4}Title{}`: bold and underlined, then plain);
 * trailing spaces and empty last rows dropped.
 */
export function terminalScreen(output: string, width = 1000): string {
  const rows: { char: string; style: string }[][] = [[]];
  let row = 0;
  let col = 0;
  let styles = new Map<string, string>();
  const style = () => [...styles.values()].join(';');
  const line = () => {
    while (rows.length <= row) rows.push([]);
    return rows[row]!;
  };
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the sequences are what this reads.
  for (const [token = '', params = '', final = ''] of output.matchAll(/\x1b\[([0-9;]*)([A-Za-z])|[\s\S]/gu)) {
    if (final === 'm') {
      for (const code of params.split(';')) {
        const n = Number(code || '0');
        if (n === 0) styles = new Map();
        else if (n === 22) for (const bold of ['1', '2']) styles.delete(bold);
        else if (n === 23 || n === 24) styles.delete(String(n - 20));
        else if (n === 39) styles.delete('fg');
        else if ((n >= 30 && n <= 37) || (n >= 90 && n <= 97)) styles.set('fg', String(n));
        else styles.set(String(n), String(n));
      }
    } else if (final === 'A') {
      row = Math.max(0, row - Number(params || '1'));
      col = Math.min(col, width - 1);
    } else if (final === 'J') {
      line().length = Math.min(line().length, col);
      rows.length = row + 1;
    } else if (final === 'K' && params === '2') {
      line().length = 0;
    } else if (final) {
      throw new Error(`terminalScreen: unexpected sequence ${JSON.stringify(token)}`);
    } else if (token === '\n') {
      row += 1;
      col = 0;
      line();
    } else if (token === '\r') {
      col = 0;
    } else {
      // Deferred wrap: a character past the last column goes to the next row.
      if (col >= width) {
        row += 1;
        col = 0;
      }
      const cells = line();
      while (cells.length < col) cells.push({ char: ' ', style: '' });
      cells[col] = { char: token, style: style() };
      col += 1;
    }
  }
  const text = rows.map((cells) => {
    while (cells.at(-1)?.char === ' ') cells.pop();
    let out = '';
    let current = '';
    for (const cell of cells) {
      if (cell.style !== current && cell.char !== ' ') {
        out += `{${cell.style}}`;
        current = cell.style;
      }
      out += cell.char;
    }
    return current ? `${out}{}` : out;
  });
  while (text.length > 1 && text.at(-1) === '') text.pop();
  return text.join('\n');
}

// Writes test/durations.json (each test file's duration in ms, from a `vitest run --reporter=json --outputFile=F`
// report of a quiet run) for test/support/sequencer.ts, which starts the slowest files first on a fresh clone.
import { readFileSync, writeFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';

const report = process.argv[2];
if (!report) {
  process.stderr.write('usage: node scripts/test-durations.mjs <vitest-json-report>\n');
  process.exit(2);
}
const root = resolve(import.meta.dirname, '..');
const { testResults } = JSON.parse(readFileSync(report, 'utf8'));
const durations = Object.fromEntries(
  testResults
    .map((t) => [relative(root, t.name), Math.round(t.endTime - t.startTime)])
    // A report from another clone: its paths from their test/ (or src/) folder on.
    .map(([path, ms]) => [path.startsWith('..') ? path.replace(/^.*?\/(?=(test|src)\/)/, '') : path, ms])
    .sort((a, b) => b[1] - a[1]),
);
writeFileSync(resolve(root, 'test/durations.json'), `${JSON.stringify(durations, null, 2)}\n`);

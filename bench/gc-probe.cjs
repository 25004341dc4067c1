// Preloaded (NODE_OPTIONS=--require) into the Keel process of the bench's 1,000-turn run: on SIGUSR2 it runs a full
// garbage collection and appends the memory left after it to $KEEL_BENCH_PROBE, one JSON line. RSS sampled at a
// random moment mostly measures how much garbage V8 let pile up before its next collection (±40 MiB); after a full
// collection it measures what the run holds. The flag is set only when asked, so start-up and the code cache are
// as in any run.
const { appendFileSync } = require('node:fs');
const { setFlagsFromString } = require('node:v8');
const { runInNewContext } = require('node:vm');

let gc;
process.on('SIGUSR2', () => {
  if (!gc) {
    setFlagsFromString('--expose-gc');
    gc = runInNewContext('gc');
  }
  gc();
  const { rss, heapUsed, external } = process.memoryUsage();
  appendFileSync(process.env.KEEL_BENCH_PROBE, `${JSON.stringify({ rss, heapUsed, external })}\n`);
});

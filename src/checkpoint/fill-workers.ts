// Runs a fill's jobs (fill-job.ts): on worker threads, one a core, for a big fill, so reading, hashing and deflating a
// big tree's files use every core while the main thread only writes the pack; in-process, a job at a time with the
// event loop given back between them, for a small one (a worker costs more to start than it would save) or when a
// worker cannot run.
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import * as zlib from 'node:zlib';
import { whenIdle } from '../core/foreground.js';
import { type FillJob, type FillResult, fillJob } from './fill-job.js';

/** Fewer paths than this are filled in-process. */
export const WORKER_AT = 4000;
const MAX_WORKERS = 4;
/** Paths a job: a worker's share of work between two messages; in-process, about 5 ms of work. */
const WORKER_JOB = 500;
const LOCAL_JOB = 100;

const lib = { fs, crypto, zlib };

/** A worker's whole program: the job function, as text, and a loop answering each job with its result. */
const workerSource = () =>
  [
    "const { parentPort } = require('node:worker_threads');",
    "const lib = { fs: require('node:fs'), crypto: require('node:crypto'), zlib: require('node:zlib') };",
    `const fillJob = ${fillJob.toString()};`,
    'parentPort.on("message", (job) => parentPort.postMessage(fillJob(job, lib)));',
  ].join('\n');

function split(base: Omit<FillJob, 'start' | 'paths'>, paths: readonly string[], size: number): FillJob[] {
  const jobs: FillJob[] = [];
  for (let i = 0; i < paths.length; i += size)
    jobs.push({ ...base, start: i, paths: paths.slice(i, i + size) });
  return jobs;
}

/** The part of a job its result left undone (it stopped early to bound its memory), or undefined. */
function rest(job: FillJob, result: FillResult): FillJob | undefined {
  if (result.count >= job.paths.length) return undefined;
  return { ...job, start: job.start + result.count, paths: job.paths.slice(result.count) };
}

/**
 * `workers`: at most this many threads (fewer than 2: in-process); `workerAt`: fewer paths are filled in-process;
 * `signal`: once aborted, no further job starts and the fill rejects with its reason.
 */
export interface FillThreads {
  workers?: number;
  workerAt?: number;
  signal?: AbortSignal;
}

/**
 * Looks at every path (hashing and deflating each file), handing each job's result to `take` as it comes, in no
 * particular order. Resolves with the number of jobs worker threads did.
 */
export async function runFill(
  base: Omit<FillJob, 'start' | 'paths'>,
  paths: readonly string[],
  take: (result: FillResult) => void,
  options: FillThreads = {},
): Promise<number> {
  const count = Math.min(options.workers ?? MAX_WORKERS, availableParallelism());
  const threads = paths.length >= (options.workerAt ?? WORKER_AT) && count > 1;
  const queue = split(base, paths, threads ? WORKER_JOB : LOCAL_JOB);
  const threaded = threads ? await inWorkers(queue, take, count, options.signal) : 0;
  // What workers left (none could start, or one failed): here.
  while (queue.length > 0) {
    options.signal?.throwIfAborted();
    await whenIdle(options.signal);
    if (queue.length === 0) break;
    const job = queue.shift() as FillJob;
    const result = fillJob(job, lib);
    take(result);
    const left = rest(job, result);
    if (left) queue.unshift(left);
    await new Promise((resolve) => setImmediate(resolve));
  }
  return threaded;
}

/** Runs jobs from the queue on `count` workers until it is empty or a worker fails (its job goes back). */
async function inWorkers(
  queue: FillJob[],
  take: (result: FillResult) => void,
  count: number,
  signal: AbortSignal | undefined,
): Promise<number> {
  const source = workerSource();
  let done = 0;
  const workers: Worker[] = [];
  let failed = false;
  const loop = async () => {
    let worker: Worker;
    try {
      worker = new Worker(source, { eval: true });
    } catch {
      failed = true;
      return;
    }
    workers.push(worker);
    while (!failed && queue.length > 0 && !signal?.aborted) {
      // A tool call the model waits for goes first: the next job starts once it is done.
      await whenIdle(signal).catch(() => {});
      if (failed || queue.length === 0 || signal?.aborted) break;
      const job = queue.shift() as FillJob;
      let result: FillResult;
      try {
        result = await new Promise<FillResult>((resolve, reject) => {
          const fail = (error: unknown) => {
            worker.off('message', done);
            reject(error);
          };
          const done = (message: FillResult) => {
            worker.off('error', fail);
            worker.off('exit', fail);
            resolve(message);
          };
          worker.once('message', done);
          worker.once('error', fail);
          worker.once('exit', fail);
          worker.postMessage(job);
        });
      } catch {
        // The job goes back to the queue, for the main thread.
        queue.unshift(job);
        failed = true;
        return;
      }
      // Outside the try: an error writing the pack is the fill's, not a worker's.
      take(result);
      done++;
      const left = rest(job, result);
      if (left) queue.unshift(left);
    }
  };
  try {
    await Promise.all(Array.from({ length: count }, loop));
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
  return done;
}

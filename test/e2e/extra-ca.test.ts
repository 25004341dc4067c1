// NODE_EXTRA_CA_CERTS through the `keel` command (scripts/launcher.sh, src/cli/extra-ca.ts): Node starts without it
// (its ~40 ms parse at start-up), yet Keel's TLS connections trust its certificates as Node's would, and the
// processes Keel starts get the variable as the user set it. Real TLS on loopback, with a CA made by openssl here.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { buildSync } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keelCommand, keelTestEnv } from '../support/cli.js';
import { toolMessages } from '../support/e2e.js';
import { type ModelServer, startModelServer } from '../support/model-server.js';

const root = resolve(import.meta.dirname, '../..');
let dir: string;
let caFile: string;
let tls: Server;
let tlsUrl: string;
/** TLS connections the server completed. */
let tlsConnections = 0;
let upstream: ModelServer | undefined;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'keel-extra-ca-'));
  // A CA of our own and a certificate for 127.0.0.1 signed by it (P-256: quick to make).
  const ssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  ssl(
    'req',
    '-x509',
    ...ec,
    '-keyout',
    'ca.key',
    '-out',
    'ca.pem',
    '-days',
    '2',
    '-subj',
    '/CN=Keel Test CA',
  );
  ssl('req', ...ec, '-keyout', 'server.key', '-out', 'server.csr', '-subj', '/CN=127.0.0.1');
  await writeFile(join(dir, 'san.ext'), 'subjectAltName=IP:127.0.0.1\n');
  ssl(
    'x509',
    '-req',
    '-in',
    'server.csr',
    '-CA',
    'ca.pem',
    '-CAkey',
    'ca.key',
    '-CAcreateserial',
    '-out',
    'server.pem',
    '-days',
    '2',
    '-extfile',
    'san.ext',
  );
  caFile = join(dir, 'ca.pem');
  // The TLS server hands each request to the scripted model server of the test running (over plain HTTP).
  tls = createServer(
    { key: await readFile(join(dir, 'server.key')), cert: await readFile(join(dir, 'server.pem')) },
    (req, res) => {
      if (!upstream) return res.writeHead(503).end();
      const forward = httpRequest(
        `${upstream.url}${req.url}`,
        { method: req.method, headers: req.headers },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      req.pipe(forward);
    },
  );
  tls.on('secureConnection', () => tlsConnections++);
  await new Promise<void>((done) => tls.listen(0, '127.0.0.1', done));
  tlsUrl = `https://127.0.0.1:${(tls.address() as AddressInfo).port}`;
});

afterAll(async () => {
  tls?.closeAllConnections();
  await new Promise((done) => tls?.close(done));
  await upstream?.close();
  await rm(dir, { recursive: true, force: true });
});

/** Runs the `keel` command (the shell launcher, as npm links it) with `env` over the test environment. */
async function keel(args: string[], env: Record<string, string | undefined>, cwd: string) {
  const home = await mkdtemp(join(dir, 'home-'));
  const child = spawn(keelCommand, args, {
    cwd,
    env: keelTestEnv(home, { env }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const code = await new Promise<number | null>((done) => child.on('close', done));
  return { code, stdout, stderr };
}

/** `keel run` against the scripted model server behind the TLS server, as an OpenAI-compatible provider. */
const tlsRun = (prompt: string, env: Record<string, string | undefined>, cwd: string) =>
  keel(
    [
      'run',
      '--provider',
      'openai-compatible',
      '--base-url',
      `${tlsUrl}/v1`,
      '--model',
      'm',
      '--prompt',
      prompt,
    ],
    env,
    cwd,
  );

describe('NODE_EXTRA_CA_CERTS through the keel command', () => {
  it('runs through the links npm makes to it (relative, one to another), from anywhere, and as JavaScript', async () => {
    const lib = await mkdtemp(join(dir, 'lib-'));
    await symlink(keelCommand, join(lib, 'keel'));
    const bin = await mkdtemp(join(dir, 'bin-'));
    await symlink(join('..', basename(lib), 'keel'), join(bin, 'keel'));
    const r = await keel(['--version'], { PATH: `${bin}:${process.env.PATH}` }, dir);
    expect(r).toMatchObject({
      code: 0,
      stdout: `${JSON.parse(await readFile(join(root, 'package.json'), 'utf8')).version}\n`,
    });
    const linked = spawn('keel', ['--version'], {
      cwd: tmpdir(),
      env: { ...process.env, PATH: `${bin}:${process.env.PATH}` },
    });
    let out = '';
    linked.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    expect(await new Promise((done) => linked.on('close', done))).toBe(0);
    expect(out).toBe(r.stdout);
    // The command is JavaScript too: `node dist/keel` (as a harness that runs a package's bin with node does) works.
    const asJs = spawn(process.execPath, [join(bin, 'keel'), 'run', '--help'], { cwd: tmpdir() });
    let help = '';
    asJs.stdout.setEncoding('utf8').on('data', (d: string) => (help += d));
    expect(await new Promise((done) => asJs.on('close', done))).toBe(0);
    expect(help).toMatch(/^Usage: keel run/);
  });

  it('trusts the extra CA for the model over HTTPS, and commands get the variable as the user set it', async () => {
    upstream = await startModelServer({
      script: [
        { toolCalls: [{ name: 'execute_command', args: { command: 'env | grep CA_CERTS || echo none' } }] },
        { text: 'done' },
      ],
    });
    const ws = await mkdtemp(join(dir, 'ws-'));
    tlsConnections = 0;
    const r = await tlsRun('env', { NODE_EXTRA_CA_CERTS: caFile }, ws);
    expect(r.stderr).not.toMatch(/certificate/i);
    expect(r.code).toBe(0);
    expect(upstream.requests).toHaveLength(2);
    // One connection, opened while the run was assembled (preconnect, with the extra CA) and kept for both requests.
    expect(tlsConnections).toBe(1);
    const shown = toolMessages(upstream.requests[1]!.body).join('\n');
    expect(shown).toContain(`NODE_EXTRA_CA_CERTS=${caFile}`);
    expect(shown).not.toContain('KEEL_NODE_EXTRA_CA_CERTS');
    await upstream.close();
    upstream = undefined;
  });

  it('without the extra CA the same server is refused: the certificate is what made it work', async () => {
    upstream = await startModelServer({ script: [{ text: 'done' }] });
    const ws = await mkdtemp(join(dir, 'ws-'));
    const r = await tlsRun('hi', { NODE_EXTRA_CA_CERTS: undefined, KEEL_RETRY_BASE_MS: '0' }, ws);
    expect(r.code).not.toBe(0);
    expect(upstream.requests).toHaveLength(0);
    await upstream.close();
    upstream = undefined;
  });
});

describe('restoreExtraCa in a process of its own', () => {
  // The module alone, bundled as the CLI bundles it, in a node started the way the launcher starts it.
  const probe = async (file: string, lines: string) => {
    const bundle = join(dir, 'extra-ca.cjs');
    buildSync({
      entryPoints: [join(root, 'src/cli/extra-ca.ts')],
      bundle: true,
      platform: 'node',
      format: 'cjs',
      outfile: bundle,
      define: { 'import.meta.url': '__url' },
      banner: { js: "var __url=require('node:url').pathToFileURL(__filename).href;" },
      logLevel: 'silent',
    });
    const script = join(dir, 'probe.cjs');
    await writeFile(
      script,
      `const { restoreExtraCa } = require(${JSON.stringify(bundle)});
const url = process.argv[2];
const outcome = (p) => p.then((s) => 'ok ' + s, (e) => 'failed ' + (e.cause?.code ?? e.code ?? e.message));
const get = (options) => new Promise((done, fail) => require('node:https').get(url, options, (r) => { r.resume(); done(r.statusCode); }).on('error', fail));
(async () => {
  const out = { restored: restoreExtraCa(), env: process.env.NODE_EXTRA_CA_CERTS ?? null, handed: process.env.KEEL_NODE_EXTRA_CA_CERTS ?? null };
  ${lines}
  console.log(JSON.stringify(out));
})();`,
    );
    const { NODE_EXTRA_CA_CERTS: _, ...env } = process.env;
    const child = spawn(process.execPath, [script, `${tlsUrl}/api/version`], {
      env: { ...env, KEEL_NODE_EXTRA_CA_CERTS: file },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    await new Promise((done) => child.on('close', done));
    return { out: JSON.parse(stdout || '{}') as Record<string, unknown>, stderr };
  };

  it('fetch, https and tls connections trust the extra CA; an explicit ca replaces the roots, as in Node', async () => {
    upstream = await startModelServer({ script: [] });
    const { out, stderr } = await probe(
      caFile,
      `out.fetch = await outcome(fetch(url).then((r) => r.status));
  out.https = await outcome(get({}));
  out.agent = await outcome(get({ agent: new (require('node:https').Agent)({ keepAlive: true }) }));
  out.explicitCa = await outcome(get({ ca: require('node:tls').rootCertificates }));`,
    );
    expect(stderr).toBe('');
    expect(out).toMatchObject({
      restored: true,
      env: caFile,
      handed: null,
      fetch: 'ok 200',
      https: 'ok 200',
      agent: 'ok 200',
      explicitCa: 'failed UNABLE_TO_VERIFY_LEAF_SIGNATURE',
    });
    await upstream.close();
    upstream = undefined;
  });

  it('a file it cannot use is the warning Node gives, and connections go on without it', async () => {
    upstream = await startModelServer({ script: [] });
    const missing = join(dir, 'missing.pem');
    const { out, stderr } = await probe(
      missing,
      'out.fetch = await outcome(fetch(url).then((r) => r.status));',
    );
    expect(out).toMatchObject({ restored: true, env: missing, fetch: expect.stringMatching(/^failed /) });
    expect(stderr).toContain(`Ignoring extra certs from \`${missing}\`, load failed`);
    // One that reads but holds no certificate is said when it is first needed.
    const garbage = join(dir, 'garbage.pem');
    await writeFile(garbage, 'not a certificate\n');
    const second = await probe(garbage, 'out.fetch = await outcome(fetch(url).then((r) => r.status));');
    expect(second.out).toMatchObject({ restored: true, fetch: expect.stringMatching(/^failed /) });
    expect(second.stderr).toBe(
      `Warning: Ignoring extra certs from \`${garbage}\`, load failed: no PEM certificate in it\n`,
    );
    await upstream.close();
    upstream = undefined;
  });
});

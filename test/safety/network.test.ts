// Tests for where web tools may connect: the address classifier, the check of a host's resolved addresses, the
// domain allow list, the network kind of action in each mode and the per-domain "always".
import { describe, expect, test } from 'vitest';
import { configSchema, type KeelConfig } from '../../src/config/schema.js';
import { approvalBinding } from '../../src/safety/approval-memory.js';
import { checkedAddresses, domainListed, hostOf, privateReason } from '../../src/safety/network.js';
import { createPolicy, type ExecutionMode } from '../../src/safety/policy.js';
import { openWorkspace } from '../../src/safety/workspace.js';

describe('privateReason', () => {
  test.each([
    ['127.0.0.1', 'a loopback address'],
    ['127.255.1.2', 'a loopback address'],
    ['10.1.2.3', 'a private address'],
    ['172.16.0.1', 'a private address'],
    ['172.31.255.255', 'a private address'],
    ['192.168.1.1', 'a private address'],
    ['100.64.0.1', 'a carrier-grade NAT address'],
    ['169.254.169.254', 'a link-local address'],
    ['0.0.0.0', 'an unspecified address'],
    ['224.0.0.1', 'a multicast address'],
    ['::1', 'a loopback address'],
    ['::', 'an unspecified address'],
    ['fe80::1', 'a link-local address'],
    ['fd12:3456::1', 'a unique-local address'],
    ['fc00::1', 'a unique-local address'],
    ['::ffff:127.0.0.1', 'a loopback address'],
    ['::ffff:7f00:1', 'a loopback address'],
    ['::ffff:10.0.0.1', 'a private address'],
    ['::ffff:a9fe:a9fe', 'a link-local address'],
    ['64:ff9b::c0a8:101', 'a private address'],
    ['[::1]', 'a loopback address'],
    ['fe80::1%eth0', 'a link-local address'],
    ['example.com', 'not an IP address'],
  ])('%s is refused as %s', (address, reason) => {
    expect(privateReason(address)).toBe(reason);
  });

  test.each(['93.184.216.34', '8.8.8.8', '172.32.0.1', '100.128.0.1', '2606:4700::1111', '::ffff:8.8.8.8'])(
    '%s is public',
    (address) => {
      expect(privateReason(address)).toBeUndefined();
    },
  );
});

describe('checkedAddresses', () => {
  const lookup = async (host: string) =>
    host === 'mixed.test'
      ? [
          { address: '93.184.216.34', family: 4 },
          { address: '10.0.0.7', family: 4 },
        ]
      : [{ address: '93.184.216.34', family: 4 }];

  test('a host with one private address among its answers is refused', async () => {
    await expect(checkedAddresses('mixed.test', { allowPrivate: false, lookup })).rejects.toThrow(
      /mixed\.test resolves to 10\.0\.0\.7, a private address/,
    );
  });

  test('allow_private lets private answers through', async () => {
    const found = await checkedAddresses('mixed.test', { allowPrivate: true, lookup });
    expect(found.map((a) => a.address)).toEqual(['93.184.216.34', '10.0.0.7']);
  });

  test('an IP literal is judged without resolving', async () => {
    const never = async () => {
      throw new Error('resolved');
    };
    await expect(checkedAddresses('[::1]', { allowPrivate: false, lookup: never })).rejects.toThrow(
      /loopback/,
    );
    expect(await checkedAddresses('8.8.8.8', { allowPrivate: false, lookup: never })).toEqual([
      { address: '8.8.8.8', family: 4 },
    ]);
  });
});

describe('domainListed and hostOf', () => {
  test.each([
    ['docs.python.org', ['python.org'], true],
    ['python.org', ['python.org'], true],
    ['evilpython.org', ['python.org'], false],
    ['python.org.evil.com', ['python.org'], false],
    ['api.github.com', ['*.github.com'], true],
    ['github.com', ['*.github.com'], false],
    ['Docs.Python.Org.', ['python.org'], true],
  ])('%s in %j: %s', (host, domains, listed) => {
    expect(domainListed(host, domains)).toBe(listed);
  });

  test.each([
    ['https://Example.com/a?b', 'example.com'],
    ['http://[::1]:8080/', '[::1]'],
    ['file:///etc/passwd', undefined],
    ['ftp://example.com/', undefined],
    ['not a url', undefined],
  ])('hostOf(%s) is %s', (url, host) => {
    expect(hostOf(url)).toBe(host);
  });
});

describe('the network kind of action', () => {
  const config: KeelConfig = configSchema.parse({ safety: { web: { allow_domains: ['python.org'] } } });
  const decide = async (mode: ExecutionMode, url: string) => {
    const policy = createPolicy({ mode, workspace: await openWorkspace(process.cwd()), config });
    const preview = { reads: [], writes: [], url, summary: `fetch ${url}` };
    return policy.decide({ tool: 'web_fetch', safety: 'caution', args: { url }, preview });
  };

  test.each([
    ['interactive', 'https://example.com/', 'ask'],
    ['interactive', 'https://docs.python.org/3/', 'allow'],
    ['restricted', 'https://example.com/', 'deny'],
    ['restricted', 'https://docs.python.org/3/', 'allow'],
    ['auto', 'https://example.com/', 'allow'],
    ['full', 'https://example.com/', 'allow'],
    ['full', 'file:///etc/passwd', 'deny'],
  ] as const)('%s mode: %s is %s', async (mode, url, verdict) => {
    expect((await decide(mode, url)).decision).toBe(verdict);
  });

  test('restricted mode names safety.web.allow_domains in its hint', async () => {
    const decision = await decide('restricted', 'https://example.com/x');
    expect(decision.reason).toBe('web_fetch connects to example.com');
    expect(decision.hint).toMatch(/safety\.web\.allow_domains/);
  });

  test('plan mode asks for a fetch as interactive does, and its hint says how to allow one (not "no changes")', async () => {
    const decision = await decide('plan', 'https://example.com/x');
    expect(decision.decision).toBe('ask');
    expect(decision.hint).toBe('add the domain to safety.web.allow_domains, or approve it in keel chat');
    expect((await decide('plan', 'https://docs.python.org/3/')).decision).toBe('allow');
  });

  test('a fetch is never read-only, so --dry-run reports it instead of fetching', async () => {
    expect((await decide('auto', 'https://example.com/')).readOnly).toBeUndefined();
  });

  test('"always" binds the domain, for every URL and web tool on it', async () => {
    const page = await approvalBinding('web_fetch', { writes: [], url: 'https://example.com/a' });
    const other = await approvalBinding('web_search', { writes: [], url: 'https://EXAMPLE.com/b?q=1' });
    const elsewhere = await approvalBinding('web_fetch', { writes: [], url: 'https://example.org/a' });
    expect(page).toEqual({ key: other.key, scope: 'web access to example.com' });
    expect(elsewhere.key).not.toBe(page.key);
  });
});

// Where web tools may connect: the address ranges refused unless safety.web.allow_private (as data), the check of
// every address a host name resolves to, and which domains a rule list names. Pure apart from the DNS lookup.
import { createRequire } from 'node:module';
import { BlockList, isIP } from 'node:net';

/** Ranges that reach this machine or a private network, never the public internet: [address, prefix, why]. */
const PRIVATE_RANGES: readonly (readonly [string, number, string])[] = [
  ['0.0.0.0', 8, 'an unspecified address'],
  ['127.0.0.0', 8, 'a loopback address'],
  ['10.0.0.0', 8, 'a private address'],
  ['172.16.0.0', 12, 'a private address'],
  ['192.168.0.0', 16, 'a private address'],
  ['100.64.0.0', 10, 'a carrier-grade NAT address'],
  ['169.254.0.0', 16, 'a link-local address'],
  ['192.0.0.0', 24, 'an IETF protocol address'],
  ['198.18.0.0', 15, 'a benchmarking address'],
  ['224.0.0.0', 4, 'a multicast address'],
  ['240.0.0.0', 4, 'a reserved address'],
  ['::', 128, 'an unspecified address'],
  ['::1', 128, 'a loopback address'],
  ['fc00::', 7, 'a unique-local address'],
  ['fe80::', 10, 'a link-local address'],
  ['fec0::', 10, 'a site-local address'],
  ['ff00::', 8, 'a multicast address'],
];

let ranges: { list: BlockList; why: string }[] | undefined;

/** Each range in its own list, so a match names its kind (BlockList also matches IPv4-mapped IPv6 forms). */
function privateRanges(): { list: BlockList; why: string }[] {
  ranges ??= PRIVATE_RANGES.map(([address, prefix, why]) => {
    const list = new BlockList();
    list.addSubnet(address, prefix, isIP(address) === 6 ? 'ipv6' : 'ipv4');
    return { list, why };
  });
  return ranges;
}

/** The IPv4 address an IPv6 one carries (::ffff:a.b.c.d, ::a.b.c.d, NAT64 64:ff9b::), to judge it as IPv4. */
function embeddedV4(address: string): string | undefined {
  const lower = address.toLowerCase();
  const dotted = /^(?:::(?:ffff:)?|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (dotted) return dotted[1];
  const hex = /^(?:::(?:ffff:)?|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower);
  if (!hex) return undefined;
  const high = Number.parseInt(hex[1]!, 16);
  const low = Number.parseInt(hex[2]!, 16);
  return [high >> 8, high & 255, low >> 8, low & 255].join('.');
}

/** Why an IP address is not a public one ("a loopback address"), or undefined when it is public. */
export function privateReason(address: string): string | undefined {
  const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const family = isIP(bare);
  if (family === 0) return 'not an IP address';
  if (family === 6) {
    const v4 = embeddedV4(bare);
    if (v4 !== undefined) return privateReason(v4);
  }
  const type = family === 6 ? 'ipv6' : 'ipv4';
  return privateRanges().find((r) => r.list.check(bare, type))?.why;
}

export interface ResolvedAddress {
  address: string;
  family: number;
}

/** Resolves a host name to all its addresses (node:dns lookup, as the OS does); injected in tests. */
export type HostLookup = (host: string) => Promise<ResolvedAddress[]>;

export const systemLookup: HostLookup = (host) =>
  new Promise((resolve, reject) => {
    // Loaded on a web tool's first lookup, not at start-up (require: the code-cached bundle has no import()).
    const dns = createRequire(import.meta.url)('node:dns') as typeof import('node:dns');
    dns.lookup(host, { all: true, verbatim: true }, (error, addresses) => {
      if (error) reject(error);
      else resolve(addresses);
    });
  });

/**
 * The addresses a host may be reached at: every address it resolves to must be public (one private answer is
 * enough for a rebinding trick), unless private ones are allowed. Throws with the reason otherwise.
 */
export async function checkedAddresses(
  host: string,
  options: { allowPrivate: boolean; lookup?: HostLookup; classify?: (address: string) => string | undefined },
): Promise<ResolvedAddress[]> {
  const bare = host.replace(/^\[|\]$/g, '');
  const family = isIP(bare);
  const addresses = family !== 0 ? [{ address: bare, family }] : await (options.lookup ?? systemLookup)(bare);
  if (addresses.length === 0) throw new Error(`${host} did not resolve to any address`);
  if (options.allowPrivate) return addresses;
  for (const { address } of addresses) {
    const why = (options.classify ?? privateReason)(address);
    if (why !== undefined) {
      throw new Error(
        `${host} resolves to ${address}, ${why}; web tools reach only public addresses (safety.web.allow_private: true allows others)`,
      );
    }
  }
  return addresses;
}

/** Whether a host is one of the domains (or a subdomain of one); `*.example.com` names subdomains only. */
export function domainListed(host: string, domains: readonly string[]): boolean {
  const name = host.toLowerCase().replace(/\.$/, '');
  return domains.some((entry) => {
    const domain = entry.toLowerCase().trim().replace(/\.$/, '');
    if (domain.startsWith('*.')) return name.endsWith(domain.slice(1));
    return name === domain || name.endsWith(`.${domain}`);
  });
}

/** The host name of an http(s) URL, lowercased; undefined for anything else. */
export function hostOf(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return undefined;
    return parsed.hostname.toLowerCase() || undefined;
  } catch {
    return undefined;
  }
}

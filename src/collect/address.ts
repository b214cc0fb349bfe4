/**
 * Which IP addresses the fetcher may connect to. Upstream sources are public web pages, so a
 * request that resolves to anything else (a private network, the machine itself, cloud metadata
 * at 169.254.169.254, ...) is refused: that is how a hostile redirect or DNS answer would turn
 * the collector into a proxy into our own network (SSRF). Ranges are from the IANA special-purpose
 * address registries (RFC 6890 and its updates):
 * https://www.iana.org/assignments/iana-ipv4-special-registry and
 * https://www.iana.org/assignments/iana-ipv6-special-registry
 */
import { isIPv4, isIPv6 } from "node:net";

export type AddressClass =
  | "public"
  | "loopback"
  | "private"
  | "link_local"
  | "unique_local"
  | "cgnat"
  | "unspecified"
  | "multicast"
  | "reserved"
  | "invalid";

/** Classifies an IPv4 or IPv6 literal (IPv6 may carry brackets or a zone id). */
export function classifyAddress(address: string): AddressClass {
  const bare = address.replace(/^\[|\]$/g, "").replace(/%.*$/, "");
  if (isIPv4(bare)) return classifyIPv4(ipv4Octets(bare));
  if (isIPv6(bare)) return classifyIPv6(ipv6Groups(bare));
  return "invalid";
}

/** True when the fetcher may connect to `address`; loopback only with the test-only switch. */
export function isAddressAllowed(address: string, options: { allowLoopback?: boolean } = {}): boolean {
  const kind = classifyAddress(address);
  return kind === "public" || (kind === "loopback" && options.allowLoopback === true);
}

function ipv4Octets(address: string): [number, number, number, number] {
  const [a, b, c, d] = address.split(".").map(Number);
  return [a ?? 0, b ?? 0, c ?? 0, d ?? 0];
}

function classifyIPv4([a, b, c]: [number, number, number, number]): AddressClass {
  if (a === 0) return "unspecified"; // 0.0.0.0/8 "this network"
  if (a === 127) return "loopback"; // 127.0.0.0/8
  if (a === 10) return "private"; // 10.0.0.0/8
  if (a === 172 && b >= 16 && b <= 31) return "private"; // 172.16.0.0/12
  if (a === 192 && b === 168) return "private"; // 192.168.0.0/16
  if (a === 100 && b >= 64 && b <= 127) return "cgnat"; // 100.64.0.0/10 shared address space
  if (a === 169 && b === 254) return "link_local"; // 169.254.0.0/16 (cloud metadata lives here)
  if (a >= 224 && a <= 239) return "multicast"; // 224.0.0.0/4
  if (a >= 240) return "reserved"; // 240.0.0.0/4 and the broadcast address
  if (a === 192 && b === 0 && c === 0) return "reserved"; // 192.0.0.0/24 IETF protocol assignments
  if (a === 192 && b === 0 && c === 2) return "reserved"; // 192.0.2.0/24 TEST-NET-1
  if (a === 198 && b === 51 && c === 100) return "reserved"; // 198.51.100.0/24 TEST-NET-2
  if (a === 203 && b === 0 && c === 113) return "reserved"; // 203.0.113.0/24 TEST-NET-3
  if (a === 198 && (b === 18 || b === 19)) return "reserved"; // 198.18.0.0/15 benchmarking
  return "public";
}

/** The eight 16-bit groups of a valid IPv6 literal (an embedded dotted quad is folded in). */
function ipv6Groups(address: string): number[] {
  let text = address.toLowerCase();
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted?.[1]) {
    const [a, b, c, d] = ipv4Octets(dotted[1]);
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = "", tail] = text.split("::");
  const headGroups = head ? head.split(":") : [];
  const tailGroups = tail === undefined ? [] : tail ? tail.split(":") : [];
  const zeros = tail === undefined ? [] : Array(8 - headGroups.length - tailGroups.length).fill("0");
  return [...headGroups, ...zeros, ...tailGroups].map((g) => Number.parseInt(g, 16));
}

function classifyIPv6(groups: number[]): AddressClass {
  const g = (i: number) => groups[i] ?? 0;
  const embeddedV4 = (hi: number, lo: number): [number, number, number, number] => [
    g(hi) >> 8,
    g(hi) & 0xff,
    g(lo) >> 8,
    g(lo) & 0xff,
  ];
  const firstSixZero = [0, 1, 2, 3, 4].every((i) => g(i) === 0);
  if (firstSixZero && g(5) === 0xffff) return classifyIPv4(embeddedV4(6, 7)); // ::ffff:a.b.c.d mapped
  if (firstSixZero && g(5) === 0 && g(6) === 0) {
    if (g(7) === 0) return "unspecified"; // ::
    if (g(7) === 1) return "loopback"; // ::1
  }
  if (firstSixZero && g(5) === 0) return "reserved"; // ::a.b.c.d, deprecated IPv4-compatible
  if (g(0) === 0x64 && g(1) === 0xff9b && [2, 3, 4, 5].every((i) => g(i) === 0))
    return classifyIPv4(embeddedV4(6, 7)); // 64:ff9b::/96 NAT64 names an IPv4 host
  if (g(0) === 0x64 && g(1) === 0xff9b && g(2) === 1) return "reserved"; // 64:ff9b:1::/48 local NAT64
  if (g(0) === 0x2002) return classifyIPv4(embeddedV4(1, 2)); // 2002::/16 6to4 names an IPv4 host
  if ((g(0) & 0xfe00) === 0xfc00) return "unique_local"; // fc00::/7
  if ((g(0) & 0xffc0) === 0xfe80) return "link_local"; // fe80::/10
  if ((g(0) & 0xffc0) === 0xfec0) return "private"; // fec0::/10 deprecated site-local
  if ((g(0) & 0xff00) === 0xff00) return "multicast"; // ff00::/8
  if (g(0) === 0x2001 && g(1) === 0x0db8) return "reserved"; // 2001:db8::/32 documentation
  if (g(0) === 0x2001 && g(1) === 0) return "reserved"; // 2001::/32 Teredo tunnels
  if (g(0) === 0x0100 && g(1) === 0 && g(2) === 0 && g(3) === 0) return "reserved"; // 100::/64 discard
  if ((g(0) & 0xe000) !== 0x2000) return "reserved"; // only 2000::/3 is global unicast
  return "public";
}

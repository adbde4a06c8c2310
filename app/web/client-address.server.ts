import net from "node:net";
import type { Request as ExpressRequest } from "express";
import type { ProxyTrust } from "~/infra/config.server";

/**
 * Who the client is, as far as the network can tell. TRUST_PROXY says how much
 * of X-Forwarded-For to believe: a client writes whatever it likes at the left
 * of that header, and only the entries appended by our own proxies are true.
 *
 * - `hops`: this many proxies stand in front (0: none, the socket's peer is the client).
 *   The client is the address the outermost of them saw: counted from the right.
 * - `addresses`: the proxies' own addresses or subnets; entries they appended are believed.
 * - `fly`: Fly.io's proxy sets `Fly-Client-IP` on every request (replacing any the client sent).
 */
/** The value for Express's `trust proxy` setting (which decides `req.ip`, `req.protocol`, `req.hostname`). */
export function expressTrustSetting(trust: ProxyTrust): number | string[] | boolean {
  switch (trust.kind) {
    case "hops":
      return trust.hops;
    case "addresses":
      return trust.addresses;
    case "fly":
      // Fly's proxy is one hop in front of the machine.
      return 1;
  }
}

/**
 * The client as every per-address throttle counts it (the request's
 * `clientIp`): an IPv4 address, or an IPv6 address's /64 network. One IPv6
 * subscriber is usually handed a whole /64 (and can use any of its 2^64
 * addresses), so counting single IPv6 addresses would give one client
 * unlimited tries.
 */
export function clientAddress(req: ExpressRequest, trust: ProxyTrust): string {
  if (trust.kind === "fly") {
    const header = req.get("Fly-Client-IP")?.trim();
    if (header && net.isIP(header.split("%")[0]!) !== 0) return throttleKeyOfAddress(header);
  }
  return throttleKeyOfAddress(req.ip ?? req.socket.remoteAddress ?? "unknown");
}

/**
 * The key an address is counted under: an IPv4 address as it is (also when
 * written IPv4-mapped, `::ffff:1.2.3.4`), an IPv6 address as its /64
 * (`2001:db8:1:2::/64`, whatever the spelling and zone of the address); what
 * is not an address stays as it is.
 */
export function throttleKeyOfAddress(address: string): string {
  if (net.isIPv4(address)) return address;
  const groups = ipv6Groups(address.split("%")[0]!);
  if (!groups) return address;
  const ipv4Mapped = groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff;
  if (ipv4Mapped)
    return [groups[6]! >> 8, groups[6]! & 0xff, groups[7]! >> 8, groups[7]! & 0xff].join(".");
  return `${groups
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(":")}::/64`;
}

/** The eight 16-bit groups of an IPv6 address (a trailing dotted IPv4 part counts as two), or null when it is not one. */
function ipv6Groups(address: string): number[] | null {
  if (!net.isIPv6(address)) return null;
  let text = address.toLowerCase();
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split("::") as [string, string | undefined];
  const parse = (part: string) =>
    part === "" ? [] : part.split(":").map((group) => Number.parseInt(group, 16));
  const front = parse(head);
  const back = tail === undefined ? [] : parse(tail);
  const zeros = tail === undefined ? 0 : 8 - front.length - back.length;
  const groups = [...front, ...Array<number>(zeros).fill(0), ...back];
  return groups.length === 8 ? groups : null;
}

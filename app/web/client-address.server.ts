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

/** The client's address for throttles and logs. */
export function clientAddress(req: ExpressRequest, trust: ProxyTrust): string {
  if (trust.kind === "fly") {
    const header = req.get("Fly-Client-IP")?.trim();
    if (header) return header;
  }
  return normaliseAddress(req.ip ?? req.socket.remoteAddress ?? "unknown");
}

/** `::ffff:1.2.3.4` and `1.2.3.4` are one client. */
function normaliseAddress(address: string): string {
  return address.startsWith("::ffff:") && address.includes(".") ? address.slice("::ffff:".length) : address;
}

import type { AppLoadContext } from "@remix-run/node";
import type { CallContext, FeatureTies, HandedOver } from "~/infra/call-context.server";
import { getConfig } from "~/infra/config.server";
import { getDb } from "~/infra/db.server";
import { getFileStore } from "~/infra/file-store.server";
import { publicOrigin } from "~/infra/payments/public-origin.server";
import { bearerTokenOf } from "./auth.server";

declare module "@remix-run/node" {
  interface AppLoadContext {
    /** The CSP nonce of this response (set by the server entry). */
    nonce?: string;
    /** The client's address as the server saw it (honouring TRUST_PROXY); an IPv6 client's /64 (client-address.server.ts). */
    clientIp?: string;
    /** What features hand each other, built at boot (app/boot/studio-ties.server.ts); every call carries it. */
    ties: FeatureTies;
  }
}

/** The plain values a procedure gets, read from the request by the adapters. */
export function callContext(
  request: Request,
  context: AppLoadContext,
  handedOver: HandedOver = {},
): CallContext {
  return {
    ...visitCallContext({ url: request.url, header: (name) => request.headers.get(name) }, context),
    bearerToken: bearerTokenOf(request),
    upload: { headers: contentHeaders(request.headers), body: request.body },
    ...handedOver,
  };
}

/**
 * The call context of a visitor served a page from the visitors' cache: what
 * `callContext` reads of a request, from the page's address and headers (such
 * a request has no bearer token and no body).
 */
export function visitCallContext(
  visit: { url: URL | string; header(name: string): string | null },
  context: AppLoadContext,
): CallContext {
  const config = getConfig();
  return {
    db: getDb(),
    config,
    files: getFileStore(),
    now: new Date(),
    origin: publicOrigin(config, String(visit.url)),
    clientIp: context.clientIp ?? "unknown",
    userAgent: visit.header("User-Agent") ?? "",
    bearerToken: null,
    ties: context.ties,
    upload: null,
  };
}

/** The headers that describe the body itself: an upload reads nothing else. */
function contentHeaders(headers: Headers): Headers {
  const picked = new Headers();
  for (const name of ["Content-Type", "Content-Length"]) {
    const value = headers.get(name);
    if (value !== null) picked.set(name, value);
  }
  return picked;
}

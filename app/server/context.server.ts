import type { AppLoadContext } from "@remix-run/node";
import type { Config } from "./config.server";
import { getConfig } from "./config.server";
import type { DB } from "./db.server";
import { getDb } from "./db.server";

declare module "@remix-run/node" {
  interface AppLoadContext {
    /** The CSP nonce of this response (set by the server entry). */
    nonce?: string;
    /** The client's address as the server saw it (honouring TRUST_PROXY). */
    clientIp?: string;
  }
}

/** What every procedure receives besides its input and caller. */
export interface CallContext {
  db: DB;
  config: Config;
  request: Request;
  clientIp: string;
  now: Date;
}

export function callContext(request: Request, context?: AppLoadContext): CallContext {
  return {
    db: getDb(),
    config: getConfig(),
    request,
    clientIp: context?.clientIp ?? "unknown",
    now: new Date(),
  };
}

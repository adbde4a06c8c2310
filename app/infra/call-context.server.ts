import type { Config } from "./config.server";
import { getConfig } from "./config.server";
import type { DB } from "./db.server";
import { getDb } from "./db.server";
import { getFileStore, type FileStore } from "./file-store.server";
import { publicOrigin } from "./payments/public-origin.server";
import type { UploadBody } from "./uploads/receive-upload.server";

/**
 * What features hand each other, built once at boot (app/boot/studio-ties.server.ts)
 * and carried by every call: each feature that is handed something names its
 * part by augmenting this interface (the studio: features/studio/ties.server.ts),
 * so a context built without it does not compile.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by the features' augmentations
export interface FeatureTies {}

/**
 * What every procedure receives besides its input and caller: plain values,
 * never the Request. The adapters compute them from the request
 * (`callContext`); a job builds them itself (`plainContext`).
 */
export interface CallContext {
  db: DB;
  config: Config;
  /** The store every uploaded and generated file lives in (features never build their own). */
  files: FileStore;
  now: Date;
  /**
   * The origin for absolute links answered to the caller itself (Stripe's
   * return URLs, download links in JSON): PUBLIC_URL's when set, else the one
   * the call was made at (its Host, or a trusted proxy's X-Forwarded-Host).
   * Never for mail: links in mail use the configured origin only
   * (configured-origin.server.ts).
   */
  origin: string;
  /**
   * The client as per-address throttles count it: an IPv4 address, or an IPv6
   * address's /64 network such as `2001:db8:1:2::/64` ("unknown" when the
   * server could not tell, "job" for the job worker).
   */
  clientIp: string;
  /** The caller's User-Agent header ("" when none was sent). */
  userAgent: string;
  /** The API token of an `Authorization: Bearer` header, when the call came with a well-formed one. */
  bearerToken: string | null;
  /**
   * The web session secret of the cookie the call was signed in with (not
   * when a bearer token was used), so the sessions list can mark the current
   * session and a password change can spare it. Handed over by the adapter or
   * route that read the cookie; absent otherwise.
   */
  webSessionSecret?: string | null;
  /** The request body, unread, with its Content-Type and Content-Length (the upload procedure streams it); null without one. */
  upload: UploadBody | null;
  /** What other features hand this call (per process, built at boot): the studio's ties to the market and publishing. */
  ties: FeatureTies;
  /** Whether this load is a fresh view of a page that counts listing views (the /marketplace page says so; a revalidation is not one). */
  countsViews?: boolean;
}

/** What a route hands over on top of what `callContext` reads from the request itself. */
export type HandedOver = Pick<CallContext, "countsViews" | "webSessionSecret">;

/**
 * A context for a call that no request carries (the job worker, tests): no
 * client, body or cookies. `madeAt` is the URL or origin the call stands for;
 * PUBLIC_URL wins over it, as it does for a request. The features' ties are
 * always handed in (the worker's from boot, a test's its own).
 */
export function plainContext(
  madeAt: string,
  values: Partial<Omit<CallContext, "origin" | "ties">> & Pick<CallContext, "ties">,
): CallContext {
  const config = values.config ?? getConfig();
  return {
    db: getDb(),
    config,
    files: values.files ?? getFileStore(config),
    now: new Date(),
    clientIp: "unknown",
    userAgent: "",
    bearerToken: null,
    upload: null,
    ...values,
    origin: publicOrigin(config, madeAt),
  };
}

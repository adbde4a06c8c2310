import type { DB } from "~/infra/db.server";
import { whileRowsLocked } from "~/infra/sql-dialect.server";
import type { ShopifyTokenSource } from "~/infra/shopify/shopify-admin.server";
import type { FetchLike } from "~/infra/shopify/shopify-errors.server";
import { ShopifyAuthError } from "~/infra/shopify/shopify-errors.server";
import {
  migrateShopifyToken,
  refreshShopifyToken,
  ShopifyGrantError,
} from "~/infra/shopify/shopify-oauth.server";
import type { OpenedIntegration } from "~/features/publishing/integrations/integrations.server";
import {
  markIntegrationNeedsAuth,
  openCredential,
  openIntegration,
  replaceOAuthToken,
} from "~/features/publishing/integrations/integrations.server";

/**
 * A creator's Shopify access token for the Admin API client, kept fresh. An
 * expiring offline token (an hour) is renewed with its refresh token when it
 * has less than REFRESH_MARGIN_MS left, and once more if Shopify refuses it
 * anyway (401). Shopify rotates the refresh token on every use, so two jobs
 * must never both renew: in a process, renewals of one shop wait for the one
 * in flight; across processes, a renewal holds the connection's row
 * (whileRowsLocked: FOR UPDATE on PostgreSQL) from its read until it stored
 * the new pair, and reads the row again once it holds it, so a renewal that
 * waited finds the stored token already replaced and uses that one. (On
 * SQLite the row is not held; the store is a compare-and-swap, and a renewal
 * that lost it uses what the winner stored.) A refused refresh (invalid_grant, or an expired refresh
 * token) is final: ShopifyReconnectError, which the connector turns into the
 * connection's "reconnect" state. A custom app's token (manual setup) has no
 * expiry and is used as it is. A non-expiring token this app got by OAuth
 * before it asked for expiring ones is exchanged for an expiring pair on its
 * first use (Shopify stops accepting those on 2027-01-01), and the daily
 * `migrateNonExpiringShopifyTokens` does the same for connections nobody
 * uses; should the exchange fail, the old token is used as it is. A refresh
 * token lasts 90 days and is only replaced when used, so the daily
 * `refreshShopifyPairsNearExpiry` renews the pairs of connections nobody used
 * for 83 days, before their refresh token runs out.
 */

export const REFRESH_MARGIN_MS = 5 * 60 * 1000;

/** A refresh token that runs out within this is renewed by the daily sweep (seven chances before it does). */
export const REFRESH_TOKEN_RENEWAL_WINDOW_MS = 7 * 24 * 60 * 60 * 1000;

export const RECONNECT_MESSAGE =
  "Shopify no longer accepts this connection (its access could not be renewed): please connect Shopify again on the Integrations page, then publish again.";

/** The connection cannot be renewed: only the creator connecting again helps. */
export class ShopifyReconnectError extends ShopifyAuthError {
  constructor(message = RECONNECT_MESSAGE) {
    super(401, message);
    this.name = "ShopifyReconnectError";
  }
}

export interface ShopifyApp {
  clientId: string | null | undefined;
  clientSecret: string | null | undefined;
}

/** Renewals in flight through a database handle (one a process), by shop and creator: the rest wait for the one. */
const inFlightByDb = new WeakMap<DB, Map<string, Promise<string>>>();

function inFlightOf(db: DB): Map<string, Promise<string>> {
  let inFlight = inFlightByDb.get(db);
  if (!inFlight) inFlightByDb.set(db, (inFlight = new Map()));
  return inFlight;
}

function expiresSoon(iso: string | undefined, now: Date): boolean {
  if (!iso) return false;
  const at = Date.parse(iso);
  return !Number.isFinite(at) || at - now.getTime() <= REFRESH_MARGIN_MS;
}

function expired(iso: string | undefined, now: Date): boolean {
  if (!iso) return false;
  const at = Date.parse(iso);
  return !Number.isFinite(at) || at <= now.getTime();
}

/** The token source, and `renew`: renews the pair now unless another renewal already replaced `stale`. */
export interface RenewingShopifyTokenSource extends ShopifyTokenSource {
  renew(stale: string): Promise<string>;
}

export function shopifyTokenSource(
  db: DB,
  args: { userId: string; app: ShopifyApp; now: () => Date; fetch?: FetchLike },
): RenewingShopifyTokenSource {
  const load = async (on: DB = db): Promise<OpenedIntegration> => {
    const opened = await openIntegration(on, args.userId, "shopify");
    if (!opened?.row.shop_domain)
      throw new ShopifyReconnectError("The Shopify connection was removed; connect Shopify again.");
    return opened;
  };

  /**
   * Runs `work` once per shop and creator at a time: in this process the rest
   * wait for the one; another process's renewal waits for the connection's row.
   */
  const guarded = async (work: (held: DB) => Promise<string>): Promise<string> => {
    const opened = await load();
    const key = `${opened.row.shop_domain}:${args.userId}`;
    const inFlight = inFlightOf(db);
    const running = inFlight.get(key);
    if (running) return running;
    const task = whileRowsLocked(
      db,
      (trx) =>
        trx
          .selectFrom("integrations")
          .select("id")
          .where("user_id", "=", args.userId)
          .where("platform", "=", "shopify"),
      work,
    );
    inFlight.set(key, task);
    try {
      return await task;
    } finally {
      inFlight.delete(key);
    }
  };

  /** A non-expiring OAuth token: exchanged for an expiring pair (on failure, the old token is used as it is). */
  const migrate = (old: string): Promise<string> =>
    guarded(async (held) => {
      const { credential, row } = await load(held);
      if (credential.secret !== old || credential.expiresAt) return credential.secret;
      if (!args.app.clientId || !args.app.clientSecret) return credential.secret;
      const now = args.now();
      let token;
      try {
        token = await migrateShopifyToken({
          shop: row.shop_domain!,
          nonExpiringToken: credential.secret,
          clientId: args.app.clientId,
          clientSecret: args.app.clientSecret,
          now,
          fetch: args.fetch,
        });
      } catch (error) {
        console.warn(
          `Shopify token exchange for ${row.shop_domain} failed; using the non-expiring token:`,
          error instanceof Error ? error.message : error,
        );
        return credential.secret;
      }
      const stored = await replaceOAuthToken(held, {
        row,
        accessToken: token.accessToken,
        refreshToken: token.refreshToken,
        expiresAt: token.expiresAt,
        refreshTokenExpiresAt: token.refreshTokenExpiresAt,
        now,
      });
      // Lost a race (a reconnect, or a removal): use what is there now. (Shopify answers the same pair
      // to the same original token again for a few days, so another process's exchange is not lost.)
      return stored ? token.accessToken : (await load(held)).secret;
    });

  const renew = (stale: string): Promise<string> =>
    guarded(async (held) => {
      // Read again inside the guard: another renewal may have stored a fresh token meanwhile.
      const current = await load(held);
      const { credential, row } = current;
      if (credential.secret !== stale && !expiresSoon(credential.expiresAt, args.now()))
        return credential.secret;
      if (!credential.refreshToken) {
        // A token that cannot be renewed (custom app, or issued without expiry) and is refused: connect again.
        throw new ShopifyAuthError(401);
      }
      if (expired(credential.refreshTokenExpiresAt, args.now())) throw new ShopifyReconnectError();
      if (!args.app.clientId || !args.app.clientSecret) {
        throw new ShopifyReconnectError(
          "Shopify's app credentials are not set on this server, so the connection cannot be renewed.",
        );
      }
      const now = args.now();
      let token;
      try {
        token = await refreshShopifyToken({
          shop: row.shop_domain!,
          refreshToken: credential.refreshToken,
          clientId: args.app.clientId,
          clientSecret: args.app.clientSecret,
          now,
          fetch: args.fetch,
        });
      } catch (error) {
        if (error instanceof ShopifyGrantError) throw new ShopifyReconnectError();
        throw error;
      }
      const stored = await replaceOAuthToken(held, {
        row,
        accessToken: token.accessToken,
        // Shopify rotates it; should an answer carry none, the old one is kept.
        refreshToken: token.refreshToken ?? credential.refreshToken,
        expiresAt: token.expiresAt,
        refreshTokenExpiresAt: token.refreshToken
          ? token.refreshTokenExpiresAt
          : credential.refreshTokenExpiresAt
            ? new Date(credential.refreshTokenExpiresAt)
            : null,
        now,
      });
      if (!stored) {
        // The row changed under us (a reconnect, or a removal): use what is there now, if anything.
        return (await load(held)).secret;
      }
      return token.accessToken;
    });

  return {
    async token() {
      const { credential, row } = await load();
      if (row.method === "oauth" && !credential.expiresAt && !credential.refreshToken)
        return migrate(credential.secret);
      return expiresSoon(credential.expiresAt, args.now())
        ? renew(credential.secret)
        : credential.secret;
    },
    refreshAfterRejection: (rejected) => renew(rejected),
    renew,
  };
}

/**
 * Exchanges every active Shopify OAuth connection still on a non-expiring
 * token for an expiring pair (the boot's daily sweep), so connections nobody
 * publishes with still work after Shopify stops accepting non-expiring tokens
 * on 2027-01-01. Answers how many were exchanged.
 */
export async function migrateNonExpiringShopifyTokens(
  db: DB,
  args: { app: ShopifyApp; now: () => Date; fetch?: FetchLike },
): Promise<number> {
  if (!args.app.clientId || !args.app.clientSecret) return 0;
  const rows = await db
    .selectFrom("integrations")
    .select(["user_id", "credentials"])
    .where("platform", "=", "shopify")
    .where("method", "=", "oauth")
    .where("is_active", "=", 1)
    .execute();
  let migrated = 0;
  for (const row of rows) {
    const source = shopifyTokenSource(db, {
      userId: row.user_id,
      app: args.app,
      now: args.now,
      fetch: args.fetch,
    });
    try {
      const before = (await openIntegration(db, row.user_id, "shopify"))?.credential;
      if (!before || before.expiresAt || before.refreshToken) continue;
      await source.token();
      const after = (await openIntegration(db, row.user_id, "shopify"))?.credential;
      if (after?.expiresAt) migrated += 1;
    } catch (error) {
      console.error(
        `Shopify token exchange for a connection failed:`,
        error instanceof Error ? error.message : error,
      );
    }
  }
  return migrated;
}

/**
 * Renews, through the same guarded renewal as a publication, the pair of
 * every active Shopify OAuth connection whose refresh token runs out within
 * REFRESH_TOKEN_RENEWAL_WINDOW_MS (the boot's daily sweep): Shopify replaces
 * the refresh token, good for another 90 days, so a store nobody publishes to
 * stays connected. A connection Shopify refuses to renew (invalid_grant: the
 * app was uninstalled, or the refresh token already ran out) is put in its
 * "reconnect" state, as a publication that meets the refusal does; anything
 * else (Shopify unreachable) is logged and tried again the next day. Answers
 * how many pairs were renewed and how many connections need reconnecting.
 */
export async function refreshShopifyPairsNearExpiry(
  db: DB,
  args: { app: ShopifyApp; now: () => Date; fetch?: FetchLike },
): Promise<{ renewed: number; reconnect: number }> {
  const outcome = { renewed: 0, reconnect: 0 };
  if (!args.app.clientId || !args.app.clientSecret) return outcome;
  const rows = await db
    .selectFrom("integrations")
    .selectAll()
    .where("platform", "=", "shopify")
    .where("method", "=", "oauth")
    .where("is_active", "=", 1)
    .execute();
  for (const row of rows) {
    try {
      const credential = openCredential(row);
      if (!credential.refreshToken || !credential.refreshTokenExpiresAt) continue;
      const runsOutAt = Date.parse(credential.refreshTokenExpiresAt);
      if (runsOutAt - args.now().getTime() > REFRESH_TOKEN_RENEWAL_WINDOW_MS) continue;
      const source = shopifyTokenSource(db, {
        userId: row.user_id,
        app: args.app,
        now: args.now,
        fetch: args.fetch,
      });
      if ((await source.renew(credential.secret)) !== credential.secret) outcome.renewed += 1;
    } catch (error) {
      if (error instanceof ShopifyReconnectError) {
        await markIntegrationNeedsAuth(db, {
          userId: row.user_id,
          platform: "shopify",
          error: error.message,
          now: args.now(),
        });
        outcome.reconnect += 1;
        continue;
      }
      console.error(
        `Renewing the Shopify connection to ${row.shop_domain} failed; trying again tomorrow:`,
        error instanceof Error ? error.message : error,
      );
    }
  }
  return outcome;
}

import type { IntegrationMethod, IntegrationRow } from "#db/schema";
import type { DB } from "~/infra/db.server";
import { isUniqueViolation } from "~/infra/database-errors.server";
import { open, seal } from "~/infra/crypto-box.server";
import { newId } from "~/infra/ids.server";
import {
  findPlatform,
  getPlatform,
  MARKETPLACE_ID,
  needsConnection,
  PLATFORMS,
} from "~/features/publishing/platforms";
import type { PlatformId } from "~/features/publishing/platforms";
import type { ManualIntegrationInput } from "~/features/publishing/schemas";

/**
 * A creator's connections to platforms. The secret (an API key or an OAuth
 * access token) is sealed with AES-256-GCM before it is written, bound to the
 * user and platform, and never leaves the server again: answers carry only its
 * last four characters.
 */

export interface IntegrationJson {
  id: string;
  platform: PlatformId;
  isActive: boolean;
  createdAt: string;
  apiKeyLast4: string;
  method: IntegrationMethod;
  walletAddress: string | null;
  shopDomain: string | null;
  /** The name the platform knows the creator by (Adobe Stock's SFTP username). */
  accountName: string | null;
  lastError: string | null;
  /** `reconnect` when the platform refused the stored connection (or it could not be renewed): connect again. */
  state: "connected" | "reconnect";
}

/**
 * What is sealed in a row: the secret (API key or access token) and, for an
 * expiring OAuth token, its refresh token and both expiries (ISO times).
 */
export interface SealedCredential {
  secret: string;
  refreshToken?: string;
  expiresAt?: string;
  refreshTokenExpiresAt?: string;
}

/** Where a platform stands for one creator (the /integrations cards, the dialogs). */
export interface PlatformConnection {
  platform: PlatformId;
  /** Whether the creator can publish there now. */
  isActive: boolean;
  /** A stored connection, when there is one. */
  integration: IntegrationJson | null;
}

function associatedData(userId: string, platform: string): string {
  return `integration:${userId}:${platform}`;
}

function sealCredential(userId: string, platform: string, credential: SealedCredential): string {
  return seal(JSON.stringify(credential), associatedData(userId, platform));
}

function lastFour(secret: string): string {
  return secret.slice(-4);
}

export function integrationJson(row: IntegrationRow): IntegrationJson {
  return {
    id: row.id,
    platform: row.platform as PlatformId,
    isActive: row.is_active === 1,
    createdAt: row.created_at,
    apiKeyLast4: row.key_last4,
    method: row.method,
    walletAddress: row.wallet_address,
    shopDomain: row.shop_domain,
    accountName: row.account_name,
    lastError: row.last_error,
    state: row.is_active === 1 ? "connected" : "reconnect",
  };
}

export function integrationRows(db: DB, userId: string): Promise<IntegrationRow[]> {
  return db
    .selectFrom("integrations")
    .selectAll()
    .where("user_id", "=", userId)
    .orderBy("created_at")
    .execute();
}

export function findIntegration(
  db: DB,
  userId: string,
  platform: string,
): Promise<IntegrationRow | undefined> {
  return db
    .selectFrom("integrations")
    .selectAll()
    .where("user_id", "=", userId)
    .where("platform", "=", platform)
    .executeTakeFirst();
}

/**
 * Every platform in registry order (the own marketplace first) with whether
 * the creator can publish there: the own marketplace and platforms that need
 * no connection always; others when an active connection is stored. Platforms
 * that no longer take listings are never active.
 */
export async function platformConnections(db: DB, userId: string): Promise<PlatformConnection[]> {
  const rows = new Map((await integrationRows(db, userId)).map((row) => [row.platform, row]));
  return PLATFORMS.map((platform) => {
    const row = rows.get(platform.id);
    const integration = row ? integrationJson(row) : null;
    const isActive =
      !platform.closed && (needsConnection(platform) ? integration?.isActive === true : true);
    return { platform: platform.id, isActive, integration };
  });
}

/**
 * The integration list: the own marketplace first (always active), then
 * the platforms usable without a connection, then the creator's stored
 * connections (active or not).
 */
export async function integrationList(
  db: DB,
  userId: string,
): Promise<{ platform: PlatformId; isActive: boolean }[]> {
  const connections = await platformConnections(db, userId);
  return connections
    .filter(({ platform, integration }) => {
      const entry = getPlatform(platform);
      if (platform === MARKETPLACE_ID) return true;
      if (entry.closed) return integration !== null;
      return !needsConnection(entry) || integration !== null;
    })
    .map(({ platform, isActive }) => ({ platform, isActive }));
}

async function upsertIntegration(
  db: DB,
  values: {
    userId: string;
    platform: PlatformId;
    method: IntegrationMethod;
    secret: string;
    /** Sealed along with the secret (an OAuth token's refresh token and expiries). */
    extra?: Omit<SealedCredential, "secret">;
    walletAddress: string | null;
    shopDomain: string | null;
    scopes: string | null;
    /** An SFTP connection's username, and its server's host key fingerprint as seen when it was checked. */
    accountName?: string | null;
    hostKey?: string | null;
    now: Date;
  },
): Promise<IntegrationRow> {
  const stamp = values.now.toISOString();
  const sealed = sealCredential(values.userId, values.platform, {
    ...values.extra,
    secret: values.secret,
  });
  const fields = {
    method: values.method,
    credentials: sealed,
    // A password is not shown in part, so none of it is kept readable.
    key_last4: values.accountName ? "" : lastFour(values.secret),
    wallet_address: values.walletAddress,
    shop_domain: values.shopDomain,
    scopes: values.scopes,
    account_name: values.accountName ?? null,
    host_key: values.hostKey ?? null,
    is_active: 1,
    last_error: null,
    updated_at: stamp,
    // When this connection was made: a late app/uninstalled triggered before it is not about it.
    connected_at: stamp,
  };
  return db
    .insertInto("integrations")
    .values({
      id: newId(),
      user_id: values.userId,
      platform: values.platform,
      created_at: stamp,
      ...fields,
    })
    .onConflict((conflict) => conflict.columns(["user_id", "platform"]).doUpdateSet(fields))
    .returningAll()
    .executeTakeFirstOrThrow();
}

/**
 * Saves a connection typed into the manual setup form (replacing an earlier
 * one); an SFTP connection with the host key its check saw.
 */
export function saveManualIntegration(
  db: DB,
  args: { userId: string; input: ManualIntegrationInput; hostKey?: string | null; now: Date },
): Promise<IntegrationRow> {
  return upsertIntegration(db, {
    userId: args.userId,
    platform: args.input.platform,
    method: "apiKey",
    secret: args.input.apiKey,
    walletAddress: args.input.walletAddress ?? null,
    shopDomain: args.input.shopDomain ?? null,
    scopes: null,
    accountName: args.input.username ?? null,
    hostKey: args.hostKey ?? null,
    now: args.now,
  });
}

/** Saves the access token an OAuth callback obtained (with its refresh token and expiries when it expires). */
export function saveOAuthIntegration(
  db: DB,
  args: {
    userId: string;
    platform: PlatformId;
    accessToken: string;
    refreshToken?: string | null;
    expiresAt?: Date | null;
    refreshTokenExpiresAt?: Date | null;
    scopes: string[];
    shopDomain: string | null;
    now: Date;
  },
): Promise<IntegrationRow> {
  return upsertIntegration(db, {
    userId: args.userId,
    platform: args.platform,
    method: "oauth",
    secret: args.accessToken,
    extra: tokenExtras(args),
    walletAddress: null,
    shopDomain: args.shopDomain,
    scopes: args.scopes.join(","),
    now: args.now,
  });
}

/**
 * Shopify keeps one offline token per app and store: a new OAuth connection
 * to a store revokes the token of the one before. So a store has at most one
 * working OAuth connection (a unique index keeps it so): this answers the
 * other creator's connection that holds `shop`, if any. Custom-app tokens
 * (manual setup) are another app's and never count.
 */
export function shopifyStoreHolder(
  db: DB,
  args: { shop: string; exceptUserId: string },
): Promise<IntegrationRow | undefined> {
  return db
    .selectFrom("integrations")
    .selectAll()
    .where("platform", "=", "shopify")
    .where("method", "=", "oauth")
    .where("is_active", "=", 1)
    .where("shop_domain", "=", args.shop)
    .where("user_id", "!=", args.exceptUserId)
    .executeTakeFirst();
}

/** The sentence a creator reads when the store is already connected by someone else. */
export function storeTakenText(shop: string): string {
  return `${shop} is already connected to Selfie Studio by another creator. Shopify allows one connection per store for an app, so connecting it here would cut theirs off: ask them to disconnect it first, or connect a different store.`;
}

/** Whether a write failed on the one-connection-per-store index. */
export function isStoreTakenConflict(error: unknown): boolean {
  return isUniqueViolation(error, { table: "integrations", column: "shop_domain" });
}

/** Removes a connection and its secret. Answers whether there was one. */
export async function disconnectIntegration(
  db: DB,
  args: { userId: string; platform: string },
): Promise<boolean> {
  const result = await db
    .deleteFrom("integrations")
    .where("user_id", "=", args.userId)
    .where("platform", "=", args.platform)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

function tokenExtras(args: {
  refreshToken?: string | null;
  expiresAt?: Date | null;
  refreshTokenExpiresAt?: Date | null;
}): Omit<SealedCredential, "secret"> {
  return {
    ...(args.refreshToken ? { refreshToken: args.refreshToken } : {}),
    ...(args.expiresAt ? { expiresAt: args.expiresAt.toISOString() } : {}),
    ...(args.refreshTokenExpiresAt
      ? { refreshTokenExpiresAt: args.refreshTokenExpiresAt.toISOString() }
      : {}),
  };
}

export interface OpenedIntegration {
  row: IntegrationRow;
  secret: string;
  credential: SealedCredential;
}

/** Opens a row's sealed credential (throws CryptoBoxError when it cannot be). */
export function openCredential(row: IntegrationRow): SealedCredential {
  return JSON.parse(
    open(row.credentials, associatedData(row.user_id, row.platform)),
  ) as SealedCredential;
}

/** The active connection with its secret opened, for a connector; null when there is none. */
export async function openIntegration(
  db: DB,
  userId: string,
  platform: string,
): Promise<OpenedIntegration | null> {
  const row = await findIntegration(db, userId, platform);
  if (!row || row.is_active !== 1) return null;
  const credential = openCredential(row);
  return { row, secret: credential.secret, credential };
}

/**
 * Stores a renewed OAuth token in place of the one the row held when it was
 * read (`row.credentials`): answers false, writing nothing, when the row has
 * changed since (another renewal, a reconnect or a removal got there first).
 */
export async function replaceOAuthToken(
  db: DB,
  args: {
    row: IntegrationRow;
    accessToken: string;
    refreshToken: string | null;
    expiresAt: Date | null;
    refreshTokenExpiresAt: Date | null;
    now: Date;
  },
): Promise<boolean> {
  const sealed = sealCredential(args.row.user_id, args.row.platform, {
    ...tokenExtras(args),
    secret: args.accessToken,
  });
  const result = await db
    .updateTable("integrations")
    .set({
      credentials: sealed,
      key_last4: lastFour(args.accessToken),
      updated_at: args.now.toISOString(),
    })
    .where("id", "=", args.row.id)
    .where("credentials", "=", args.row.credentials)
    .where("is_active", "=", 1)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** The platform refused the stored credential: the creator must connect again. */
export async function markIntegrationNeedsAuth(
  db: DB,
  args: { userId: string; platform: string; error: string; now: Date },
): Promise<void> {
  await db
    .updateTable("integrations")
    .set({ is_active: 0, last_error: args.error.slice(0, 500), updated_at: args.now.toISOString() })
    .where("user_id", "=", args.userId)
    .where("platform", "=", args.platform)
    .execute();
}

export function platformDisplayName(id: string): string {
  return findPlatform(id)?.name ?? id;
}

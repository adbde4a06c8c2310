import type { IntegrationMethod, IntegrationRow } from "#db/schema";
import type { DB } from "~/infra/db.server";
import { open, seal } from "~/infra/crypto-box.server";
import { newId } from "~/infra/ids.server";
import { findPlatform, getPlatform, MARKETPLACE_ID, needsConnection, PLATFORMS } from "~/features/publishing/platforms";
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
  lastError: string | null;
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
    lastError: row.last_error,
  };
}

export function integrationRows(db: DB, userId: string): Promise<IntegrationRow[]> {
  return db.selectFrom("integrations").selectAll().where("user_id", "=", userId).orderBy("created_at").execute();
}

export function findIntegration(db: DB, userId: string, platform: string): Promise<IntegrationRow | undefined> {
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
    const isActive = !platform.closed && (needsConnection(platform) ? integration?.isActive === true : true);
    return { platform: platform.id, isActive, integration };
  });
}

/**
 * The integration list: the own marketplace first (always active), then
 * the platforms usable without a connection, then the creator's stored
 * connections (active or not).
 */
export async function integrationList(db: DB, userId: string): Promise<{ platform: PlatformId; isActive: boolean }[]> {
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
    walletAddress: string | null;
    shopDomain: string | null;
    scopes: string | null;
    now: Date;
  },
): Promise<IntegrationRow> {
  const stamp = values.now.toISOString();
  const sealed = seal(JSON.stringify({ secret: values.secret }), associatedData(values.userId, values.platform));
  const fields = {
    method: values.method,
    credentials: sealed,
    key_last4: lastFour(values.secret),
    wallet_address: values.walletAddress,
    shop_domain: values.shopDomain,
    scopes: values.scopes,
    is_active: 1,
    last_error: null,
    updated_at: stamp,
  };
  return db
    .insertInto("integrations")
    .values({ id: newId(), user_id: values.userId, platform: values.platform, created_at: stamp, ...fields })
    .onConflict((conflict) => conflict.columns(["user_id", "platform"]).doUpdateSet(fields))
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Saves a connection typed into the manual setup form (replacing an earlier one). */
export function saveManualIntegration(
  db: DB,
  args: { userId: string; input: ManualIntegrationInput; now: Date },
): Promise<IntegrationRow> {
  return upsertIntegration(db, {
    userId: args.userId,
    platform: args.input.platform,
    method: "apiKey",
    secret: args.input.apiKey,
    walletAddress: args.input.walletAddress ?? null,
    shopDomain: args.input.shopDomain ?? null,
    scopes: null,
    now: args.now,
  });
}

/** Saves the access token an OAuth callback obtained. */
export function saveOAuthIntegration(
  db: DB,
  args: { userId: string; platform: PlatformId; accessToken: string; scopes: string[]; shopDomain: string | null; now: Date },
): Promise<IntegrationRow> {
  return upsertIntegration(db, {
    userId: args.userId,
    platform: args.platform,
    method: "oauth",
    secret: args.accessToken,
    walletAddress: null,
    shopDomain: args.shopDomain,
    scopes: args.scopes.join(","),
    now: args.now,
  });
}

/** Removes a connection and its secret. Answers whether there was one. */
export async function disconnectIntegration(db: DB, args: { userId: string; platform: string }): Promise<boolean> {
  const result = await db
    .deleteFrom("integrations")
    .where("user_id", "=", args.userId)
    .where("platform", "=", args.platform)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export interface OpenedIntegration {
  row: IntegrationRow;
  secret: string;
}

/** The active connection with its secret opened, for a connector; null when there is none. */
export async function openIntegration(db: DB, userId: string, platform: string): Promise<OpenedIntegration | null> {
  const row = await findIntegration(db, userId, platform);
  if (!row || row.is_active !== 1) return null;
  const { secret } = JSON.parse(open(row.credentials, associatedData(userId, platform))) as { secret: string };
  return { row, secret };
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

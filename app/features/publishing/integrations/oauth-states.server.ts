import type { DB } from "~/infra/db.server";
import { newSecretToken, sha256 } from "~/infra/ids.server";
import { OAUTH_STATE_TTL_MS } from "~/features/publishing/types";

/**
 * OAuth `state` values: random, single use, bound to the user and the
 * platform that asked for them, and good for 10 minutes. Only their hash is
 * stored. Consuming one is a single UPDATE, so two callbacks racing with the
 * same state cannot both succeed.
 */

export interface OAuthStateClaim {
  userId: string;
  platform: string;
  shopDomain: string | null;
  display: "popup" | "page";
}

export async function createOAuthState(
  db: DB,
  args: {
    userId: string;
    platform: string;
    shopDomain?: string | null;
    display?: "popup" | "page";
    now: Date;
  },
): Promise<string> {
  const state = newSecretToken();
  await db
    .insertInto("oauth_states")
    .values({
      state_hash: sha256(state),
      user_id: args.userId,
      platform: args.platform,
      shop_domain: args.shopDomain ?? null,
      display: args.display ?? "page",
      created_at: args.now.toISOString(),
      expires_at: new Date(args.now.getTime() + OAUTH_STATE_TTL_MS).toISOString(),
      used_at: null,
    })
    .execute();
  // Old states are of no use to anyone: sweep them as we go.
  await db
    .deleteFrom("oauth_states")
    .where("expires_at", "<", new Date(args.now.getTime() - OAUTH_STATE_TTL_MS).toISOString())
    .execute();
  return state;
}

/**
 * Uses up a state: answers its claim when it exists, was made for this user
 * and platform, has not been used and has not expired; otherwise null. A state
 * presented by the wrong user or for the wrong platform is used up as well.
 */
export async function consumeOAuthState(
  db: DB,
  args: { state: string; userId: string; platform: string; now: Date },
): Promise<OAuthStateClaim | null> {
  if (!args.state || args.state.length > 200) return null;
  const now = args.now.toISOString();
  const row = await db
    .updateTable("oauth_states")
    .set({ used_at: now })
    .where("state_hash", "=", sha256(args.state))
    .where("used_at", "is", null)
    .where("expires_at", ">", now)
    .returningAll()
    .executeTakeFirst();
  if (!row || row.user_id !== args.userId || row.platform !== args.platform) return null;
  return {
    userId: row.user_id,
    platform: row.platform,
    shopDomain: row.shop_domain,
    display: row.display,
  };
}

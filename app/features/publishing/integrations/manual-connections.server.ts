import type { IntegrationRow } from "#db/schema";
import type { Config } from "~/infra/config.server";
import type { DB } from "~/infra/db.server";
import { getPlatform } from "~/features/publishing/platforms";
import type { ManualIntegrationInput } from "~/features/publishing/schemas";
import {
  findIntegration,
  saveManualIntegration,
} from "~/features/publishing/integrations/integrations.server";
import {
  checkSftpConnection,
  sftpServerFor,
} from "~/features/publishing/integrations/sftp-connections.server";
import { countIntegrationCheck } from "~/features/publishing/integrations/integration-checks.server";
import { verifyShopifyToken } from "~/features/publishing/integrations/oauth-connections.server";

/**
 * Saves a connection set up by hand. A Shopify token or an Adobe Stock login
 * is checked with the vendor before it is saved; those checks count against
 * the creator's limit (429 past it), so saving is no password oracle. An SFTP
 * connection is saved only once a real sign-in with it worked (against the
 * host key seen before, if any).
 */
export async function connectManually(
  db: DB,
  config: Config,
  args: { userId: string; input: ManualIntegrationInput; now: Date },
): Promise<IntegrationRow> {
  const { input, userId, now } = args;
  const platform = getPlatform(input.platform);
  const checksShopify = input.platform === "shopify" && Boolean(input.shopDomain);
  const checksSftp = platform.capability === "sftpSubmission" && Boolean(input.username);
  if (checksShopify || checksSftp) await countIntegrationCheck({ db, config, now }, userId);
  if (checksShopify && input.shopDomain) {
    await verifyShopifyToken(input.shopDomain, input.apiKey);
  }
  let hostKey: string | null = null;
  if (checksSftp && input.username) {
    const existing = await findIntegration(db, userId, platform.id);
    const checked = await checkSftpConnection({
      platform,
      server: sftpServerFor(platform, config),
      username: input.username,
      password: input.apiKey,
      pinnedHostKey: existing?.host_key ?? null,
    });
    hostKey = checked.hostKey;
  }
  return saveManualIntegration(db, { userId, input, hostKey, now });
}

import { getDb } from "~/infra/db.server";

/**
 * Removes every Shopify connection of the test database. A store takes one
 * OAuth connection at a time, so files whose tests each connect a new creator
 * to the same test store call this between tests.
 */
export async function forgetShopifyConnections(): Promise<void> {
  await getDb().deleteFrom("integrations").where("platform", "=", "shopify").execute();
}

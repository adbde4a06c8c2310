import { type AnyDb, index, notNull, nullable, ownedBy, tableWithId } from "./helpers";

// Frozen: a migration never imports app code and never changes once landed.
//
// Publishing: the creator's platform connections (credentials sealed with
// AES-256-GCM before they reach this table), the single-use OAuth states, and
// one row per stylized image and platform holding what was sent there, its
// state, URL and last error.

export async function up(db: AnyDb): Promise<void> {
  await tableWithId(db, "integrations")
    .$call(ownedBy("user_id", "users.id"))
    .addColumn("platform", "text", (c) => c.notNull())
    // "oauth" or "apiKey": how the credential was obtained.
    .addColumn("method", "text", (c) => c.notNull())
    // Sealed (AES-256-GCM) JSON of the secret; never stored or sent in the clear.
    .$call(notNull("text", "credentials", "key_last4"))
    .$call(nullable("text", "wallet_address", "shop_domain", "scopes"))
    .addColumn("is_active", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("last_error", "text")
    .$call(notNull("text", "created_at", "updated_at"))
    .addUniqueConstraint("integrations_user_id_platform", ["user_id", "platform"])
    .execute();

  await db.schema
    .createTable("oauth_states")
    // Only the hash of the state travels into the database.
    .addColumn("state_hash", "text", (c) => c.primaryKey())
    .$call(ownedBy("user_id", "users.id"))
    .addColumn("platform", "text", (c) => c.notNull())
    .addColumn("shop_domain", "text")
    // "popup": the callback answers a page that closes itself; "page": it redirects to /integrations.
    .addColumn("display", "text", (c) => c.notNull().defaultTo("page"))
    .$call(notNull("text", "created_at", "expires_at"))
    .addColumn("used_at", "text")
    .execute();
  await index(db, "oauth_states_expires_at", "oauth_states", ["expires_at"]).execute();

  await tableWithId(db, "listing_platforms")
    .$call(ownedBy("user_id", "users.id"))
    .$call(ownedBy("stylized_image_id", "stylized_images.id"))
    // The own marketplace's listing, when the platform is `marketplace`.
    .addColumn("listing_id", "text", (c) => c.references("listings.id").onDelete("set null"))
    .addColumn("platform", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull().defaultTo("queued"))
    .$call(nullable("text", "url", "last_error"))
    // What was sent: title, description, price, tags, switches.
    .addColumn("title", "text", (c) => c.notNull())
    .addColumn("description", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("price_cents", "integer", (c) => c.notNull())
    .addColumn("tags", "text", (c) => c.notNull().defaultTo("[]"))
    .addColumn("licensing_enabled", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("nft_enabled", "integer", (c) => c.notNull().defaultTo(0))
    // The platform's own id of what we made there (Shopify's product GID).
    .addColumn("external_id", "text")
    // The mint kit or export package (a zip under kits/).
    .addColumn("artifact_key", "text")
    // Bumped on every new request, so an older job never overwrites a newer one.
    .addColumn("revision", "integer", (c) => c.notNull().defaultTo(1))
    .$call(notNull("text", "created_at", "updated_at"))
    .addUniqueConstraint("listing_platforms_stylized_image_id_platform", [
      "stylized_image_id",
      "platform",
    ])
    .execute();
  await index(db, "listing_platforms_user_id_updated_at", "listing_platforms", [
    "user_id",
    "updated_at",
  ]).execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable("listing_platforms").execute();
  await db.schema.dropTable("oauth_states").execute();
  await db.schema.dropTable("integrations").execute();
}

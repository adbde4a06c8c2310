/**
 * A Shopify store's domain, as the creator may type it ("my-store",
 * "my-store.myshopify.com", "https://my-store.myshopify.com/admin", or the
 * admin's own address "https://admin.shopify.com/store/my-store") made into
 * the one form OAuth and the Admin API accept: "<name>.myshopify.com". Anything
 * else is refused, so no URL of ours ever points at a host the creator typed.
 */
const SHOP_NAME = /^[a-z0-9][a-z0-9-]{0,59}$/;

export const INVALID_SHOP_DOMAIN =
  "Please enter your store's myshopify.com domain, e.g. my-store.myshopify.com";

export function normalizeShopDomain(input: unknown): string | null {
  if (typeof input !== "string") return null;
  let value = input.trim().toLowerCase();
  value = value.replace(/^https?:\/\//, "");
  // The admin's address names the store by its handle: admin.shopify.com/store/<handle>[/...].
  const admin = /^admin\.shopify\.com\/store\/([^/?#]+)(?:[/?#].*)?$/.exec(value);
  if (admin) value = admin[1];
  value = value.replace(/[/?#].*$/, "");
  if (value.endsWith(".myshopify.com")) value = value.slice(0, -".myshopify.com".length);
  if (!SHOP_NAME.test(value) || value.endsWith("-")) return null;
  return `${value}.myshopify.com`;
}

/** Strict check for a domain that came back from Shopify (no normalising). */
export function isShopDomain(value: unknown): value is string {
  return typeof value === "string" && /^[a-z0-9][a-z0-9-]{0,59}\.myshopify\.com$/.test(value);
}

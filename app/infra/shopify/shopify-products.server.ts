import type { ShopifyAdminClient } from "~/infra/shopify/shopify-admin.server";
import { ShopifyAuthError, ShopifyRequestError } from "~/infra/shopify/shopify-errors.server";

/**
 * Puts one image up for sale in a Shopify store through the Admin GraphQL
 * API: creates (or updates) the product with its image (fetched by Shopify
 * from a signed URL of ours), prices its one variant as a digital good (no
 * shipping, inventory not tracked), waits a bounded while for Shopify to
 * process the image (a failed image is an error, not a silent listing),
 * publishes it to the Online Store publication (found by its catalog title)
 * and reads the storefront address. A successful `publishablePublish` is what
 * makes it published: the URL is `onlineStoreUrl` when Shopify gives one, else
 * the shop's primary domain and the product's handle (a password-protected
 * storefront, e.g. a development store, answers no `onlineStoreUrl`).
 */

export interface ShopifyProductInput {
  title: string;
  descriptionHtml: string;
  tags: string[];
  /** Dollars with cents, e.g. "25.00". */
  price: string;
  /** An absolute URL Shopify can fetch the image from. */
  imageUrl: string;
  imageAlt: string;
}

export interface ShopifyProductOutcome {
  productId: string;
  adminUrl: string;
  /** The product's storefront page. */
  url: string;
  /** Whether buyers meet a password page first (null when Shopify did not say). */
  passwordProtected: boolean | null;
  /** Something the creator should know although the product is published, or null. */
  note: string | null;
}

/** Shopify could not process the product's image: the product is not put on sale. */
export class ShopifyMediaError extends ShopifyRequestError {
  constructor(message: string) {
    super(message);
    this.name = "ShopifyMediaError";
  }
}

export const PASSWORD_PROTECTED_NOTE =
  "Published, but the store's storefront is password-protected: buyers see a password page until the password is removed in Shopify (Online Store > Preferences).";
export const MEDIA_PROCESSING_NOTE = "Published; Shopify is still processing the image.";

export interface MediaPolling {
  /** How many times the image's state is read after the product is made (at least 1). */
  attempts: number;
  /** Pause between reads. */
  delayMs: number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

export const DEFAULT_MEDIA_POLLING: MediaPolling = { attempts: 6, delayMs: 1500 };

interface UserError {
  field?: string[] | null;
  message: string;
}

interface ProductNode {
  id: string;
  handle: string;
  variants: { nodes: { id: string }[] };
}

export const PRODUCT_CREATE = `mutation SelfieStudioProductCreate($product: ProductCreateInput!, $media: [CreateMediaInput!]) {
  productCreate(product: $product, media: $media) {
    product { id handle variants(first: 1) { nodes { id } } }
    userErrors { field message }
  }
}`;

export const PRODUCT_UPDATE = `mutation SelfieStudioProductUpdate($product: ProductUpdateInput!, $media: [CreateMediaInput!]) {
  productUpdate(product: $product, media: $media) {
    product { id handle variants(first: 1) { nodes { id } } }
    userErrors { field message }
  }
}`;

export const VARIANT_PRICE = `mutation SelfieStudioVariantPrice($productId: ID!, $variants: [ProductVariantsBulkInput!]!) {
  productVariantsBulkUpdate(productId: $productId, variants: $variants) {
    productVariants { id price }
    userErrors { field message }
  }
}`;

export const PRODUCT_MEDIA = `query SelfieStudioProductMedia($id: ID!) {
  product(id: $id) {
    id
    media(first: 10) { nodes { id status mediaErrors { code details message } } }
  }
}`;

export const PUBLICATIONS = `query SelfieStudioPublications {
  publications(first: 25) { nodes { id catalog { title } } }
}`;

export const PUBLISH = `mutation SelfieStudioPublish($id: ID!, $input: [PublicationInput!]!) {
  publishablePublish(id: $id, input: $input) {
    userErrors { field message }
  }
}`;

export const PRODUCT_STATE = `query SelfieStudioProductState($id: ID!) {
  product(id: $id) { id handle status onlineStoreUrl }
  shop { primaryDomain { host url } }
}`;

export const STOREFRONT_PASSWORD = `query SelfieStudioStorefrontPassword {
  onlineStore { passwordProtection { enabled } }
}`;

/** The Online Store publication's catalog title (Publication.name is deprecated). */
export const ONLINE_STORE_TITLE = "Online Store";

function failOnUserErrors(step: string, errors: UserError[] | undefined) {
  if (errors && errors.length > 0) {
    throw new ShopifyRequestError(
      `${step}: ${errors
        .map((error) => error.message)
        .join("; ")
        .slice(0, 300)}`,
    );
  }
}

/** The product's page in the merchant's admin (gid://shopify/Product/123 -> /admin/products/123). */
export function shopifyAdminProductUrl(shop: string, productId: string): string {
  const numeric = productId.split("/").pop() ?? productId;
  return `https://${shop}/admin/products/${numeric}`;
}

interface MediaNode {
  id: string;
  status: "UPLOADED" | "PROCESSING" | "READY" | "FAILED" | string;
  mediaErrors?: { code?: string; details?: string | null; message?: string }[];
}

async function productMedia(
  client: ShopifyAdminClient,
  productId: string,
  signal?: AbortSignal,
): Promise<MediaNode[]> {
  const data = await client.graphql<{ product: { media: { nodes: MediaNode[] } } | null }>(
    PRODUCT_MEDIA,
    { id: productId },
    signal,
  );
  return data.product?.media.nodes ?? [];
}

function mediaErrorText(nodes: MediaNode[]): string {
  const errors = nodes.flatMap((node) => node.mediaErrors ?? []);
  const text = errors
    .map(
      (error) =>
        [error.message, error.details].filter(Boolean).join(": ") || error.code || "unknown error",
    )
    .join("; ")
    .slice(0, 300);
  return `Shopify could not process the image${text ? ` (${text})` : ""}; the product was not put on sale.`;
}

const defaultSleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => {
      clearTimeout(timer);
      reject(signal.reason instanceof Error ? signal.reason : new Error("Aborted"));
    });
  });

/**
 * Reads the image's processing state until it is READY or FAILED, at most
 * `attempts` times. Answers "ready", "processing" (still going when the reads
 * ran out) or throws ShopifyMediaError with Shopify's media errors.
 */
export async function awaitProductMedia(
  client: ShopifyAdminClient,
  productId: string,
  polling: MediaPolling,
  signal?: AbortSignal,
): Promise<"ready" | "processing"> {
  const sleep = polling.sleep ?? defaultSleep;
  for (let attempt = 1; ; attempt++) {
    const nodes = await productMedia(client, productId, signal);
    if (nodes.some((node) => node.status === "READY")) return "ready";
    if (nodes.length === 0 || nodes.every((node) => node.status === "FAILED"))
      throw new ShopifyMediaError(mediaErrorText(nodes));
    if (attempt >= Math.max(1, polling.attempts)) return "processing";
    await sleep(polling.delayMs, signal);
  }
}

/**
 * Creates the product, or updates the one made before (`existingProductId`).
 * `onCreated` runs as soon as Shopify answers the new product's id, so a retry
 * after a later failure updates that product instead of making a second one.
 */
export async function upsertShopifyProduct(
  client: ShopifyAdminClient,
  input: ShopifyProductInput,
  options: {
    existingProductId?: string | null;
    onCreated?: (productId: string) => Promise<void>;
    signal?: AbortSignal;
    mediaPolling?: MediaPolling;
  } = {},
): Promise<ShopifyProductOutcome> {
  const fields = {
    title: input.title,
    descriptionHtml: input.descriptionHtml,
    tags: input.tags,
    status: "ACTIVE",
  };
  const media = [
    { originalSource: input.imageUrl, mediaContentType: "IMAGE", alt: input.imageAlt },
  ];

  let product: ProductNode | null = null;
  if (options.existingProductId) {
    // An image that failed before (or was deleted) is attached again.
    const existingMedia = await productMedia(client, options.existingProductId, options.signal);
    const hasImage = existingMedia.some((node) => node.status !== "FAILED");
    const data = await client.graphql<{
      productUpdate: { product: ProductNode | null; userErrors: UserError[] };
    }>(
      PRODUCT_UPDATE,
      { product: { id: options.existingProductId, ...fields }, media: hasImage ? null : media },
      options.signal,
    );
    // A product the merchant deleted in the meantime is made again.
    if (data.productUpdate.product) {
      failOnUserErrors("Updating the product", data.productUpdate.userErrors);
      product = data.productUpdate.product;
    }
  }
  if (!product) {
    const data = await client.graphql<{
      productCreate: { product: ProductNode | null; userErrors: UserError[] };
    }>(
      PRODUCT_CREATE,
      {
        product: { ...fields, productType: "Digital art", vendor: "Selfie Studio creator" },
        media,
      },
      options.signal,
    );
    failOnUserErrors("Creating the product", data.productCreate.userErrors);
    if (!data.productCreate.product)
      throw new ShopifyRequestError("Shopify did not create the product");
    product = data.productCreate.product;
    await options.onCreated?.(product.id);
  }

  const variantId = product.variants.nodes[0]?.id;
  if (!variantId) throw new ShopifyRequestError("The product has no variant to price");
  // A downloadable image: no shipping address asked, never "Sold out" for want of stock.
  const priced = await client.graphql<{ productVariantsBulkUpdate: { userErrors: UserError[] } }>(
    VARIANT_PRICE,
    {
      productId: product.id,
      variants: [
        {
          id: variantId,
          price: input.price,
          inventoryItem: { requiresShipping: false, tracked: false },
        },
      ],
    },
    options.signal,
  );
  failOnUserErrors("Setting the price", priced.productVariantsBulkUpdate.userErrors);

  const mediaState = await awaitProductMedia(
    client,
    product.id,
    options.mediaPolling ?? DEFAULT_MEDIA_POLLING,
    options.signal,
  );

  const publications = await client.graphql<{
    publications: { nodes: { id: string; catalog: { title: string } | null }[] };
  }>(PUBLICATIONS, {}, options.signal);
  const onlineStore = publications.publications.nodes.find(
    (publication) => publication.catalog?.title === ONLINE_STORE_TITLE,
  );
  if (!onlineStore) {
    throw new ShopifyRequestError(
      "The store has no Online Store sales channel, so the product cannot be shown to buyers",
    );
  }
  const published = await client.graphql<{ publishablePublish: { userErrors: UserError[] } }>(
    PUBLISH,
    { id: product.id, input: [{ publicationId: onlineStore.id }] },
    options.signal,
  );
  failOnUserErrors("Publishing to the Online Store", published.publishablePublish.userErrors);

  // Published. Where buyers find it: Shopify's storefront URL, else the primary domain and the handle.
  const state = await client.graphql<{
    product: { id: string; handle: string; status: string; onlineStoreUrl: string | null } | null;
    shop: { primaryDomain: { host: string; url: string } };
  }>(PRODUCT_STATE, { id: product.id }, options.signal);
  const handle = state.product?.handle ?? product.handle;
  const given = state.product?.onlineStoreUrl;
  const url =
    given && /^https:\/\//.test(given)
      ? given
      : `https://${state.shop.primaryDomain.host}/products/${encodeURIComponent(handle)}`;
  const passwordProtected = await storefrontPasswordProtected(client, options.signal);
  const note = passwordProtected
    ? PASSWORD_PROTECTED_NOTE
    : mediaState === "processing"
      ? MEDIA_PROCESSING_NOTE
      : null;
  return {
    productId: product.id,
    adminUrl: shopifyAdminProductUrl(client.shop, product.id),
    url,
    passwordProtected,
    note,
  };
}

/** Whether the Online Store has its password page on; null when Shopify would not say (e.g. a scope it wants). */
export async function storefrontPasswordProtected(
  client: ShopifyAdminClient,
  signal?: AbortSignal,
): Promise<boolean | null> {
  try {
    const data = await client.graphql<{
      onlineStore: { passwordProtection: { enabled: boolean } } | null;
    }>(STOREFRONT_PASSWORD, {}, signal);
    return typeof data.onlineStore?.passwordProtection?.enabled === "boolean"
      ? data.onlineStore.passwordProtection.enabled
      : null;
  } catch (error) {
    // Only a refusal of this one field is tolerated; a dead token or an outage is not.
    if (
      error instanceof ShopifyRequestError ||
      (error instanceof ShopifyAuthError && error.status === 403)
    )
      return null;
    throw error;
  }
}

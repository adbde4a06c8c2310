import type { ShopifyAdminClient } from "~/infra/shopify/shopify-admin.server";
import { ShopifyRequestError, ShopifyTransientError } from "~/infra/shopify/shopify-errors.server";

/**
 * Puts one image up for sale in a Shopify store through the Admin GraphQL
 * API: creates (or updates) the product with its image (fetched by Shopify
 * from a signed URL of ours) and price, publishes it to the Online Store and
 * reads back the storefront URL. The product is only reported as live with the
 * `onlineStoreUrl` Shopify itself answers.
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
  onlineStoreUrl: string;
}

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

export const PRODUCT_UPDATE = `mutation SelfieStudioProductUpdate($product: ProductUpdateInput!) {
  productUpdate(product: $product) {
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

export const PUBLICATIONS = `query SelfieStudioPublications {
  publications(first: 25) { nodes { id name } }
}`;

export const PUBLISH = `mutation SelfieStudioPublish($id: ID!, $input: [PublicationInput!]!) {
  publishablePublish(id: $id, input: $input) {
    userErrors { field message }
  }
}`;

export const PRODUCT_STATE = `query SelfieStudioProductState($id: ID!) {
  product(id: $id) { id status onlineStoreUrl }
}`;

function failOnUserErrors(step: string, errors: UserError[] | undefined) {
  if (errors && errors.length > 0) {
    throw new ShopifyRequestError(`${step}: ${errors.map((error) => error.message).join("; ").slice(0, 300)}`);
  }
}

/** The product's page in the merchant's admin (gid://shopify/Product/123 -> /admin/products/123). */
export function shopifyAdminProductUrl(shop: string, productId: string): string {
  const numeric = productId.split("/").pop() ?? productId;
  return `https://${shop}/admin/products/${numeric}`;
}

/**
 * Creates the product, or updates the one made before (`existingProductId`).
 * `onCreated` runs as soon as Shopify answers the new product's id, so a retry
 * after a later failure updates that product instead of making a second one.
 */
export async function upsertShopifyProduct(
  client: ShopifyAdminClient,
  input: ShopifyProductInput,
  options: { existingProductId?: string | null; onCreated?: (productId: string) => Promise<void>; signal?: AbortSignal } = {},
): Promise<ShopifyProductOutcome> {
  const fields = {
    title: input.title,
    descriptionHtml: input.descriptionHtml,
    tags: input.tags,
    status: "ACTIVE",
  };

  let product: ProductNode | null = null;
  if (options.existingProductId) {
    const data = await client.graphql<{ productUpdate: { product: ProductNode | null; userErrors: UserError[] } }>(
      PRODUCT_UPDATE,
      { product: { id: options.existingProductId, ...fields } },
      options.signal,
    );
    // A product the merchant deleted in the meantime is made again.
    if (data.productUpdate.product) {
      failOnUserErrors("Updating the product", data.productUpdate.userErrors);
      product = data.productUpdate.product;
    }
  }
  if (!product) {
    const data = await client.graphql<{ productCreate: { product: ProductNode | null; userErrors: UserError[] } }>(
      PRODUCT_CREATE,
      {
        product: { ...fields, productType: "Digital art", vendor: "Selfie Studio creator" },
        media: [{ originalSource: input.imageUrl, mediaContentType: "IMAGE", alt: input.imageAlt }],
      },
      options.signal,
    );
    failOnUserErrors("Creating the product", data.productCreate.userErrors);
    if (!data.productCreate.product) throw new ShopifyRequestError("Shopify did not create the product");
    product = data.productCreate.product;
    await options.onCreated?.(product.id);
  }

  const variantId = product.variants.nodes[0]?.id;
  if (!variantId) throw new ShopifyRequestError("The product has no variant to price");
  const priced = await client.graphql<{ productVariantsBulkUpdate: { userErrors: UserError[] } }>(
    VARIANT_PRICE,
    { productId: product.id, variants: [{ id: variantId, price: input.price }] },
    options.signal,
  );
  failOnUserErrors("Setting the price", priced.productVariantsBulkUpdate.userErrors);

  const publications = await client.graphql<{ publications: { nodes: { id: string; name: string }[] } }>(
    PUBLICATIONS,
    {},
    options.signal,
  );
  const onlineStore = publications.publications.nodes.find((publication) => publication.name === "Online Store");
  if (!onlineStore) {
    throw new ShopifyRequestError("The store has no Online Store sales channel, so the product cannot be shown to buyers");
  }
  const published = await client.graphql<{ publishablePublish: { userErrors: UserError[] } }>(
    PUBLISH,
    { id: product.id, input: [{ publicationId: onlineStore.id }] },
    options.signal,
  );
  failOnUserErrors("Publishing to the Online Store", published.publishablePublish.userErrors);

  const state = await client.graphql<{ product: { id: string; status: string; onlineStoreUrl: string | null } | null }>(
    PRODUCT_STATE,
    { id: product.id },
    options.signal,
  );
  const url = state.product?.onlineStoreUrl;
  if (!state.product || state.product.status !== "ACTIVE" || !url || !/^https:\/\//.test(url)) {
    // Shopify has not confirmed a storefront URL (yet): try again later rather than claim it is live.
    throw new ShopifyTransientError("Shopify has not confirmed the product on the Online Store yet");
  }
  return { productId: product.id, adminUrl: shopifyAdminProductUrl(client.shop, product.id), onlineStoreUrl: url };
}

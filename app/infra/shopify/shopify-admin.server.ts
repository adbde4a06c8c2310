import { isShopDomain } from "~/lib/shop-domain";
import type { FetchLike } from "~/infra/shopify/shopify-errors.server";
import { networkFailureReason } from "~/infra/network-failure.server";
import {
  defaultFetch,
  ShopifyAuthError,
  shopifyHttpError,
  ShopifyRequestError,
  ShopifyTransientError,
} from "~/infra/shopify/shopify-errors.server";

/** The Admin API version every call names (Shopify's stable release of October 2026). */
export const SHOPIFY_API_VERSION = "2026-10";

interface GraphqlError {
  message?: string;
  extensions?: { code?: string };
}

/**
 * Where the client gets its access token: a fixed one (a custom app's token),
 * or a source that renews an expiring token before it runs out and, once, after
 * Shopify refused it (401).
 */
export interface ShopifyTokenSource {
  token(): Promise<string>;
  /** A fresh token after Shopify refused `rejected`; throws ShopifyAuthError when none can be had. */
  refreshAfterRejection(rejected: string): Promise<string>;
}

/** A small client of one store's Admin GraphQL API. */
export class ShopifyAdminClient {
  private readonly tokens: ShopifyTokenSource | null;
  private readonly fixedToken: string;

  constructor(
    readonly shop: string,
    access: string | ShopifyTokenSource,
    private readonly fetchImpl: FetchLike = defaultFetch,
  ) {
    if (!isShopDomain(shop)) throw new ShopifyRequestError("Not a myshopify.com domain");
    this.tokens = typeof access === "string" ? null : access;
    this.fixedToken = typeof access === "string" ? access : "";
  }

  get endpoint(): string {
    return `https://${this.shop}/admin/api/${SHOPIFY_API_VERSION}/graphql.json`;
  }

  private async post(
    accessToken: string,
    query: string,
    variables: Record<string, unknown>,
    signal?: AbortSignal,
  ): Promise<Response> {
    try {
      return await this.fetchImpl(this.endpoint, {
        method: "POST",
        headers: {
          "Content-Type": "application/json",
          Accept: "application/json",
          "X-Shopify-Access-Token": accessToken,
        },
        body: JSON.stringify({ query, variables }),
        signal: signal
          ? AbortSignal.any([signal, AbortSignal.timeout(30_000)])
          : AbortSignal.timeout(30_000),
      });
    } catch (error) {
      throw new ShopifyTransientError(
        `Could not reach Shopify: ${networkFailureReason(error)}. Please try again in a few minutes.`,
      );
    }
  }

  async graphql<T>(
    query: string,
    variables: Record<string, unknown> = {},
    signal?: AbortSignal,
  ): Promise<T> {
    const accessToken = this.tokens ? await this.tokens.token() : this.fixedToken;
    let response = await this.post(accessToken, query, variables, signal);
    if (response.status === 401 && this.tokens) {
      // Expired or revoked early: renew once and try again; a second 401 is final.
      await response.text().catch(() => "");
      response = await this.post(
        await this.tokens.refreshAfterRejection(accessToken),
        query,
        variables,
        signal,
      );
    }
    if (!response.ok) throw await shopifyHttpError(response, "Admin API");
    const body = (await response.json().catch(() => null)) as {
      data?: T;
      errors?: GraphqlError[] | string;
    } | null;
    if (!body) throw new ShopifyTransientError("Shopify answered something that is not JSON");
    if (body.errors) {
      const errors = Array.isArray(body.errors) ? body.errors : [{ message: String(body.errors) }];
      const codes = errors.map((error) => error.extensions?.code);
      const text = errors
        .map((error) => error.message ?? "error")
        .join("; ")
        .slice(0, 300);
      if (codes.includes("THROTTLED"))
        throw new ShopifyTransientError(`Shopify is throttling requests: ${text}`);
      if (codes.includes("ACCESS_DENIED")) {
        throw new ShopifyAuthError(
          403,
          `Shopify denied access (${text}); please connect Shopify again and grant product and publication access`,
        );
      }
      if (codes.includes("INTERNAL_SERVER_ERROR"))
        throw new ShopifyTransientError(`Shopify had an internal error: ${text}`);
      throw new ShopifyRequestError(`Shopify refused the request: ${text}`);
    }
    if (!body.data) throw new ShopifyTransientError("Shopify's answer had no data");
    return body.data;
  }
}

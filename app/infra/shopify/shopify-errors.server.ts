/**
 * What can go wrong talking to Shopify, sorted by what the caller should do:
 * reconnect (401/403), try again later (429, 5xx, network), or give up and
 * tell the creator (anything else). `retryable` is what the job worker reads.
 */
export class ShopifyAuthError extends Error {
  readonly retryable = false;
  constructor(
    public readonly status: number,
    message = "Shopify refused the store's access token; please connect Shopify again",
  ) {
    super(message);
    this.name = "ShopifyAuthError";
  }
}

export class ShopifyTransientError extends Error {
  readonly retryable = true;
  constructor(message: string) {
    super(message);
    this.name = "ShopifyTransientError";
  }
}

export class ShopifyRequestError extends Error {
  readonly retryable = false;
  constructor(message: string) {
    super(message);
    this.name = "ShopifyRequestError";
  }
}

export type FetchLike = (input: string, init?: RequestInit) => Promise<Response>;

/** Late-bound, so msw (tests) and any later patch of fetch are seen. */
export const defaultFetch: FetchLike = (input, init) => fetch(input, init);

/** Turns a non-ok answer into the right error. */
export async function shopifyHttpError(response: Response, what: string): Promise<Error> {
  const text = (await response.text().catch(() => "")).slice(0, 300);
  if (response.status === 401 || response.status === 403)
    return new ShopifyAuthError(response.status);
  if (response.status === 429 || response.status >= 500) {
    return new ShopifyTransientError(
      `${what}: Shopify answered ${response.status}; will try again`,
    );
  }
  return new ShopifyRequestError(
    `${what}: Shopify answered ${response.status}${text ? `: ${text}` : ""}`,
  );
}

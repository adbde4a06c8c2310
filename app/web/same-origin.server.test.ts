import { describe, expect, it } from "vitest";
import { API_ROUTES } from "~/routes/api+/api-route-table.server";
import { isCrossSiteMutation, sameOriginExemption } from "~/web/same-origin.server";

const request = (method: string, headers: Record<string, string>) =>
  new Request("http://localhost:3000/dashboard", { method, headers });

describe("isCrossSiteMutation", () => {
  it("never blocks reads", () => {
    expect(isCrossSiteMutation(request("GET", { Origin: "https://evil.example" }))).toBe(false);
  });
  it("allows same-origin posts and non-browser posts", () => {
    expect(isCrossSiteMutation(request("POST", { Origin: "http://localhost:3000" }))).toBe(false);
    expect(isCrossSiteMutation(request("POST", { "Sec-Fetch-Site": "same-origin" }))).toBe(false);
    expect(isCrossSiteMutation(request("POST", {}))).toBe(false);
  });
  it("blocks other origins, opaque origins and cross-site fetch metadata", () => {
    expect(isCrossSiteMutation(request("POST", { Origin: "https://evil.example" }))).toBe(true);
    expect(isCrossSiteMutation(request("DELETE", { Origin: "null" }))).toBe(true);
    expect(isCrossSiteMutation(request("POST", { "Sec-Fetch-Site": "cross-site" }))).toBe(true);
    expect(isCrossSiteMutation(request("POST", { "Sec-Fetch-Site": "same-site" }))).toBe(true);
  });
});

describe("sameOriginExemption", () => {
  const isExemptFromSameOrigin = sameOriginExemption(API_ROUTES);

  it("exempts a bearer call and the signed webhooks, nothing else", () => {
    expect(isExemptFromSameOrigin("POST", "/api/token-images", "Bearer abc")).toBe(true);
    expect(isExemptFromSameOrigin("POST", "/api/webhooks/stripe", null)).toBe(true);
    expect(isExemptFromSameOrigin("POST", "/api/webhooks/shopify", null)).toBe(true);
    expect(isExemptFromSameOrigin("POST", "/dashboard", null)).toBe(false);
    expect(isExemptFromSameOrigin("POST", "/api/webhooksx", null)).toBe(false);
    expect(isExemptFromSameOrigin("POST", "/api/account", "Basic abc")).toBe(false);
  });

  it("exempts a webhook's own method and path only, as the router matches the path", () => {
    expect(isExemptFromSameOrigin("post", "/API/Webhooks/Stripe/", null)).toBe(true);
    expect(isExemptFromSameOrigin("PUT", "/api/webhooks/stripe", null)).toBe(false);
    expect(isExemptFromSameOrigin("DELETE", "/api/webhooks/shopify", null)).toBe(false);
    expect(isExemptFromSameOrigin("POST", "/api/webhooks/other", null)).toBe(false);
    expect(isExemptFromSameOrigin("POST", "/api/webhooks/stripe/more", null)).toBe(false);
    expect(isExemptFromSameOrigin("POST", "/dashboard/api/webhooks/stripe", null)).toBe(false);
  });
});

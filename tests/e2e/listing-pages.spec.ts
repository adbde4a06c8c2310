import type { APIRequestContext } from "@playwright/test";
import sharp from "sharp";
import { ACCOUNTS, expect, expectAccessible, signIn, tap, test, tokenFor } from "./fixtures";

/**
 * A listing's own page and a creator's storefront, with JavaScript on and off:
 * a visitor reaches the page from the marketplace grid, its share tags are
 * read from the HTML as a crawler reads them (the og:image fetched and
 * measured, the JSON-LD parsed), Add to cart and Buy now work, the creator's
 * name leads to their storefront; unknown pages are 404s; the creator finds
 * the share links on their live creation; the sitemap and robots.txt answer.
 */

const HANDLE = "demo-dana";

/** The demo creator gets a public handle (the same one in both runs). */
async function giveDemoCreatorAHandle(request: APIRequestContext) {
  const token = await tokenFor(request, ACCOUNTS.creator);
  const patched = await request.patch("/api/account", {
    headers: { Authorization: `Bearer ${token}` },
    data: { handle: HANDLE, bio: 'I make portraits <b>with</b> "care".' },
  });
  expect(patched.status()).toBe(200);
}

/** The meta tags of a page's HTML, as a crawler (no JavaScript) reads them. */
function metaOf(html: string): Map<string, string> {
  const head = html.slice(0, html.indexOf("</head>"));
  const tags = new Map<string, string>();
  for (const match of head.matchAll(
    /<meta\s+(?:property|name)="([^"]+)"\s+content="([^"]*)"\s*\/?>/g,
  ))
    tags.set(match[1], decode(match[2]));
  const canonical = /<link\s+rel="canonical"\s+href="([^"]+)"/.exec(head);
  if (canonical) tags.set("canonical", decode(canonical[1]));
  return tags;
}

function decode(text: string): string {
  return text
    .replace(/&quot;/g, '"')
    .replace(/&#x27;/g, "'")
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");
}

test("a visitor opens a listing's page from the grid, shares it, buys it, and meets its creator's storefront", async ({
  page,
  request,
  javaScriptOn,
  baseURL,
}) => {
  await giveDemoCreatorAHandle(request);

  await page.goto("/marketplace");
  // A listing sold under the Standard licence only (another test may have listed one with tiers,
  // whose page offers a choice of licence instead of Add to cart and Buy now).
  const card = page
    .getByTestId("listing-card")
    .filter({ hasNot: page.getByTestId("listing-tiers") })
    .first();
  const title = (await card.getByTestId("listing-link").textContent())!.trim();
  await tap(page, card.getByTestId("listing-link"));
  await expect(page).toHaveURL(/\/marketplace\/[A-Za-z0-9_-]+$/);
  const listingPath = new URL(page.url()).pathname;
  await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();
  await expect(
    page.getByTestId("license-sentence").getByRole("link", { name: "Read the license terms" }),
  ).toHaveAttribute("href", "/license");
  await expect(page.getByRole("heading", { name: /^More from / })).toBeVisible();
  await expectAccessible(page, javaScriptOn);

  // What a crawler or a chat app reads: the HTML as served.
  const served = await request.get(listingPath);
  expect(served.status()).toBe(200);
  const html = await served.text();
  const meta = metaOf(html);
  const here = `${baseURL}${listingPath}`;
  expect(meta.get("og:title")).toBe(title);
  expect(meta.get("og:url")).toBe(here);
  expect(meta.get("canonical")).toBe(here);
  expect(meta.get("og:type")).toBe("product");
  expect(meta.get("og:description")?.length).toBeGreaterThan(0);
  expect(meta.get("twitter:card")).toBe("summary_large_image");
  expect([meta.get("og:image:width"), meta.get("og:image:height")]).toEqual(["1200", "630"]);
  const image = await request.get(meta.get("og:image")!);
  expect(image.status()).toBe(200);
  expect(image.headers()["content-type"]).toBe("image/jpeg");
  // Short-lived, as every public preview file is: an erasure must not outlive a cache by long.
  expect(image.headers()["cache-control"]).toBe("public, max-age=600");
  const measured = await sharp(await image.body()).metadata();
  expect([measured.width, measured.height]).toEqual([1200, 630]);
  const ld = /<script type="application\/ld\+json">([\s\S]*?)<\/script>/.exec(html);
  expect(ld).not.toBeNull();
  const product = JSON.parse(ld![1]) as {
    "@type": string;
    name: string;
    offers: {
      price: string;
      priceCurrency: string;
      availability: string;
      seller: { name: string; url?: string };
    };
  };
  expect(product["@type"]).toBe("Product");
  expect(product.name).toBe(title);
  const shownPrice = (await page.getByTestId("listing-page-price").textContent())!.trim();
  expect(`$${product.offers.price}`).toBe(shownPrice);
  expect(product.offers.priceCurrency).toBe("USD");
  expect(product.offers.availability).toBe("https://schema.org/InStock");
  expect(product.offers.seller.url).toBe(`${baseURL}/creators/${HANDLE}`);

  // Add to cart stays on the page (without JavaScript it comes back at the buy box, ?added=<id>#listing-<id>)
  // and says so there; Buy now goes on to the checkout page with the image in the cart.
  const details = page.getByTestId("listing-details");
  await tap(page, details.getByTestId("add-to-cart"));
  await expect(details.getByTestId("remove-from-cart")).toBeVisible();
  await expect(details.getByTestId("added-to-cart")).toHaveText("Added — View cart");
  await expect(page).toHaveURL(new RegExp(`${listingPath}(\\?added=[A-Za-z0-9_-]+)?(#.*)?$`));
  await tap(page, details.getByTestId("buy-now"));
  await expect(page).toHaveURL(/\/cart$/);
  await expect(page.getByText(title).first()).toBeVisible();

  // The creator's storefront, from the listing's page.
  await page.goto(listingPath);
  await tap(page, page.getByTestId("creator-link"));
  await expect(page).toHaveURL(new RegExp(`/creators/${HANDLE}$`));
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expect(page.getByTestId("creator-bio")).toHaveText('I make portraits <b>with</b> "care".');
  await expect(page.getByTestId("listing-card").first()).toBeVisible();
  await expectAccessible(page, javaScriptOn);
  const storefrontMeta = metaOf(await (await request.get(`/creators/${HANDLE}`)).text());
  expect(storefrontMeta.get("og:url")).toBe(`${baseURL}/creators/${HANDLE}`);
  expect(storefrontMeta.get("og:type")).toBe("profile");
  // Its style filter keeps to the storefront.
  await page.getByLabel("Style").selectOption("anime");
  if (!javaScriptOn) await page.getByRole("button", { name: "Apply" }).click();
  await expect(page).toHaveURL(new RegExp(`/creators/${HANDLE}\\?.*style=anime`));
  // With JavaScript the address changes before the new cards arrive: every card's style, once they have.
  const badges = page.getByTestId("listing-card").getByTestId("style-badge");
  await expect.poll(async () => [...new Set(await badges.allTextContents())]).toEqual(["Anime"]);
});

test("an unknown listing or handle is the not-found page with a 404", async ({ page }) => {
  for (const path of [
    "/marketplace/no-such-listing",
    "/marketplace/%3Cscript%3E",
    "/creators/nobody-at-all",
    "/creators/%22quoted%22",
  ]) {
    const response = await page.goto(path);
    expect(response?.status(), path).toBe(404);
    await expect(page.getByRole("heading", { level: 1, name: "Page Not Found" })).toBeVisible();
  }
});

test("the creator shares a live creation from the dashboard with plain links", async ({
  page,
  baseURL,
}) => {
  await signIn(page, "creator");
  const share = page.getByTestId("creation-share").first();
  await share.locator("summary").click();
  const url = await share.getByTestId("share-url").inputValue();
  expect(url).toMatch(new RegExp(`^${baseURL}/marketplace/[A-Za-z0-9_-]+$`));
  expect(await share.getByTestId("share-x").getAttribute("href")).toContain(
    `url=${encodeURIComponent(url)}`,
  );
  expect(await share.getByTestId("share-facebook").getAttribute("href")).toContain(
    `u=${encodeURIComponent(url)}`,
  );
  expect(await share.getByTestId("share-pinterest").getAttribute("href")).toContain(
    `url=${encodeURIComponent(url)}`,
  );
  expect(await share.getByTestId("share-mail").getAttribute("href")).toMatch(/^mailto:\?subject=/);
  // The shared link is the listing's page.
  await page.goto(url);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
});

/** How old a sitemap file may be (SITEMAP_CACHE_MS of app/features/market/catalog/sitemap.server.ts). */
const SITEMAP_CACHE_MS = 60_000;

test("the sitemap names every live listing's page and robots.txt points to it", async ({
  request,
  baseURL,
}) => {
  await giveDemoCreatorAHandle(request);
  const robots = await (await request.get("/robots.txt")).text();
  expect(robots).toContain("Disallow: /api/");
  expect(robots).toContain(`Sitemap: ${baseURL}/sitemap.xml`);
  // A sitemap file is made at most once a minute: it names every listing live when it was made.
  const askedAt = Date.now();
  const index = await (await request.get("/sitemap.xml")).text();
  const parts = [...index.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]);
  const urls: string[] = [];
  for (const part of parts) {
    const xml = await (await request.get(part)).text();
    urls.push(...[...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]));
  }
  const market = (await (await request.get("/api/marketplace?limit=100")).json()) as {
    items: { url: string; createdAt: string }[];
  };
  // Each listing is named, unless it was listed within the minute the sitemap may be older than
  // (another test's listing, made after an earlier request made this sitemap).
  for (const item of market.items) {
    if (Date.parse(item.createdAt) > askedAt - SITEMAP_CACHE_MS) continue;
    expect(urls).toContain(item.url);
  }
  expect(market.items.filter((item) => urls.includes(item.url)).length).toBeGreaterThan(0);
  expect(urls).toContain(`${baseURL}/creators/${HANDLE}`);
});

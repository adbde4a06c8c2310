import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import { startServer } from "../../tests/process/support/server-process";

/**
 * `npm run bench:lighthouse`: Lighthouse (mobile, its default throttling) on
 * the public pages of a production build served by `scripts/start.mjs` on a
 * fresh, seeded data directory, with the system Chromium (CHROMIUM_PATH, or
 * /usr/bin/chromium). Prints each page's category scores, LCP, total blocking
 * time and transfer weight. Nothing asserts a score: the figures are for
 * reading (and for the limits the issue tracker names).
 *
 *   npm run build && npm run bench:lighthouse [-- --port=3720] [-- --pages=/auth,/landing]
 */
/** How long the freshly started server is left to finish its start-up work before the first audit. */
const SETTLE_MS = 10_000;
const port = Number(
  process.argv.find((arg) => arg.startsWith("--port="))?.slice("--port=".length) ?? 3720,
);
const chromePath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

interface PageFigures {
  page: string;
  performance: number;
  accessibility: number;
  bestPractices: number;
  seo: number;
  lcpMs: number;
  tbtMs: number;
  weightKiB: number;
}

async function paidLicensePath(
  fetchPath: (pathname: string, init?: RequestInit) => Promise<Response>,
): Promise<string> {
  const market = (await (await fetchPath("/api/marketplace?limit=1")).json()) as {
    items: Array<{ id: string }>;
  };
  const created = await fetchPath("/api/create-checkout-session", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({
      cartItems: [{ imageId: market.items[0].id, licenseType: "standard" }],
      customerInfo: { name: "Bench Buyer", email: "bench@example.com" },
    }),
  });
  const { sessionId } = (await created.json()) as { sessionId: string };
  await fetchPath(`/test-checkout/${encodeURIComponent(sessionId)}`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: "intent=pay",
    redirect: "manual",
  });
  const status = (await (
    await fetchPath(`/api/payment-status/${encodeURIComponent(sessionId)}`)
  ).json()) as { licenseUrl: string };
  return new URL(status.licenseUrl).pathname;
}

async function main() {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "selfie-lighthouse-"));
  const server = await startServer({ dataDir: path.join(scratch, "data"), port, seed: true });
  const chrome = await chromeLauncher.launch({
    chromePath,
    chromeFlags: ["--headless=new", "--no-sandbox", "--disable-gpu"],
  });
  try {
    const chosen = process.argv
      .find((arg) => arg.startsWith("--pages="))
      ?.slice("--pages=".length)
      .split(",");
    const pages = chosen ?? [
      "/",
      "/landing",
      "/marketplace",
      "/auth",
      "/training",
      await paidLicensePath(server.fetch),
    ];
    // A server that has been running: each page asked for once, and the start-up work (the seed's
    // listings, the images' smaller copies made in the background) left to finish, then measured.
    for (const page of pages) await (await server.fetch(page)).arrayBuffer();
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
    const figures: PageFigures[] = [];
    const lost: string[] = [];
    const lcp: string[] = [];
    for (const page of pages) {
      const run = () =>
        lighthouse(`${server.origin}${page}`, {
          port: chrome.port,
          output: "json",
          logLevel: "error",
          onlyCategories: ["performance", "accessibility", "best-practices", "seo"],
          formFactor: "mobile",
        });
      let result = await run();
      // A run that failed to load the page (a busy machine: no first paint in time) is run again, twice at most.
      for (let retry = 0; retry < 2 && (!result || result.lhr.runtimeError); retry++)
        result = await run();
      if (!result) throw new Error(`Lighthouse returned nothing for ${page}`);
      if (result.lhr.runtimeError)
        throw new Error(
          `Lighthouse could not measure ${page}: ${result.lhr.runtimeError.code} ${result.lhr.runtimeError.message}`,
        );
      const { categories, audits } = result.lhr;
      // What cost points outside performance, to read beside the scores.
      for (const id of ["accessibility", "best-practices", "seo"]) {
        for (const ref of categories[id]?.auditRefs ?? []) {
          const audit = audits[ref.id];
          if (ref.weight > 0 && audit && audit.score !== null && audit.score < 1) {
            lost.push(`${page} ${id}: ${audit.title}`);
            // What the browser complained of (Chrome's Issues panel, the console), so a lost point can be traced.
            const items = (audit.details as { items?: unknown[] } | undefined)?.items ?? [];
            for (const item of items.slice(0, 5))
              lost.push(`    ${JSON.stringify(item).slice(0, 400)}`);
          }
        }
      }
      // What the largest paint was, and its phases (time to first byte, load delay and time, render delay).
      const lcpElement = audits["largest-contentful-paint-element"]?.details as
        { items?: Array<{ items?: unknown[] }> } | undefined;
      for (const table of lcpElement?.items ?? []) {
        for (const item of table.items ?? [])
          lcp.push(`${page}: ${JSON.stringify(item).slice(0, 300)}`);
      }
      const score = (id: string) => Math.round((categories[id]?.score ?? 0) * 100);
      figures.push({
        page: page.startsWith("/licenses/") ? "/licenses/{orderId}" : page,
        performance: score("performance"),
        accessibility: score("accessibility"),
        bestPractices: score("best-practices"),
        seo: score("seo"),
        lcpMs: Math.round(audits["largest-contentful-paint"]?.numericValue ?? 0),
        tbtMs: Math.round(audits["total-blocking-time"]?.numericValue ?? 0),
        weightKiB: Math.round((audits["total-byte-weight"]?.numericValue ?? 0) / 1024),
      });
    }
    console.log(
      "| page | performance | accessibility | best practices | SEO | LCP | TBT | weight |",
    );
    console.log("|---|---|---|---|---|---|---|---|");
    for (const row of figures) {
      console.log(
        `| ${row.page} | ${row.performance} | ${row.accessibility} | ${row.bestPractices} | ${row.seo} | ${(row.lcpMs / 1000).toFixed(1)} s | ${row.tbtMs} ms | ${row.weightKiB} KiB |`,
      );
    }
    if (lcp.length > 0)
      console.log(`\nLargest contentful paint:\n${lcp.map((line) => `- ${line}`).join("\n")}`);
    if (lost.length > 0)
      console.log(
        `\nPoints lost outside performance:\n${lost.map((line) => `- ${line}`).join("\n")}`,
      );
  } finally {
    chrome.kill();
    await server.stop();
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});

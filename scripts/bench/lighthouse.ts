import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import { computeMedianRun } from "lighthouse/core/lib/median-run.js";
import { DEMO_CREATOR } from "#db/demo-account";
import { startServer } from "../../tests/process/support/server-process";

/**
 * `npm run bench:lighthouse`: Lighthouse (mobile, its default throttling) on
 * the public pages of a production build served by `scripts/start.mjs` on a
 * fresh, seeded data directory, with the system Chromium (CHROMIUM_PATH, or
 * /usr/bin/chromium). Prints each page's category scores, LCP, total blocking
 * time and transfer weight. Nothing asserts a score: the figures are for
 * reading (and for the limits the issue tracker names).
 *
 * One audit varies by several points from run to run (its CPU figures are this
 * machine's, slowed down fourfold), so, as Lighthouse's own guidance on
 * variability advises, the browser is warmed up with one audit that is thrown
 * away, each page is audited `--runs` times (3 unless told), and the row shows
 * the median run as Lighthouse picks it (`computeMedianRun`: the run nearest
 * the median first paint and time to interactive), with the spread of the
 * performance score beside it.
 *
 *   npm run build && npm run bench:lighthouse [-- --port=3720] [-- --pages=/auth,/landing,{listing},{storefront}] [-- --runs=5] [-- --without-js] [-- --save=dir]
 *
 * `--without-js` audits each page a second time with every script of the build
 * refused, and prints that table too: the score the page's HTML, CSS and images
 * get on this machine alone, the most any change to the JavaScript could reach.
 * `--save=dir` writes each page's median Lighthouse report (JSON) there, to read what a figure is made of.
 */
/** How long the freshly started server is left to finish its start-up work before the first audit. */
const SETTLE_MS = 10_000;
const port = Number(
  process.argv.find((arg) => arg.startsWith("--port="))?.slice("--port=".length) ?? 3720,
);
const chromePath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const saveDir = process.argv.find((arg) => arg.startsWith("--save="))?.slice("--save=".length);
const withoutJs = process.argv.includes("--without-js");
const runs = Math.max(
  1,
  Number(process.argv.find((arg) => arg.startsWith("--runs="))?.slice("--runs=".length) ?? 3),
);

type Result = NonNullable<Awaited<ReturnType<typeof lighthouse>>>["lhr"];

interface PageFigures {
  page: string;
  performance: number;
  /** The lowest and highest performance score of the page's runs. */
  performanceRange: [number, number];
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

/** The newest listing's own page. */
async function listingPagePath(
  fetchPath: (pathname: string, init?: RequestInit) => Promise<Response>,
): Promise<string> {
  const market = (await (await fetchPath("/api/marketplace?limit=1")).json()) as {
    items: Array<{ id: string }>;
  };
  return `/marketplace/${encodeURIComponent(market.items[0].id)}`;
}

/** The seeded demo creator's storefront (the demo creator gets a handle first). */
async function storefrontPath(
  fetchPath: (pathname: string, init?: RequestInit) => Promise<Response>,
): Promise<string> {
  const login = await fetchPath("/api/token-login", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ email: DEMO_CREATOR.email, password: DEMO_CREATOR.password }),
  });
  const { token } = (await login.json()) as { token: string };
  await fetchPath("/api/account", {
    method: "PATCH",
    headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}` },
    body: JSON.stringify({
      handle: "demo-creator",
      bio: "Public-domain portraits, styled four ways.",
    }),
  });
  return "/creators/demo-creator";
}

function printTable(rows: PageFigures[]) {
  console.log("| page | performance | accessibility | best practices | SEO | LCP | TBT | weight |");
  console.log("|---|---|---|---|---|---|---|---|");
  for (const row of rows) {
    console.log(
      `| ${row.page} | ${row.performance} (${row.performanceRange[0]}–${row.performanceRange[1]}) | ${row.accessibility} | ${row.bestPractices} | ${row.seo} | ${(row.lcpMs / 1000).toFixed(1)} s | ${row.tbtMs} ms | ${row.weightKiB} KiB |`,
    );
  }
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
    // `--pages` may name the pages made at run time: {listing} (a listing's page) and {storefront}.
    const resolved = chosen
      ? await Promise.all(
          chosen.map((page) =>
            page === "{listing}"
              ? listingPagePath(server.fetch)
              : page === "{storefront}"
                ? storefrontPath(server.fetch)
                : page,
          ),
        )
      : null;
    const pages = resolved ?? [
      "/",
      "/landing",
      "/marketplace",
      "/auth",
      "/training",
      await paidLicensePath(server.fetch),
      await listingPagePath(server.fetch),
      await storefrontPath(server.fetch),
    ];
    // A server that has been running: each page asked for once, and the start-up work (the seed's
    // listings, the images' smaller copies made in the background) left to finish, then measured.
    for (const page of pages) await (await server.fetch(page)).arrayBuffer();
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
    const lost: string[] = [];
    const lcp: string[] = [];
    /** One audit of a page; with `refuseScripts`, every script of the build is refused, as for a browser without JavaScript. */
    const audit = async (page: string, refuseScripts: boolean): Promise<Result> => {
      const once = () =>
        lighthouse(`${server.origin}${page}`, {
          port: chrome.port,
          output: "json",
          logLevel: "error",
          onlyCategories: ["performance", "accessibility", "best-practices", "seo"],
          formFactor: "mobile",
          blockedUrlPatterns: refuseScripts ? ["*/build/*.js"] : [],
        });
      let result = await once();
      // A run that failed to load the page (a busy machine: no first paint in time) is run again, twice at most.
      for (let retry = 0; retry < 2 && (!result || result.lhr.runtimeError); retry++)
        result = await once();
      if (!result) throw new Error(`Lighthouse returned nothing for ${page}`);
      if (result.lhr.runtimeError)
        throw new Error(
          `Lighthouse could not measure ${page}: ${result.lhr.runtimeError.code} ${result.lhr.runtimeError.message}`,
        );
      return result.lhr;
    };
    /** The page audited `runs` times: the median run's figures, with the spread of the performance score. */
    const measure = async (page: string, refuseScripts: boolean) => {
      const all: Result[] = [];
      for (let i = 0; i < runs; i++) all.push(await audit(page, refuseScripts));
      const performances = all.map((lhr) =>
        Math.round((lhr.categories.performance?.score ?? 0) * 100),
      );
      const median = computeMedianRun(all);
      const { categories, audits } = median;
      const score = (id: string) => Math.round((categories[id]?.score ?? 0) * 100);
      const figures: PageFigures = {
        page: page.startsWith("/licenses/") ? "/licenses/{licenseId}" : page,
        performance: score("performance"),
        performanceRange: [Math.min(...performances), Math.max(...performances)],
        accessibility: score("accessibility"),
        bestPractices: score("best-practices"),
        seo: score("seo"),
        lcpMs: Math.round(audits["largest-contentful-paint"]?.numericValue ?? 0),
        tbtMs: Math.round(audits["total-blocking-time"]?.numericValue ?? 0),
        weightKiB: Math.round((audits["total-byte-weight"]?.numericValue ?? 0) / 1024),
      };
      return { median, figures };
    };
    // The browser's own first-start work (profile, fonts, compositor) is not the page's: one audit to throw away.
    await audit(pages[0], false);
    const rows: PageFigures[] = [];
    const rowsWithoutJs: PageFigures[] = [];
    for (const page of pages) {
      const { median, figures } = await measure(page, false);
      rows.push(figures);
      if (withoutJs) rowsWithoutJs.push((await measure(page, true)).figures);
      const { categories, audits } = median;
      if (saveDir) {
        fs.mkdirSync(saveDir, { recursive: true });
        const name = page === "/" ? "home" : page.replace(/^\//, "").replace(/[^a-z0-9]+/gi, "-");
        fs.writeFileSync(path.join(saveDir, `${name}.json`), JSON.stringify(median));
      }
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
    }
    console.log(
      `Median of ${runs} run${runs === 1 ? "" : "s"} a page (performance: the median run's score, then the lowest and highest of the runs):\n`,
    );
    printTable(rows);
    if (withoutJs) {
      console.log(
        "\nThe same pages with every script of the build refused (what the HTML, CSS and images score on this machine alone):\n",
      );
      printTable(rowsWithoutJs);
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

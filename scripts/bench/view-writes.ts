import path from "node:path";
import SQLite from "better-sqlite3";
import { VIEW_FLUSH_MS } from "~/features/market/analytics/listing-view-counts.server";
import { row, type BenchRow } from "./measure";
import { seedCreators, seedListings } from "./seed-listings";
import { benchListingPage, startBenchServer } from "./server-bench";

/**
 * What page-cache hits of a listing's page cost the database: the real server
 * (SQLite, 1,000 listings) behind one trusted proxy (TRUST_PROXY=1), so each
 * request names its own client in X-Forwarded-For; `hits` visitors, each at
 * an address and with a User-Agent of its own, are served the page from the
 * visitors' cache. After every hit the bench asks SQLite whether anything was
 * committed since the hit before (`PRAGMA data_version`, which changes when
 * another connection commits): each change is at least one write. The views
 * are written in one transaction every VIEW_FLUSH_MS, so hits that last longer
 * than that see a commit for each period, and no more. Then it waits for the
 * last batch, and counts the view rows written.
 */
export async function benchCachedViewWrites(
  scratch: string,
  port: number,
  hits = 1_000,
): Promise<BenchRow[]> {
  const dataDir = path.join(scratch, "view-writes");
  const env = { TRUST_PROXY: "1", PAGE_CACHE_MS: "60000" };
  // Migrate once, then add a marketplace of 1,000 listings while no server runs.
  await (await startBenchServer({ dataDir, port, env })).stop();
  const file = path.join(dataDir, "selfie-studio.sqlite");
  seedListings(file, 0, 1_000, seedCreators(file, 50));
  const server = await startBenchServer({ dataDir, port, env });
  const database = new SQLite(file, { readonly: true });
  try {
    // The newest listing's page, rendered once (a view from the bench's own address): the copy the hits are served.
    const pathname = await benchListingPage(server, dataDir);
    const listingId = pathname.split("/").pop()!;
    const visit = async (address: string, userAgent: string) => {
      const response = await server.fetch(`/marketplace/${listingId}`, {
        headers: { "X-Forwarded-For": address, "User-Agent": userAgent },
      });
      await response.arrayBuffer();
      return response.headers.get("X-Page-Cache");
    };
    const viewRows = () =>
      (
        database
          .prepare("select count(*) as n from listing_views where listing_id = ?")
          .get(listingId) as { n: number }
      ).n;
    const dataVersion = () => database.pragma("data_version", { simple: true }) as number;
    const waitFor = async (rows: number, what: string) => {
      const deadline = Date.now() + 30_000;
      while (viewRows() < rows) {
        if (Date.now() > deadline)
          throw new Error(`${what}: ${viewRows()} view rows after 30 s, ${rows} expected`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    };

    // That first view is written before anything is measured.
    await waitFor(1, "The first view");

    const before = viewRows();
    let version = dataVersion();
    let hitsFollowedByACommit = 0;
    const started = performance.now();
    for (let i = 0; i < hits; i++) {
      const address = `10.${1 + Math.floor(i / 65_536)}.${Math.floor(i / 256) % 256}.${i % 256}`;
      if ((await visit(address, `bench visitor ${i}`)) !== "hit")
        throw new Error(`Visit ${i} was not served from the page cache`);
      const now = dataVersion();
      if (now !== version) hitsFollowedByACommit++;
      version = now;
    }
    const hitsMs = performance.now() - started;
    const writtenDuringHits = viewRows() - before;

    const waitStarted = performance.now();
    await waitFor(before + hits, "The batch of views");
    const batchSeconds = (performance.now() - waitStarted) / 1000;
    const written = viewRows() - before;
    console.log(
      `\n  ${hits} page-cache hits of /marketplace/{id} from ${hits} addresses in ${hitsMs.toFixed(0)} ms: ` +
        `${hitsFollowedByACommit} followed by a database commit, ${writtenDuringHits} view rows written meanwhile; ` +
        `all ${written} view rows written ${batchSeconds.toFixed(1)} s after the last hit.`,
    );
    // The batch is written every VIEW_FLUSH_MS whatever the hits: hits that take longer see that many commits.
    const batchesDue = Math.ceil(hitsMs / VIEW_FLUSH_MS);
    return [
      row({
        name: `page-cache hits of /marketplace/{id}, ${hits} visitors in ${(hitsMs / 1000).toFixed(1)} s: hits followed by a database commit`,
        value: hitsFollowedByACommit,
        baseline: hits,
        unit: "hits",
        limit: batchesDue,
        limitOf: "value",
        against: `the hits (each a new visitor, so a new view); limit: one batch per ${VIEW_FLUSH_MS / 1000} s`,
      }),
      row({
        name: `page-cache hits of /marketplace/{id}, ${hits} visitors: views written in batches`,
        value: written,
        baseline: hits,
        unit: "views",
        limit: null,
        limitOf: "ratio",
        against: "the hits (every view counted, later)",
      }),
    ];
  } finally {
    database.close();
    await server.stop();
  }
}

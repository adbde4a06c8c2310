import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import SQLite from "better-sqlite3";
import sharp from "sharp";
import { expect, test } from "@playwright/test";
import { eventually, signInCreator, type CreatorSession } from "./support/creator-session";
import { payInTestCheckout } from "./support/purchases";
import { ROOT, startServer, type RunningServer } from "./support/server-process";
import { createProcessPostgres, type ProcessPostgres } from "./support/shared-postgres";
import { startRoundRobinProxy, type RoundRobinProxy } from "./support/round-robin-proxy";
import { DeleteObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { openDatabase } from "~/infra/db.server";
import { saleSize } from "~/lib/sale-size";
import { sweepObjectStore } from "~/infra/file-intents.server";
import { startS3Server, type S3TestServer } from "../setup/s3-server";

/**
 * The product past one machine: two web processes (ROLE=web) behind a
 * round-robin proxy and one worker (ROLE=worker), sharing one database and one
 * real S3-compatible server (s3rver, which checks SigV4 signatures and
 * presigned URLs). A creator's and a buyer's whole journey runs through the
 * proxy: the upload lands on one web process, the styling runs on the worker,
 * the purchase on the other web process, and the download is a presigned URL
 * answered by the store itself. Then the worker is killed mid-style (the job
 * finishes after its restart, once) and a web process mid-upload (the object
 * it stored is swept; nothing else is lost). At the end every key the database
 * names exists in the store, and every object in the store is named by a row
 * or is waiting for its delay.
 *
 * Runs on one SQLite file shared by the processes of one machine, and on
 * PostgreSQL (each process with a data directory of its own) when
 * TEST_DATABASE_URL is set.
 */

interface Deployment {
  /** Settings every process of the deployment gets (database, secret, store). */
  env: Record<string, string>;
  /** The database file or URL, for the test's own connection. */
  databaseAddress: string;
  /** Where each process keeps its local files (scratch; the SQLite file when shared). */
  dataDirOf: (name: string) => string;
  query: <T>(sql: string) => Promise<T[]>;
  close: () => Promise<void>;
}

const PORTS = {
  sqlite: { s3: 4601, proxy: 4610, web: [4611, 4612], worker: 4613 },
  postgres: { s3: 4621, proxy: 4630, web: [4631, 4632], worker: 4633 },
} as const;

async function sqliteDeployment(scratch: string): Promise<Deployment> {
  const dataDir = path.join(scratch, "shared-data");
  return {
    env: {},
    databaseAddress: path.join(dataDir, "selfie-studio.sqlite"),
    dataDirOf: () => dataDir,
    query: async <T>(sql: string) => {
      const db = new SQLite(path.join(dataDir, "selfie-studio.sqlite"), {
        readonly: true,
        fileMustExist: true,
      });
      try {
        return db.prepare(sql).all() as T[];
      } finally {
        db.close();
      }
    },
    close: async () => undefined,
  };
}

async function postgresDeployment(scratch: string, postgres: ProcessPostgres): Promise<Deployment> {
  return {
    // One APP_SECRET for every process, as machines behind one address share it.
    env: { DATABASE_URL: postgres.url, APP_SECRET: crypto.randomBytes(32).toString("hex") },
    databaseAddress: postgres.url,
    dataDirOf: (name) => path.join(scratch, name),
    query: (sql) => postgres.query(sql),
    close: () => postgres.drop(),
  };
}

/** The proxy's address, as a browser on the site would call it. */
function front(proxy: RoundRobinProxy) {
  return {
    fetch: (pathname: string, init: RequestInit = {}) => {
      const headers = new Headers(init.headers);
      if (!headers.has("Origin")) headers.set("Origin", proxy.origin);
      return fetch(new URL(pathname, proxy.origin), { ...init, headers });
    },
  };
}

/** Keys of live rows: each must exist in the store. */
const LIVE_KEYS = `select file_key as key from images
  union select file_key from stylized_images where file_key is not null
  union select optimized_file_key from stylized_images where optimized_file_key is not null
  union select file_key from listings where status = 'active'
  union select preview_key from listings where status = 'active'
  union select file_key from order_items
  union select artifact_key from listing_platforms where artifact_key is not null`;
/** Keys that rows still name as history (withdrawn listings). */
const NAMED_KEYS = `${LIVE_KEYS}
  union select file_key from listings union select preview_key from listings
  union select source_file_key from listings where source_file_key is not null`;

interface StoreReport {
  missing: string[];
  orphans: string[];
  pending: string[];
}

/**
 * Rows against objects, both ways. An object no row names is pending when the
 * store has recorded it as about to be written or as removed (it waits for its
 * delay before the sweep deletes it); otherwise it is an orphan.
 */
async function compareRowsWithStore(
  deployment: Deployment,
  s3: S3TestServer,
  s3Directory: string,
): Promise<StoreReport> {
  const live = (await deployment.query<{ key: string }>(LIVE_KEYS)).map((row) => row.key);
  const named = new Set((await deployment.query<{ key: string }>(NAMED_KEYS)).map((r) => r.key));
  const waiting = new Set(
    (await deployment.query<{ key: string }>(PENDING_KEYS)).map((row) => row.key),
  );
  const objects = new Set(objectKeys(s3, s3Directory));
  const stems = new Set([...named].map((key) => key.replace(/\.[a-z0-9]+$/, "")));
  const belongsToNamed = (key: string) => {
    // An image's smaller copies and social card, and a kit beside its image.
    const variant = /^(.+?)(_\d+w|_card)?\.(avif|webp|jpg|png|zip)$/.exec(key);
    return variant !== null && stems.has(variant[1]!);
  };
  const unnamed = [...objects].filter(
    (key) => !named.has(key) && !belongsToNamed(key) && !key.startsWith("samples/"),
  );
  return {
    missing: live.filter((key) => !objects.has(key)),
    orphans: unnamed.filter((key) => !waiting.has(key)),
    pending: unnamed.filter((key) => waiting.has(key)),
  };
}

/** Keys the store is waiting on: written and not yet named, or removed and kept for the delay. */
const PENDING_KEYS = `select file_key as key from file_intents`;

/** The test's own S3 client for the server (its one key pair). */
function s3Client(s3: S3TestServer): S3Client {
  return new S3Client({
    endpoint: s3.endpoint,
    region: "us-east-1",
    forcePathStyle: true,
    credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
  });
}

/**
 * Every object in both buckets, read from s3rver's own directory (it keeps
 * `<bucket>/<key>._S3rver_object` beside its metadata): s3rver refuses the
 * SDK's signature of bucket-level requests (listings, multi-deletes), while
 * it checks object requests, the only kind the app makes.
 */
function objectKeys(s3: S3TestServer, directory: string): string[] {
  const suffix = "._S3rver_object";
  return [s3.bucket, s3.publicBucket].flatMap((bucket) => {
    const root = path.join(directory, bucket);
    if (!fs.existsSync(root)) return [];
    return (fs.readdirSync(root, { recursive: true }) as string[])
      .filter((name) => name.endsWith(suffix))
      .map((name) => name.slice(0, -suffix.length).split(path.sep).join("/"));
  });
}

async function runJourney(
  kind: "sqlite" | "postgres",
  deployment: Deployment,
  scratch: string,
): Promise<void> {
  const ports = PORTS[kind];
  const s3Directory = path.join(scratch, "s3");
  const s3 = await startS3Server({ port: ports.s3, directory: s3Directory });
  const proxyPort = ports.proxy;
  const publicUrl = `http://localhost:${proxyPort}`;
  const env = (extra: Record<string, string> = {}) => ({
    ...deployment.env,
    ...s3.env,
    JOB_LEASE_SECONDS: "3",
    ...extra,
  });
  const servers = new Set<RunningServer>();
  const start = async (
    name: string,
    role: "web" | "worker",
    port: number,
    options: { seed?: boolean; env?: Record<string, string> } = {},
  ) => {
    const server = await startServer({
      dataDir: deployment.dataDirOf(name),
      port,
      seed: options.seed ?? false,
      env: env({ ROLE: role, PUBLIC_URL: publicUrl, ...options.env }),
    });
    servers.add(server);
    return server;
  };
  let proxy: RoundRobinProxy | undefined;
  try {
    // The first web process migrates and seeds; the others start on the migrated database.
    const webA = await start("web-a", "web", ports.web[0], { seed: true });
    const webB = await start("web-b", "web", ports.web[1]);
    let worker = await start("worker", "worker", ports.worker);
    proxy = await startRoundRobinProxy([webA.origin, webB.origin], proxyPort);
    const site = front(proxy);

    // The worker serves only its health checks.
    expect((await worker.fetch("/healthz")).status).toBe(200);
    expect((await worker.fetch("/marketplace")).status).toBe(404);

    // A creator uploads (one web process), styles (the worker) and lists (a web process).
    const creator = await signInCreator(site);
    const image = await creator.uploadImage("portrait.png");
    // A private file's link is the app's signed /media URL, which hands the reader to the store
    // (a presigned URL): its bytes never pass through a web process.
    const original = await fromStore(site, image.originalUrl, s3);
    expect(original.status).toBe(200);
    const originalBytes = Buffer.from(await original.arrayBuffer());
    const stylized = await creator.stylize(image.id, "cartoon");
    const styled = await completed(creator, stylized.id);
    const styledBytes = Buffer.from(
      await (await fromStore(site, styled.styledUrl, s3)).arrayBuffer(),
    );
    expect(styledBytes.length).toBeGreaterThan(1000);

    const title = `Two machines ${kind} ${Date.now()}`;
    const launch = await creator.call("/api/marketplace/launch", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({
        imageId: stylized.id,
        title,
        description: "Styled on the worker, sold through the proxy.",
        price: "42",
        tags: ["process"],
        enableLicensing: true,
        enableNFT: false,
        platforms: ["marketplace"],
      }),
    });
    expect(launch.status, await launch.clone().text()).toBe(200);

    // The marketplace links its preview at the public address, cacheable for ten minutes (an
    // erasure's removal waits longer than that, so no cache outlives it).
    const market = (await (
      await site.fetch(`/api/marketplace?q=${encodeURIComponent(title)}`)
    ).json()) as { items: Array<{ id: string; previewUrl: string }> };
    expect(market.items).toHaveLength(1);
    const listing = market.items[0]!;
    expect(listing.previewUrl.startsWith(s3.env.FILES_PUBLIC_BASE_URL)).toBe(true);
    const preview = await fetch(listing.previewUrl);
    expect(preview.status).toBe(200);
    expect(preview.headers.get("cache-control")).toBe("public, max-age=600");

    // A buyer pays through the test checkout, through the proxy (the other web process, in turn).
    const created = await site.fetch("/api/create-checkout-session", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({
        cartItems: [{ imageId: listing.id, licenseType: "standard" }],
        customerInfo: { name: "Proxy Buyer", email: `buyer-${kind}@process.test` },
      }),
    });
    expect(created.status).toBe(200);
    const { sessionId } = (await created.json()) as { sessionId: string };
    await payInTestCheckout(site, sessionId);
    const status = (await (
      await site.fetch(`/api/payment-status/${encodeURIComponent(sessionId)}`)
    ).json()) as { success: boolean; downloads: Array<{ downloadUrl: string }> };
    expect(status.success).toBe(true);

    // The download is counted by the web process, then served by the store through a presigned URL.
    const download = await site.fetch(new URL(status.downloads[0]!.downloadUrl).pathname, {
      redirect: "manual",
    });
    expect(download.status).toBe(302);
    const presigned = download.headers.get("location")!;
    expect(new URL(presigned).origin).toBe(new URL(s3.endpoint).origin);
    const file = await fetch(presigned);
    expect(file.status).toBe(200);
    expect(file.headers.get("content-disposition")).toMatch(/^attachment/);
    // The sold file is the styled image at the size a sold file must be (decision 092): the same
    // bytes when it is already that large, else enlarged to it, in the same format.
    const sold = Buffer.from(await file.arrayBuffer());
    const [soldFacts, styledFacts, uploadFacts] = await Promise.all(
      [sold, styledBytes, originalBytes].map((bytes) => sharp(bytes).metadata()),
    );
    const wanted = saleSize(
      styledFacts!.width!,
      styledFacts!.height!,
      Math.max(uploadFacts!.width!, uploadFacts!.height!),
    );
    expect({ width: soldFacts!.width, height: soldFacts!.height }).toEqual(wanted);
    expect(soldFacts!.format).toBe(styledFacts!.format);
    if (wanted.width === styledFacts!.width && wanted.height === styledFacts!.height)
      expect(sold.equals(styledBytes)).toBe(true);
    else expect(sold.length).toBeGreaterThan(styledBytes.length);
    // A tampered signature is refused by the store itself.
    const tampered = new URL(presigned);
    tampered.searchParams.set(
      "X-Amz-Signature",
      tampered.searchParams.get("X-Amz-Signature")!.replace(/^./, (c) => (c === "0" ? "1" : "0")),
    );
    expect((await fetch(tampered)).status).toBe(403);
    // Both web processes served the journey; no request went anywhere else.
    expect(proxy.servedBy.get(webA.origin) ?? 0).toBeGreaterThan(0);
    expect(proxy.servedBy.get(webB.origin) ?? 0).toBeGreaterThan(0);

    // The worker is killed with a styled file stored and its row not written: after a restart the job finishes, once.
    await worker.stop();
    servers.delete(worker);
    worker = await start("worker", "worker", ports.worker, {
      env: { SELFIE_CRASH_POINT: "styled-file-stored" },
    });
    const interrupted = await creator.stylize(image.id, "anime");
    await worker.exited(60_000);
    servers.delete(worker);
    worker = await start("worker", "worker", ports.worker);
    const finished = await completed(creator, interrupted.id);
    expect(finished.status).toBe("completed");
    const runs = await deployment.query<{ attempts: number; status: string }>(
      `select cast(attempts as integer) as attempts, status from jobs where payload like '%${interrupted.id}%'`,
    );
    expect(runs).toEqual([{ attempts: 2, status: "done" }]);

    // A web process is killed with an original stored and its row not committed.
    await webA.stop();
    servers.delete(webA);
    const crashing = await start("web-a", "web", ports.web[0], {
      env: { SELFIE_CRASH_POINT: "original-stored" },
    });
    const lost = await signInCreator(crashing)
      .then((session) => session.call("/api/token-images/upload", uploadBody()))
      .then(
        (response) => response.status,
        () => "connection lost",
      );
    expect(lost).toBe("connection lost");
    await crashing.exited(30_000);
    servers.delete(crashing);
    await start("web-a", "web", ports.web[0]);

    // Nothing is missing; what the crashes left waits for its delay, and is swept after it.
    const before = await compareRowsWithStore(deployment, s3, s3Directory);
    expect(before.missing).toEqual([]);
    expect(before.orphans).toEqual([]);
    expect(before.pending.length, "the two interrupted writes").toBeGreaterThanOrEqual(2);
    const swept = await sweepAsIfLater(deployment, s3);
    expect(swept.sort()).toEqual(before.pending.sort());
    const after = await compareRowsWithStore(deployment, s3, s3Directory);
    expect(after).toEqual({ missing: [], orphans: [], pending: [] });
  } finally {
    await proxy?.close();
    await Promise.all([...servers].map((server) => server.stop()));
    await s3.close();
  }
}

/** Follows a private file's signed link through the site to the store's presigned URL. */
async function fromStore(
  site: ReturnType<typeof front>,
  link: string,
  s3: S3TestServer,
): Promise<Response> {
  const handOver = await site.fetch(link, { redirect: "manual" });
  expect(handOver.status, link).toBe(302);
  const presigned = handOver.headers.get("location")!;
  expect(new URL(presigned).origin).toBe(new URL(s3.endpoint).origin);
  expect(new URL(presigned).searchParams.get("X-Amz-Signature")).toBeTruthy();
  return fetch(presigned);
}

function uploadBody(): RequestInit {
  const form = new FormData();
  const bytes = fs.readFileSync(path.join(ROOT, "tests/fixtures/portrait.png"));
  form.set("image", new Blob([bytes], { type: "image/png" }), "portrait.png");
  return { method: "POST", body: form };
}

interface StylizedJson {
  id: string;
  status: string;
  styledUrl: string;
}

async function completed(creator: CreatorSession, id: string): Promise<StylizedJson> {
  return eventually(
    `stylized image ${id} completed`,
    async () => {
      const response = await creator.call(`/api/token-stylized-images/${id}`);
      const json = (await response.json()) as StylizedJson;
      if (json.status === "failed") throw new Error(`Styling failed: ${JSON.stringify(json)}`);
      return json.status === "completed" ? json : undefined;
    },
    90_000,
    250,
  );
}

/**
 * The worker's periodic object-store sweep, run here as it will run once the
 * delays have passed (an hour for an unnamed write, 15 minutes for a removal):
 * the app's own sweep over the same database, deleting through the test's
 * client.
 */
async function sweepAsIfLater(deployment: Deployment, s3: S3TestServer): Promise<string[]> {
  const db = openDatabase(deployment.databaseAddress);
  const client = s3Client(s3);
  try {
    const later = new Date(Date.now() + 2 * 60 * 60 * 1000);
    const swept = await sweepObjectStore(
      db,
      {
        deleteNow: async (keys) => {
          for (const Key of keys)
            for (const Bucket of [s3.bucket, s3.publicBucket])
              await client.send(new DeleteObjectCommand({ Bucket, Key }));
        },
      },
      later,
    );
    return swept.deleted;
  } finally {
    client.destroy();
    await db.destroy();
  }
}

test.describe.configure({ mode: "serial" });

test("two web processes and a worker on one SQLite file and an S3-compatible store", async () => {
  test.setTimeout(300_000);
  const scratch = path.join(ROOT, "tests", ".tmp", "process-multi-sqlite");
  fs.rmSync(scratch, { recursive: true, force: true });
  await runJourney("sqlite", await sqliteDeployment(scratch), scratch);
});

test("two web processes and a worker on PostgreSQL and an S3-compatible store", async () => {
  test.skip(
    !process.env.TEST_DATABASE_URL,
    "Set TEST_DATABASE_URL (such as postgres://postgres@127.0.0.1:5432/postgres) to run the deployment on PostgreSQL.",
  );
  test.setTimeout(300_000);
  const scratch = path.join(ROOT, "tests", ".tmp", "process-multi-postgres");
  fs.rmSync(scratch, { recursive: true, force: true });
  const postgres = await createProcessPostgres();
  const deployment = await postgresDeployment(scratch, postgres!);
  try {
    await runJourney("postgres", deployment, scratch);
  } finally {
    await deployment.close();
  }
});

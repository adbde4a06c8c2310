import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { STYLE_IDS } from "~/lib/styles";
import { STYLIZE_JOB } from "~/features/studio/styles/stylized-images.server";
import { MAX_ATTEMPTS_PER_EMAIL_AND_ADDRESS } from "~/features/accounts/sessions/login-throttle.server";
import { startSmtpServer, type TestSmtpServer } from "../setup/mail";
import { eventually, signInCreator, type CreatorSession } from "./support/creator-session";
import { ROOT, startServer, type RunningServer } from "./support/server-process";
import { createProcessPostgres, type ProcessPostgres } from "./support/shared-postgres";
import { deliverEvent, listingIds, payAtStripe, stripeWorld } from "./support/stripe-server";

/**
 * Two server processes on one PostgreSQL database, as two machines behind one
 * address would run: webhook deliveries, sign-in attempts and background jobs
 * land on either, and the database alone keeps them from doing anything twice.
 *
 * - Styling: both processes run the job worker; many styling jobs (the local
 *   engine) are each run once, by whichever worker claims it.
 * - Stripe: 50 concurrent deliveries of one paid checkout, split over both,
 *   fulfil the order once: one grant and one ledger row per item, one receipt.
 * - Sign-in: wrong passwords for one email spread over both, one after another
 *   or all at once, are refused after the same number as on one server.
 *
 * Runs only with TEST_DATABASE_URL (a PostgreSQL server whose user may create
 * databases, such as postgres://postgres@127.0.0.1:5432/postgres): a database
 * of its own is created for the run and dropped at the end.
 */
const scratch = path.join(ROOT, "tests", ".tmp", "process-two-servers");
/** One APP_SECRET for both, as servers behind one address share it (sessions, signed links). */
const APP_SECRET = crypto.randomBytes(32).toString("hex");

test.skip(
  !process.env.TEST_DATABASE_URL,
  "Two servers share a database only on PostgreSQL: set TEST_DATABASE_URL (such as postgres://postgres@127.0.0.1:5432/postgres) to run this test.",
);

let postgres: ProcessPostgres | undefined;
let smtp: TestSmtpServer | undefined;
/** The Stripe-mode pair (separate data directories), started once for the payment and sign-in tests. */
let stripePair: Promise<[RunningServer, RunningServer]> | undefined;
const world = stripeWorld(path.join(scratch, "stripe-pair"), 3434);

test.beforeAll(async () => {
  fs.rmSync(scratch, { recursive: true, force: true });
  postgres = await createProcessPostgres();
  smtp = await startSmtpServer();
});

test.afterAll(async () => {
  await stopStripePair();
  await smtp?.close();
  await postgres?.drop();
});

function db(): ProcessPostgres {
  if (!postgres) throw new Error("No PostgreSQL database");
  return postgres;
}

/** What every server of the run shares: the database and the app secret. */
function sharedEnv(): Record<string, string> {
  return { DATABASE_URL: db().url, APP_SECRET };
}

async function stopStripePair() {
  const pair = stripePair;
  stripePair = undefined;
  if (!pair) return;
  const servers = await pair.catch(() => []);
  await Promise.all(servers.map((server) => server.stop()));
}

/**
 * Two servers in Stripe mode (the real `stripe` library, api.stripe.com answered by the shared
 * Stripe mock), each with a data directory of its own, as on two machines: nothing they share
 * but the database. Both send mail through the same SMTP server. The first seeds the demo data
 * (once per database) and migrates; the second starts on the migrated database.
 */
function startStripePair(): Promise<[RunningServer, RunningServer]> {
  stripePair ??= (async () => {
    const env = {
      ...sharedEnv(),
      SMTP_URL: `smtp://127.0.0.1:${smtp!.port}`,
      MAIL_FROM: "Selfie Studio <studio@selfie.example>",
    };
    const first = await world.start({
      seed: true,
      port: 3434,
      dataDir: path.join(scratch, "machine-a"),
      env,
    });
    const second = await world
      .start({ seed: false, port: 3435, dataDir: path.join(scratch, "machine-b"), env })
      .catch(async (error: unknown) => {
        await first.stop();
        throw error;
      });
    return [first, second];
  })();
  return stripePair;
}

test("styling jobs queued over two servers are each run once, by one of the two workers", async () => {
  test.setTimeout(240_000);
  // No other pair may run meanwhile: its workers would claim styling jobs whose files they cannot see.
  await stopStripePair();
  // Uploaded originals live in DATA_DIR/files, and a styling job reads its original from there:
  // whichever process's worker claims a job must see the file the other process stored. Both
  // processes therefore get the SAME data directory, as two processes on one machine (or on
  // machines sharing one volume) are run; the database is what they coordinate through.
  const dataDir = path.join(scratch, "shared-data");
  const start = (port: number, seed: boolean) =>
    startServer({
      dataDir,
      port,
      seed,
      env: { ...sharedEnv(), JOB_CONCURRENCY: "2" },
    });
  const first = await start(3432, true);
  let second: RunningServer | undefined;
  try {
    second = await start(3433, false);
    const servers = [first, second];
    const creators: CreatorSession[] = [await signInCreator(first), await signInCreator(second)];
    // One original stored through each server.
    const images = [
      (await creators[0].uploadImage("portrait.png")).id,
      (await creators[1].uploadImage("rocket.jpg")).id,
    ];

    // Which workers held running styling jobs (their lease tokens), watched throughout.
    const holders = new Set<string>();
    let watching = true;
    const watcher = (async () => {
      while (watching) {
        const rows = await db().query<{ locked_by: string }>(
          "select locked_by from jobs where kind = $1 and status = 'running' and locked_by is not null",
          STYLIZE_JOB,
        );
        for (const row of rows) holders.add(row.locked_by);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();

    // Waves of as many styles as a creator may have open at once (2 originals x 4 styles = 8),
    // every request of a wave sent at the same time, alternately to either server.
    const waves = 4;
    const stylizedIds: string[] = [];
    for (let wave = 0; wave < waves; wave++) {
      const wanted = images.flatMap((imageId) => STYLE_IDS.map((style) => ({ imageId, style })));
      const asked = await Promise.all(
        wanted.map(({ imageId, style }, i) => creators[i % 2].stylize(imageId, style)),
      );
      const ids = asked.map((each) => each.id);
      stylizedIds.push(...ids);
      await eventually(
        `wave ${wave + 1}'s styles finished`,
        async () => {
          const [open] = await db().query<{ n: number }>(
            "select count(*)::int as n from stylized_images where id = any($1) and status in ('pending', 'processing')",
            ids,
          );
          return open.n === 0 ? true : undefined;
        },
        60_000,
        50,
      );
    }
    watching = false;
    await watcher;
    expect(stylizedIds).toHaveLength(waves * 8);
    expect(new Set(stylizedIds).size).toBe(stylizedIds.length);

    // Each styled once: completed at the first attempt, each with a file of its own.
    const rows = await db().query<{
      id: string;
      status: string;
      attempts: number;
      file_key: string | null;
    }>(
      "select id, status, attempts::int as attempts, file_key from stylized_images where id = any($1)",
      stylizedIds,
    );
    expect(rows).toHaveLength(stylizedIds.length);
    for (const row of rows) {
      expect(row, `stylized image ${row.id}`).toMatchObject({ status: "completed", attempts: 1 });
      expect(row.file_key).toMatch(/^styled\//);
    }
    const keys = rows.map((row) => row.file_key!);
    expect(new Set(keys).size, "no two styles share a file").toBe(keys.length);

    // One job per style, each done at its first attempt.
    const jobs = await db().query<{ status: string; attempts: number; n: number }>(
      "select status, attempts::int as attempts, count(*)::int as n from jobs where kind = $1 group by status, attempts",
      STYLIZE_JOB,
    );
    expect(jobs).toEqual([{ status: "done", attempts: 1, n: stylizedIds.length }]);
    expect(holders.size, "both workers ran styling jobs").toBe(2);

    // No duplicate files: the styled files on the volume are exactly those the rows name
    // (the demo's seeded styles included), beside the smaller copies made for <picture>.
    const filesDir = path.join(dataDir, "files");
    const named = new Set(
      (
        await db().query<{ file_key: string }>(
          "select file_key from stylized_images where file_key like 'styled/%'",
        )
      ).map((row) => row.file_key),
    );
    const namedStems = new Set([...named].map((key) => key.replace(/\.[a-z0-9]+$/, "")));
    const styledOnDisk = fs
      .readdirSync(path.join(filesDir, "styled"))
      .filter((name) => !name.startsWith("."))
      .map((name) => `styled/${name}`);
    const smallerCopy = (key: string) => {
      const match = /^(.+)_\d+w\.(avif|webp|jpg)$/.exec(key);
      return match !== null && namedStems.has(match[1]!);
    };
    expect(
      styledOnDisk.filter((key) => !named.has(key) && !smallerCopy(key)),
      "styled files no row names",
    ).toEqual([]);
    expect(
      [...named].filter((key) => !styledOnDisk.includes(key)),
      "rows whose styled file is missing",
    ).toEqual([]);

    // Either server serves any of the styled images, whichever worker made it.
    for (const [i, id] of stylizedIds.entries()) {
      const creator = creators[(i + 1) % 2];
      const response = await creator.call(`/api/token-stylized-images/${id}`);
      expect(response.status).toBe(200);
      const stylized = (await response.json()) as { status: string; styledUrl: string };
      expect(stylized.status).toBe("completed");
      const image = await servers[(i + 1) % 2].fetch(stylized.styledUrl);
      expect(image.status).toBe(200);
      expect(image.headers.get("content-type")).toMatch(/^image\//);
    }
  } finally {
    await Promise.all([first.stop(), second?.stop()]);
  }
});

test("50 concurrent deliveries of one paid checkout, split over two servers, fulfil it once", async () => {
  const [a, b] = await startStripePair();
  const servers = [a, b];
  const ids = await listingIds(a);
  const cart = ids.slice(0, 2);
  const buyer = `two-servers-buyer-${crypto.randomBytes(3).toString("hex")}@process.test`;

  const created = await a.fetch("/api/create-checkout-session", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({
      cartItems: cart.map((imageId) => ({ imageId, licenseType: "standard" })),
      customerInfo: { name: "Two Servers Buyer", email: buyer },
    }),
  });
  expect(created.status, await created.clone().text()).toBe(200);
  const { sessionId } = (await created.json()) as { sessionId: string };
  const [{ id: orderId }] = await db().query<{ id: string }>(
    "select id from orders where checkout_session_hash = $1",
    crypto.createHash("sha256").update(sessionId).digest("hex"),
  );
  const session = payAtStripe(world, sessionId);

  // 25 retries of Stripe's one completed event, and 25 other events about the same checkout
  // (completed under other ids, async payment succeeded), signed with the servers' secret by
  // the real `stripe` library; every other delivery goes to the other server.
  const deliveries = Array.from({ length: 50 }, (_, i) => {
    const [type, eventId] =
      i < 25
        ? ["checkout.session.completed", "evt_two_servers_completed"]
        : i % 2 === 0
          ? ["checkout.session.completed", `evt_two_servers_completed_${i}`]
          : ["checkout.session.async_payment_succeeded", `evt_two_servers_async_${i}`];
    return { type, eventId };
  });
  const distinct = new Set(deliveries.map((each) => each.eventId)).size;
  expect(distinct).toBe(26);
  // Interleaved, so that retries of the one event are not neighbours.
  const order = deliveries.map((_, i) => (i * 37) % 50);
  const answers = await Promise.all(
    order.map((index, i) =>
      deliverEvent(servers[i % 2], deliveries[index].type, session, deliveries[index].eventId),
    ),
  );
  const bodies = await Promise.all(
    answers.map(async (answer) => ({ status: answer.status, body: await answer.text() })),
  );
  expect(
    bodies.filter((each) => each.status !== 200),
    "every delivery answered 200",
  ).toEqual([]);
  const outcomes = bodies.map((each) => (JSON.parse(each.body) as { outcome: string }).outcome);
  expect(outcomes.filter((outcome) => outcome === "processed")).toHaveLength(distinct);
  expect(outcomes.filter((outcome) => outcome === "duplicate")).toHaveLength(50 - distinct);

  // Paid once: one download grant and one ledger row per item.
  const [ledger] = await db().query<{
    status: string;
    items: number;
    earnings: number;
    grants: number;
    total: number;
    ledger: number;
  }>(
    `select o.status,
      (select count(*)::int from order_items i where i.order_id = o.id) as items,
      (select count(*)::int from earnings e where e.order_id = o.id) as earnings,
      (select count(*)::int from download_grants g join order_items i on i.id = g.order_item_id
        where i.order_id = o.id) as grants,
      o.total_cents::int as total,
      (select coalesce(sum(amount_cents + platform_fee_cents), 0)::int from earnings e
        where e.order_id = o.id) as ledger
     from orders o where o.id = $1`,
    orderId,
  );
  expect(ledger).toMatchObject({
    status: "paid",
    items: cart.length,
    earnings: cart.length,
    grants: cart.length,
  });
  expect(ledger.ledger, "creator shares plus platform fees equal the total").toBe(ledger.total);
  const [events] = await db().query<{ n: number }>(
    "select count(*)::int as n from webhook_events where id like 'evt_two_servers_%'",
  );
  expect(events.n, "each event recorded once").toBe(distinct);

  // One receipt, whichever worker sent it: it arrives, and no second follows.
  const receipts = () =>
    smtp!.received.filter(
      (mail) =>
        mail.envelope.to.includes(buyer) && mail.parsed.subject === "Your Selfie Studio receipt",
    );
  await eventually("the receipt", () => (receipts().length > 0 ? true : undefined), 45_000);
  await eventually(
    "every mail job done",
    async () => {
      const [open] = await db().query<{ n: number }>(
        "select count(*)::int as n from jobs where status in ('queued', 'running')",
      );
      return open.n === 0 ? true : undefined;
    },
    45_000,
  );
  expect(receipts()).toHaveLength(1);
});

interface Attempt {
  status: number;
}

/** One sign-in with a wrong password for `email`, through POST /api/token-login. */
async function wrongPassword(server: RunningServer, email: string): Promise<Attempt> {
  const response = await server.fetch("/api/token-login", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ email, password: "not-the-password-at-all" }),
  });
  await response.arrayBuffer();
  return { status: response.status };
}

const statuses = (attempts: Attempt[]) => attempts.map((attempt) => attempt.status);

test("wrong passwords for one email, alternately on two servers, are refused after the same count as on one", async () => {
  const [a, b] = await startStripePair();
  const tag = crypto.randomBytes(3).toString("hex");
  const tries = MAX_ATTEMPTS_PER_EMAIL_AND_ADDRESS + 3;
  const expected = [
    ...Array<number>(MAX_ATTEMPTS_PER_EMAIL_AND_ADDRESS).fill(401),
    ...Array<number>(tries - MAX_ATTEMPTS_PER_EMAIL_AND_ADDRESS).fill(429),
  ];

  // One server: the first 5 are checked (401), the rest refused (429).
  const alone: Attempt[] = [];
  for (let i = 0; i < tries; i++) alone.push(await wrongPassword(a, `alone-${tag}@process.test`));
  expect(statuses(alone)).toEqual(expected);

  // One after another, alternately on either server: the same.
  const spread: Attempt[] = [];
  for (let i = 0; i < tries; i++)
    spread.push(await wrongPassword(i % 2 === 0 ? a : b, `spread-${tag}@process.test`));
  expect(statuses(spread)).toEqual(expected);
});

test("wrong passwords for one email sent all at once to two servers are refused after the same count as on one", async () => {
  const [a, b] = await startStripePair();
  const tag = crypto.randomBytes(3).toString("hex");
  const tries = 12;
  const burst = await Promise.all(
    Array.from({ length: tries }, (_, i) =>
      wrongPassword(i % 2 === 0 ? a : b, `burst-${tag}@process.test`),
    ),
  );
  expect(statuses(burst).filter((status) => status === 401).length, "passwords checked").toBe(
    MAX_ATTEMPTS_PER_EMAIL_AND_ADDRESS,
  );
  expect(statuses(burst).filter((status) => status === 429).length, "refused").toBe(
    tries - MAX_ATTEMPTS_PER_EMAIL_AND_ADDRESS,
  );
});

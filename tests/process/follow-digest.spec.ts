import fs from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { addressesOf, outboxFiles, readEml } from "../setup/mail";
import { eventually, signInCreator } from "./support/creator-session";
import { ROOT, startServer, type RunningServer } from "./support/server-process";

/**
 * A follow's daily digest with two worker processes (ROLE=worker) and a web
 * process on one SQLite data directory: both workers look for due digests
 * every second under the periodic lease, yet the follower gets one digest of
 * the creator's new listing, not one per worker (docs/decisions/096).
 */

/** A header as the message carries it (mailparser folds the List-* headers into a structure of its own). */
function rawHeader(mail: { headerLines: readonly { key: string; line: string }[] }, key: string) {
  const line = mail.headerLines.find((header) => header.key === key)?.line;
  return line?.replace(/^[^:]+:\s*/, "").replace(/\r?\n\s+/g, "");
}

const PORTS = { web: 6121, workers: [6122, 6123] } as const;
const DIGEST_SUBJECT = "New on Selfie Studio from a creator you follow";

test("two workers send a follower one digest a day between them", async () => {
  test.setTimeout(240_000);
  const root = path.join(ROOT, "tests", ".tmp", "process-follow-digest");
  fs.rmSync(root, { recursive: true, force: true });
  const dataDir = path.join(root, "data");
  const publicUrl = `http://localhost:${PORTS.web}`;
  const env = { PUBLIC_URL: publicUrl, FOLLOW_DIGEST_CHECK_SECONDS: "1" };
  const servers: RunningServer[] = [];
  try {
    const web = await startServer({
      dataDir,
      port: PORTS.web,
      seed: true,
      env: { ...env, ROLE: "web" },
    });
    servers.push(web);
    for (const port of PORTS.workers)
      servers.push(await startServer({ dataDir, port, env: { ...env, ROLE: "worker" } }));
    const workers = servers.slice(1);

    // The creator's storefront has a handle; a visitor follows it and confirms by the mailed link.
    const creator = await signInCreator(web);
    const handle = `digest-${Date.now().toString(36)}`;
    const named = await creator.call("/api/account", {
      method: "PATCH",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ handle }),
    });
    expect(named.status, await named.clone().text()).toBe(200);
    const follower = "follower@process.test";
    const followed = await web.fetch("/api/follows", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ handle, email: follower }),
    });
    expect(followed.status).toBe(202);
    const outbox = path.join(dataDir, "outbox");
    const mailsTo = async (subject?: string) => {
      const found = [];
      for (const file of outboxFiles(outbox)) {
        const mail = await readEml(file);
        if (!addressesOf(mail.to).includes(follower)) continue;
        if (subject && mail.subject !== subject) continue;
        found.push(mail);
      }
      return found;
    };
    const confirmation = await eventually("the confirmation mail", async () => {
      const [mail] = await mailsTo();
      return mail;
    });
    expect(rawHeader(confirmation, "list-unsubscribe-post")).toBe("List-Unsubscribe=One-Click");
    const token = /\/follows\/confirm\?token=([\w-]+)/.exec(confirmation.text ?? "")?.[1];
    expect(token).toBeTruthy();
    const confirmed = await web.fetch(`/follows/confirm?token=${token}`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ token: token! }).toString(),
      redirect: "manual",
    });
    expect(confirmed.status).toBe(302);

    // The creator lists a new image (styled by a worker).
    const image = await creator.uploadImage("portrait.png");
    const stylized = await creator.stylize(image.id, "cartoon");
    await eventually(
      "the style completed",
      async () => {
        const response = await creator.call(`/api/token-stylized-images/${stylized.id}`);
        const json = (await response.json()) as { status: string };
        if (json.status === "failed") throw new Error("Styling failed");
        return json.status === "completed" ? true : undefined;
      },
      120_000,
      250,
    );
    const title = `Digest ${handle}`;
    const launch = await creator.call("/api/marketplace/launch", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({
        imageId: stylized.id,
        title,
        description: "Listed for the digest.",
        price: "15",
        tags: ["process"],
        enableLicensing: true,
        enableNFT: false,
        platforms: ["marketplace"],
      }),
    });
    expect(launch.status, await launch.clone().text()).toBe(200);

    // One digest arrives; several more periods pass with both workers looking, and no second one.
    const [digest] = await eventually(
      "the digest mail",
      async () => {
        const found = await mailsTo(DIGEST_SUBJECT);
        return found.length > 0 ? found : undefined;
      },
      60_000,
      250,
    );
    expect(digest!.text).toContain(title);
    expect(rawHeader(digest!, "list-unsubscribe")).toBeTruthy();
    await new Promise((resolve) => setTimeout(resolve, 6_000));
    expect(await mailsTo(DIGEST_SUBJECT)).toHaveLength(1);
    const jobs = web.query<{ n: number }>(
      "select count(*) as n from jobs where kind = 'mail.send' and payload like ?",
      `%${DIGEST_SUBJECT}%`,
    );
    expect(jobs[0]!.n).toBe(1);
    const queuedLines = workers.flatMap((worker) =>
      [...worker.output().matchAll(/Queued (\d+) follow digests in process (\d+)\./g)].map(
        (match) => Number(match[1]),
      ),
    );
    expect(queuedLines).toEqual([1]);
  } finally {
    for (const server of servers.reverse()) await server.stop();
  }
});

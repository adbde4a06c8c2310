import fs from "node:fs";
import net from "node:net";
import { sql } from "kysely";
import { setupServer } from "msw/node";
import sharp from "sharp";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { getConfig } from "~/infra/config.server";
import { getDb } from "~/infra/db.server";
import { getFileStore, newFileKey } from "~/infra/file-store.server";
import type { JobWorker } from "~/infra/jobs/job-worker.server";
import { connectSftp } from "~/infra/sftp/sftp-client.server";
import type { SftpConnect } from "~/infra/sftp/sftp-client.server";
import { SftpError } from "~/infra/sftp/sftp-errors.server";
import { openIntegration } from "~/features/publishing/integrations.server";
import { startPublishWorker } from "#tests/setup/publish-worker";
import { readIptcIim } from "~/features/publishing/connectors/iptc-iim.server";
import { submissionFileName } from "~/features/publishing/connectors/sftp-submission-connector.server";
import * as integrationsRoute from "~/routes/_studio+/integrations";
import * as listRoute from "~/routes/_studio+/studio.list";
import * as tokenIntegrations from "~/routes/api+/token-marketplace-integrations";
import * as publicationsApi from "~/routes/api+/publications";
import { callRoute, formRequest, makeRequest } from "#tests/setup/requests";
import { createTestUser } from "#tests/setup/accounts";
import { createStylizedImage } from "#tests/setup/market";
import { startSftpServer } from "#tests/setup/sftp-server";
import type { SftpTestServer } from "#tests/setup/sftp-server";
import { createFalMock } from "#tests/mocks/fal";

/**
 * Adobe Stock over SFTP end to end, against a real SFTP server (the ssh2
 * package's, started here): saving the connection checks it for real; listing
 * an image through the list-for-sale screen's action queues a job that
 * uploads a 4 MP JPEG with its title, keywords and AI disclosure embedded;
 * the publication then says `submitted`.
 */

const USERNAME = "208412345";
const PASSWORD = "Gen3rated-sftp-PASSWORD-9f2c";
const GENERATED = "http://cv.iptc.org/newscodes/digitalsourcetype/trainedAlgorithmicMedia";

const users: Record<string, string> = { [USERNAME]: PASSWORD };
let sftp: SftpTestServer;
const fal = createFalMock();
const msw = setupServer(...fal.handlers);
let worker: JobWorker;
/** Set by a test: the next upload is stored, then the connection "drops" before the job learns it worked. */
let dropAfterNextPut = false;

const flakyConnect: SftpConnect = async (target) => {
  const session = await connectSftp(target);
  return {
    ...session,
    hostKey: session.hostKey,
    async put(remotePath, data) {
      await session.put(remotePath, data);
      if (dropAfterNextPut) {
        dropAfterNextPut = false;
        throw new SftpError("unreachable", "The SFTP server at test closed the connection.");
      }
    },
  };
};

beforeAll(async () => {
  sftp = await startSftpServer({ users });
  const config = getConfig();
  config.ADOBE_STOCK_SFTP_HOST = sftp.host;
  config.ADOBE_STOCK_SFTP_PORT = sftp.port;
  msw.listen({ onUnhandledRequest: "error" });
  worker = startPublishWorker({ sftpConnect: flakyConnect });
});
afterEach(() => {
  fal.reset();
  getConfig().FAL_KEY = undefined;
  sftp.setCapacity(undefined);
});
afterAll(async () => {
  await worker.stop();
  msw.close();
  await sftp.close();
});

async function saveConnection(cookie: string, fields: { username: string; apiKey: string }) {
  return callRoute(
    integrationsRoute.action,
    formRequest(
      "/integrations",
      { intent: "manual", platform: "adobestock", ...fields },
      { cookie },
    ),
  );
}

async function listOnAdobeStock(cookie: string, imageId: string, title: string) {
  const response = await callRoute(
    listRoute.action,
    formRequest(
      "/studio/list",
      {
        _js: "1",
        imageId,
        title,
        description: "A bright anime portrait with soft cel shading.",
        price: "30",
        platforms: "adobestock",
      },
      { cookie },
    ),
  );
  expect(response.status).toBe(200);
  return (await response.json()) as {
    ok: true;
    results: { platform: string; status: string; success: boolean; error?: string }[];
  };
}

async function publicationOf(token: string, imageId: string) {
  const response = await callRoute(
    publicationsApi.loader,
    makeRequest(`/api/publications?imageId=${imageId}`, { token }),
  );
  expect(response.status).toBe(200);
  const body = (await response.json()) as {
    platforms: {
      id: string;
      status: string;
      note: string | null;
      error: string | null;
      publicationId: string;
    }[];
  };
  return body.platforms.find((platform) => platform.id === "adobestock")!;
}

async function waitForState(token: string, imageId: string, done: (status: string) => boolean) {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const publication = await publicationOf(token, imageId);
    if (done(publication.status) || Date.now() > deadline) return publication;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The XMP packet's text, and its parts the agency reads. */
function readXmp(xmp: Buffer) {
  const text = xmp.toString("utf8");
  const title = /<dc:title><rdf:Alt><rdf:li xml:lang="x-default">([^<]*)<\/rdf:li>/.exec(text)?.[1];
  const bag = /<dc:subject><rdf:Bag>(.*?)<\/rdf:Bag><\/dc:subject>/.exec(text)?.[1] ?? "";
  const keywords = [...bag.matchAll(/<rdf:li>([^<]*)<\/rdf:li>/g)].map((match) => match[1]);
  const headline = /photoshop:Headline="([^"]*)"/.exec(text)?.[1];
  const sourceType = /Iptc4xmpExt:DigitalSourceType="([^"]*)"/.exec(text)?.[1];
  return { text, title, keywords, headline, sourceType };
}

/** A stylized image whose sellable file is `size` px square (its optimized copy watermarked, so never sent). */
async function imageOfSize(userId: string, size: number) {
  const stylized = await createStylizedImage(userId, { style: "anime" });
  const store = getFileStore();
  const key = newFileKey("styled", "jpg");
  // As the fal.ai engine writes it: the disclosure in the file's XMP.
  const disclosure =
    '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">' +
    `<rdf:Description rdf:about="" xmlns:Iptc4xmpExt="http://iptc.org/std/Iptc4xmpExt/2008-02-29/" Iptc4xmpExt:DigitalSourceType="${GENERATED}"/>` +
    "</rdf:RDF></x:xmpmeta>";
  await store.write(
    key,
    await sharp(fs.readFileSync("tests/fixtures/portrait.png"))
      .resize(size, size)
      .jpeg({ quality: 90 })
      .withXmp(disclosure)
      .toBuffer(),
  );
  const watermarkedKey = newFileKey("optimized", "jpg");
  const red = await sharp({
    create: { width: size, height: size, channels: 3, background: "#ff0000" },
  })
    .jpeg()
    .toBuffer();
  await store.write(watermarkedKey, red);
  await getDb()
    .updateTable("stylized_images")
    .set({
      file_key: key,
      width: size,
      height: size,
      optimized_file_key: watermarkedKey,
      watermark: 1,
    })
    .where("id", "=", stylized.id)
    .execute();
  return { stylized, sourceKey: key };
}

describe("Adobe Stock connection", () => {
  it("is saved, encrypted, only after a real sign-in; a wrong password or an unreachable server is refused and nothing is saved", async () => {
    const { user, cookie, token } = await createTestUser();
    const db = getDb();

    const missing = await callRoute(
      integrationsRoute.action,
      formRequest(
        "/integrations",
        { intent: "manual", platform: "adobestock", apiKey: PASSWORD },
        { cookie },
      ),
    );
    expect(missing.status).toBe(400);
    const missingText = JSON.stringify(await missing.json());
    expect(missingText).toContain("Please enter your SFTP username");
    expect(missingText).not.toContain(PASSWORD);
    expect(sftp.logins()).toEqual([]);

    const wrong = await saveConnection(cookie, { username: USERNAME, apiKey: "not-the-password" });
    expect(wrong.status).toBe(400);
    const refusal = JSON.stringify(await wrong.json());
    expect(refusal).toContain("Adobe Stock refused this SFTP username or password");
    expect(refusal).not.toContain("not-the-password");
    expect(
      await db.selectFrom("integrations").selectAll().where("user_id", "=", user.id).execute(),
    ).toEqual([]);

    const closed = net.createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const closedPort = (closed.address() as net.AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    getConfig().ADOBE_STOCK_SFTP_PORT = closedPort;
    try {
      const unreachable = await saveConnection(cookie, { username: USERNAME, apiKey: PASSWORD });
      expect(unreachable.status).toBe(400);
      expect(JSON.stringify(await unreachable.json())).toMatch(
        /Could not check the connection to Adobe Stock: Could not reach the SFTP server at 127\.0\.0\.1:\d+/,
      );
    } finally {
      getConfig().ADOBE_STOCK_SFTP_PORT = sftp.port;
    }
    expect(
      await db.selectFrom("integrations").selectAll().where("user_id", "=", user.id).execute(),
    ).toEqual([]);

    const saved = await saveConnection(cookie, { username: USERNAME, apiKey: PASSWORD });
    expect(saved.status).toBe(302);
    const row = await db
      .selectFrom("integrations")
      .selectAll()
      .where("user_id", "=", user.id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      platform: "adobestock",
      account_name: USERNAME,
      host_key: sftp.hostKeyFingerprint,
      key_last4: "",
      is_active: 1,
    });
    expect(row.credentials).not.toContain(PASSWORD);
    expect((await openIntegration(db, user.id, "adobestock"))?.secret).toBe(PASSWORD);
    await sql`pragma wal_checkpoint(TRUNCATE)`.execute(db);
    const file = getConfig().databaseFile;
    for (const path of [file, `${file}-wal`]) {
      if (fs.existsSync(path))
        expect(fs.readFileSync(path).includes(Buffer.from(PASSWORD)), path).toBe(false);
    }

    // The screen shows the username, never the password.
    const screen = await callRoute(
      integrationsRoute.loader,
      makeRequest("/integrations", { cookie }),
    );
    const text = await screen.text();
    expect(text).not.toContain(PASSWORD);
    expect(text).toContain(USERNAME);

    // The JSON API checks the same way.
    const api = await callRoute(
      tokenIntegrations.action,
      makeRequest("/api/token-marketplace-integrations", {
        token,
        json: { platform: "adobestock", username: USERNAME, apiKey: "wrong-again" },
      }),
    );
    expect(api.status).toBe(400);
    expect((await openIntegration(db, user.id, "adobestock"))?.secret).toBe(PASSWORD);
  });

  it("refuses a server whose host key changed since the connection was saved", async () => {
    const { user, cookie } = await createTestUser();
    expect((await saveConnection(cookie, { username: USERNAME, apiKey: PASSWORD })).status).toBe(
      302,
    );
    const impostor = await startSftpServer({ users });
    getConfig().ADOBE_STOCK_SFTP_PORT = impostor.port;
    try {
      const again = await saveConnection(cookie, { username: USERNAME, apiKey: PASSWORD });
      expect(again.status).toBe(400);
      expect(JSON.stringify(await again.json())).toContain("presented a different host key");
      expect(impostor.logins()).toEqual([]);
    } finally {
      getConfig().ADOBE_STOCK_SFTP_PORT = sftp.port;
      await impostor.close();
    }
    const row = await getDb()
      .selectFrom("integrations")
      .selectAll()
      .where("user_id", "=", user.id)
      .executeTakeFirstOrThrow();
    expect(row.host_key).toBe(sftp.hostKeyFingerprint);
  });
});

describe("listing on Adobe Stock", () => {
  it("uploads a JPEG of at least 4 MP with the title, keywords and AI disclosure embedded, and says submitted", async () => {
    const { user, cookie, token } = await createTestUser({
      firstName: "Ada",
      lastName: "Lovelace",
    });
    expect((await saveConnection(cookie, { username: USERNAME, apiKey: PASSWORD })).status).toBe(
      302,
    );
    const { stylized, sourceKey } = await imageOfSize(user.id, 1024);

    const answer = await listOnAdobeStock(cookie, stylized.id, "Anime portrait with soft light");
    expect(answer.results).toHaveLength(1);
    expect(answer.results[0]).toMatchObject({ platform: "adobestock", success: true });
    const publication = await waitForState(token, stylized.id, (status) => status !== "queued");
    expect(publication.status).toBe("submitted");
    expect(publication.error).toBeNull();
    expect(publication.note).toMatch(/^Sent selfie-studio-.+\.jpg, 2000×2000 JPEG \(4\.0 MP\)/);
    expect(publication.note).toContain("Lanczos-3 resize (sharp) from 1024×1024 to 2000×2000");

    const name = `/${submissionFileName(publication.publicationId)}`;
    const uploaded = sftp.files()[name];
    expect(uploaded).toBeDefined();
    const meta = await sharp(uploaded).metadata();
    expect(meta.format).toBe("jpeg");
    expect(meta.width! * meta.height!).toBeGreaterThanOrEqual(4_000_000);
    expect(meta.space).toBe("srgb");
    expect(meta.icc).toBeDefined();
    expect(meta.chromaSubsampling).toBe("4:4:4");

    const xmp = readXmp(meta.xmp!);
    expect(xmp.title).toBe("Anime portrait with soft light");
    expect(xmp.headline).toBe("Anime portrait with soft light");
    expect(xmp.keywords).toEqual(expect.arrayContaining(["Anime", "AI generated"]));
    // The disclosure the styling engine wrote into the source file, carried over.
    expect(xmp.sourceType).toBe(GENERATED);
    expect(xmp.text).toContain("A bright anime portrait with soft cel shading.");
    expect(xmp.text).toContain("Ada Lovelace");

    const iim = readIptcIim(uploaded);
    expect(iim.get("2:5")).toEqual(["Anime portrait with soft light"]);
    expect(iim.get("2:25")).toEqual(xmp.keywords);
    expect(iim.get("2:80")).toEqual(["Ada Lovelace"]);
    expect(meta.iptc).toBeDefined();

    // Made from the clean file, not the watermarked copy: its colours are the source's, not the red square's.
    const small = async (data: Buffer) =>
      await sharp(data).resize(16, 16, { fit: "fill" }).removeAlpha().raw().toBuffer();
    const sent = await small(uploaded);
    const source = await small(await getFileStore().read(sourceKey));
    const difference =
      sent.reduce((sum, value, i) => sum + Math.abs(value - source[i]), 0) / sent.length;
    expect(difference).toBeLessThan(8);
  });

  it("enlarges a small image with fal.ai's upscaler when FAL_KEY is set, and says so", async () => {
    const { user, cookie, token } = await createTestUser();
    expect((await saveConnection(cookie, { username: USERNAME, apiKey: PASSWORD })).status).toBe(
      302,
    );
    const { stylized } = await imageOfSize(user.id, 512);
    getConfig().FAL_KEY = "fal-test-key";

    await listOnAdobeStock(cookie, stylized.id, "Small anime portrait");
    const publication = await waitForState(token, stylized.id, (status) => status !== "queued");
    expect(publication.status).toBe("submitted");
    expect(fal.state.requests.map((request) => request.model)).toEqual(["fal-ai/esrgan"]);
    expect(fal.state.requests[0].input).toMatchObject({ scale: 4, model: "RealESRGAN_x4plus" });
    expect(fal.state.requests[0].authorization).toBe("Key fal-test-key");
    expect(publication.note).toContain("fal.ai Real-ESRGAN (fal-ai/esrgan, ×4) from 512×512");
    const meta = await sharp(
      sftp.files()[`/${submissionFileName(publication.publicationId)}`],
    ).metadata();
    expect(meta.width! * meta.height!).toBeGreaterThanOrEqual(4_000_000);
  });

  it("falls back to the local resize when fal.ai fails, and says so", async () => {
    const { user, cookie, token } = await createTestUser();
    expect((await saveConnection(cookie, { username: USERNAME, apiKey: PASSWORD })).status).toBe(
      302,
    );
    const { stylized } = await imageOfSize(user.id, 512);
    getConfig().FAL_KEY = "fal-test-key";
    fal.setScenario("server-error");

    await listOnAdobeStock(cookie, stylized.id, "Fallback portrait");
    const publication = await waitForState(token, stylized.id, (status) => status !== "queued");
    expect(publication.status).toBe("submitted");
    expect(publication.note).toContain(
      "Lanczos-3 resize (sharp) from 512×512 to 2000×2000 (fal.ai's upscaler was not used:",
    );
  });

  it("a retried upload replaces the file under the same name, never a second copy", async () => {
    const { user, cookie, token } = await createTestUser();
    expect((await saveConnection(cookie, { username: USERNAME, apiKey: PASSWORD })).status).toBe(
      302,
    );
    const { stylized } = await imageOfSize(user.id, 2000);

    dropAfterNextPut = true;
    await listOnAdobeStock(cookie, stylized.id, "Retried portrait");
    const publication = await waitForState(token, stylized.id, (status) => status !== "queued");
    expect(publication.status).toBe("submitted");
    const name = `/${submissionFileName(publication.publicationId)}`;
    expect(sftp.writeOpens()[name]).toBe(2);
    expect(Object.keys(sftp.files()).filter((file) => file === name)).toHaveLength(1);
    // Big enough already: not enlarged.
    expect(publication.note).not.toContain("Enlarged");
    const job = await getDb()
      .selectFrom("jobs")
      .select(["attempts", "status"])
      .where("user_id", "=", user.id)
      .executeTakeFirstOrThrow();
    expect(job).toEqual({ attempts: 2, status: "done" });
  });

  it("fails with a clear message when the server is full, and asks to reconnect when the password no longer works", async () => {
    const { user, cookie, token } = await createTestUser();
    expect((await saveConnection(cookie, { username: USERNAME, apiKey: PASSWORD })).status).toBe(
      302,
    );
    const { stylized } = await imageOfSize(user.id, 1024);

    sftp.setCapacity(1);
    await listOnAdobeStock(cookie, stylized.id, "Portrait for a full disk");
    const full = await waitForState(token, stylized.id, (status) => status !== "queued");
    expect(full.status).toBe("failed");
    expect(full.error).toBe(
      "Uploading to Adobe Stock failed: The SFTP server has no room for " +
        `${submissionFileName(full.publicationId)} (it said: No space left on device).`,
    );
    sftp.setCapacity(undefined);

    users[USERNAME] = "a-newly-generated-password";
    try {
      await listOnAdobeStock(cookie, stylized.id, "Portrait after the password changed");
      const refused = await waitForState(token, stylized.id, (status) => status !== "queued");
      expect(refused.status).toBe("needs_auth");
      expect(refused.error).toContain("refused the SFTP username or password");
      const row = await getDb()
        .selectFrom("integrations")
        .selectAll()
        .where("user_id", "=", user.id)
        .executeTakeFirstOrThrow();
      expect(row.is_active).toBe(0);
    } finally {
      users[USERNAME] = PASSWORD;
    }
  });
});

import fs from "node:fs";
import net from "node:net";
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
import { openIntegration } from "~/features/publishing/integrations/integrations.server";
import { startPublishWorker } from "#tests/setup/publish-worker";
import { readIptcIim } from "~/features/publishing/connectors/iptc-iim.server";
import { submissionFileName } from "~/features/publishing/connectors/sftp-submission-connector.server";
import * as integrationsRoute from "~/routes/_studio+/integrations";
import * as listRoute from "~/routes/_studio+/studio.list";
import { callRoute, formRequest, makeRequest } from "#tests/setup/requests";
import { createTestUser } from "#tests/setup/accounts";
import { createStylizedImage } from "#tests/setup/market";
import { startSftpServer } from "#tests/setup/sftp-server";
import type { SftpTestServer } from "#tests/setup/sftp-server";
import { createFalMock } from "#tests/mocks/fal";
import { apiRoutes } from "#tests/setup/api-routes";
import { storedDatabaseBytes } from "#tests/setup/db-tables";
import { RELEASE_DETAILS } from "#tests/setup/model-releases";
import { rowWhere, rowsWhere } from "#tests/setup/rows-where";
import { updateWhere } from "#tests/setup/update-where";

const { tokenIntegrations, publicationsApi, postApi, releaseApi } = apiRoutes({
  tokenIntegrations: "/api/token-marketplace-integrations",
  publicationsApi: "/api/publications",
  postApi: "/api/marketplace/post",
  releaseApi: "/api/token-stylized-images/{id}/model-release",
});

/**
 * Adobe Stock over SFTP end to end, against a real SFTP server (the ssh2
 * package's, started here): saving the connection checks it for real; listing
 * an image with its model release through the list-for-sale screen's action
 * queues a job that uploads a JPEG of at least 4 MP, at the pixels the engine
 * made, with its title, keywords and digital source type embedded; the
 * publication then says `submitted`. Without a release, or under 4 MP, it is
 * refused with a sentence and nothing is sent.
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
    results: {
      platform: string;
      status: string;
      success: boolean;
      error?: string;
      modelReleaseUrl?: string | null;
    }[];
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
      modelReleaseUrl?: string | null;
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

/**
 * A stylized image whose styled file is `size` px square (its optimized copy
 * watermarked, so never sent); with `native`, the engine made fewer pixels
 * and enlarged them to `size`.
 */
async function imageOfSize(userId: string, size: number, native?: number) {
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
  await updateWhere(
    "stylized_images",
    {
      file_key: key,
      width: size,
      height: size,
      native_width: native ?? size,
      native_height: native ?? size,
      optimized_file_key: watermarkedKey,
      watermark: 1,
    },
    "id",
    stylized.id,
  );
  return { stylized, sourceKey: key };
}

/** The creator signs the image's model release for themselves (the API). */
async function signRelease(token: string, imageId: string) {
  const response = await callRoute(
    releaseApi.action,
    makeRequest(`/api/token-stylized-images/${imageId}/model-release`, {
      token,
      json: {
        ...RELEASE_DETAILS,
        modelName: "Ada Lovelace",
        signedOn: new Date().toISOString().slice(0, 10),
        signature: "Ada Lovelace",
        confirm: true,
      },
    }),
    { id: imageId },
  );
  expect(response.status).toBe(201);
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
    expect(await rowsWhere("integrations", "user_id", user.id)).toEqual([]);

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
    expect(await rowsWhere("integrations", "user_id", user.id)).toEqual([]);

    const saved = await saveConnection(cookie, { username: USERNAME, apiKey: PASSWORD });
    expect(saved.status).toBe(302);
    const row = await rowWhere("integrations", "*", "user_id", user.id);
    expect(row).toMatchObject({
      platform: "adobestock",
      account_name: USERNAME,
      host_key: sftp.hostKeyFingerprint,
      key_last4: "",
      is_active: 1,
    });
    expect(row.credentials).not.toContain(PASSWORD);
    expect((await openIntegration(db, user.id, "adobestock"))?.secret).toBe(PASSWORD);
    expect((await storedDatabaseBytes()).includes(Buffer.from(PASSWORD))).toBe(false);

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
    const row = await rowWhere("integrations", "*", "user_id", user.id);
    expect(row.host_key).toBe(sftp.hostKeyFingerprint);
  });
});

describe("listing on Adobe Stock", () => {
  it("is refused with its sentence until the image has a model release (screen and API), and nothing is sent", async () => {
    const { user, cookie, token } = await createTestUser({
      firstName: "Ada",
      lastName: "Lovelace",
    });
    expect((await saveConnection(cookie, { username: USERNAME, apiKey: PASSWORD })).status).toBe(
      302,
    );
    const { stylized } = await imageOfSize(user.id, 2000);
    const before = Object.keys(sftp.files()).length;

    const screen = await listOnAdobeStock(cookie, stylized.id, "Portrait without a release");
    expect(screen.results[0]).toMatchObject({
      platform: "adobestock",
      success: false,
      status: "failed",
      modelReleaseUrl: null,
    });
    expect(screen.results[0].error).toBe(
      "Adobe Stock needs a signed model release for this image, because it shows a real person. " +
        "Sign one for yourself or upload the signed release of the person shown (Model release, under the listing), then submit again.",
    );
    const api = await callRoute(
      postApi.action,
      makeRequest("/api/marketplace/post", {
        token,
        json: {
          imageId: stylized.id,
          title: "Portrait without a release",
          description: "A portrait.",
          price: 30,
          platforms: ["adobestock"],
        },
      }),
    );
    expect(api.status).toBe(200);
    const answer = (await api.json()) as { results: { success: boolean; error?: string }[] };
    expect(answer.results[0].success).toBe(false);
    expect(answer.results[0].error).toContain("needs a signed model release");
    expect(await rowsWhere("jobs", "user_id", user.id)).toEqual([]);
    expect(Object.keys(sftp.files())).toHaveLength(before);

    // With one, the same request is submitted, and the listing links to the release's PDF.
    await signRelease(token, stylized.id);
    await listOnAdobeStock(cookie, stylized.id, "Portrait with a release");
    const publication = await waitForState(token, stylized.id, (status) => status !== "queued");
    expect(publication.status).toBe("submitted");
    expect(publication.modelReleaseUrl).toBe(
      `/api/token-stylized-images/${stylized.id}/model-release`,
    );
  });

  it("uploads the styled file at the pixels the engine made, with one title, no AI wording, and says submitted", async () => {
    const { user, cookie, token } = await createTestUser({
      firstName: "Ada",
      lastName: "Lovelace",
    });
    expect((await saveConnection(cookie, { username: USERNAME, apiKey: PASSWORD })).status).toBe(
      302,
    );
    const { stylized, sourceKey } = await imageOfSize(user.id, 2000);
    await signRelease(token, stylized.id);
    const longTitle =
      "AI generated anime portrait with soft window light and a calm expression for editorial use";

    const response = await callRoute(
      listRoute.action,
      formRequest(
        "/studio/list",
        {
          _js: "1",
          imageId: stylized.id,
          title: longTitle,
          description: "An AI-stylized selfie in the anime style.",
          price: "30",
          platforms: "adobestock",
        },
        { cookie },
      ),
    );
    const answer = (await response.json()) as { results: { platform: string; success: boolean }[] };
    expect(answer.results[0]).toMatchObject({ platform: "adobestock", success: true });
    const publication = await waitForState(token, stylized.id, (status) => status !== "queued");
    expect(publication.status).toBe("submitted");
    expect(publication.error).toBeNull();
    expect(publication.note).toMatch(
      /^Sent selfie-studio-.+\.jpg, 2000×2000 JPEG \(4\.0 MP\) as the style engine made it/,
    );

    const name = `/${submissionFileName(publication.publicationId)}`;
    const uploaded = sftp.files()[name];
    expect(uploaded).toBeDefined();
    const meta = await sharp(uploaded).metadata();
    expect(meta.format).toBe("jpeg");
    expect([meta.width, meta.height]).toEqual([2000, 2000]);
    expect(meta.space).toBe("srgb");
    expect(meta.icc).toBeDefined();
    expect(meta.chromaSubsampling).toBe("4:4:4");

    const xmp = readXmp(meta.xmp!);
    // Cut at a word within IIM's 64 bytes, without the AI wording, and the same text everywhere.
    const title = "anime portrait with soft window light and a calm expression for";
    expect(Buffer.byteLength(title)).toBeLessThanOrEqual(64);
    expect(xmp.title).toBe(title);
    expect(xmp.headline).toBe(title);
    const iim = readIptcIim(uploaded);
    expect(iim.get("2:5")).toEqual([title]);
    expect(iim.get("2:105")).toEqual([title]);
    expect(xmp.keywords).toEqual(expect.arrayContaining(["Anime", "portrait"]));
    for (const text of [...xmp.keywords, xmp.title!, xmp.text])
      expect(text).not.toMatch(/\bAI\b|generative/i);
    expect(xmp.text).toContain("A stylized selfie in the anime style.");
    // The disclosure the styling engine wrote into the source file, carried over.
    expect(xmp.sourceType).toBe(GENERATED);
    expect(xmp.text).toContain("Ada Lovelace");
    expect(iim.get("2:25")).toEqual(xmp.keywords);
    expect(iim.get("2:80")).toEqual(["Ada Lovelace"]);

    // Made from the clean file, not the watermarked copy: its colours are the source's, not the red square's.
    const small = async (data: Buffer) =>
      await sharp(data).resize(16, 16, { fit: "fill" }).removeAlpha().raw().toBuffer();
    const sent = await small(uploaded);
    const source = await small(await getFileStore().read(sourceKey));
    const difference =
      sent.reduce((sum, value, i) => sum + Math.abs(value - source[i]), 0) / sent.length;
    expect(difference).toBeLessThan(8);
  });

  it("refuses a 1 MP image with the size the upload needs, never enlarging it (not even with fal.ai's upscaler)", async () => {
    const { user, cookie, token } = await createTestUser();
    expect((await saveConnection(cookie, { username: USERNAME, apiKey: PASSWORD })).status).toBe(
      302,
    );
    const { stylized } = await imageOfSize(user.id, 1000);
    await signRelease(token, stylized.id);
    getConfig().FAL_KEY = "fal-test-key";
    const before = Object.keys(sftp.files()).length;

    const answer = await listOnAdobeStock(cookie, stylized.id, "Small anime portrait");
    expect(answer.results[0]).toMatchObject({ success: false, status: "failed" });
    expect(answer.results[0].error).toBe(
      "Adobe Stock takes only images of at least 4 megapixels that were not enlarged (its rule: do not upsample), " +
        "and this style is 1000 × 1000 px (1.0 MP) as the style engine made it. " +
        "Upload a photo of at least 2000 × 2000 px and style it again to submit it; it is not enlarged for you.",
    );
    expect(fal.state.requests).toEqual([]);
    expect(Object.keys(sftp.files())).toHaveLength(before);
  });

  it("sends a style the engine enlarged at the pixels it made, and refuses one whose real size is unknown", async () => {
    const { user, cookie, token } = await createTestUser();
    expect((await saveConnection(cookie, { username: USERNAME, apiKey: PASSWORD })).status).toBe(
      302,
    );
    const { stylized } = await imageOfSize(user.id, 2600, 2100);
    await signRelease(token, stylized.id);
    await listOnAdobeStock(cookie, stylized.id, "Enlarged headshot");
    const publication = await waitForState(token, stylized.id, (status) => status !== "queued");
    expect(publication.status).toBe("submitted");
    const meta = await sharp(
      sftp.files()[`/${submissionFileName(publication.publicationId)}`],
    ).metadata();
    expect([meta.width, meta.height]).toEqual([2100, 2100]);

    // Enlarged by something that did not say how much (a fal.ai style from before sizes were recorded): refused.
    await updateWhere(
      "stylized_images",
      { native_width: null, native_height: null, upscaled_by: "fal-ai/esrgan" },
      "id",
      stylized.id,
    );
    const answer = await listOnAdobeStock(cookie, stylized.id, "Enlarged headshot again");
    expect(answer.results[0].error).toContain(
      "this style was enlarged after it was made, so its real size is not known",
    );
  });

  it("a retried upload replaces the file under the same name, never a second copy", async () => {
    const { user, cookie, token } = await createTestUser();
    expect((await saveConnection(cookie, { username: USERNAME, apiKey: PASSWORD })).status).toBe(
      302,
    );
    const { stylized } = await imageOfSize(user.id, 2000);
    await signRelease(token, stylized.id);

    dropAfterNextPut = true;
    await listOnAdobeStock(cookie, stylized.id, "Retried portrait");
    const publication = await waitForState(token, stylized.id, (status) => status !== "queued");
    expect(publication.status).toBe("submitted");
    const name = `/${submissionFileName(publication.publicationId)}`;
    expect(sftp.writeOpens()[name]).toBe(2);
    expect(Object.keys(sftp.files()).filter((file) => file === name)).toHaveLength(1);
    const job = await rowWhere("jobs", ["attempts", "status"], "user_id", user.id);
    expect(job).toEqual({ attempts: 2, status: "done" });
  });

  it("fails with a clear message when the server is full, and asks to reconnect when the password no longer works", async () => {
    const { user, cookie, token } = await createTestUser();
    expect((await saveConnection(cookie, { username: USERNAME, apiKey: PASSWORD })).status).toBe(
      302,
    );
    const { stylized } = await imageOfSize(user.id, 2000);
    await signRelease(token, stylized.id);

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
      const row = await rowWhere("integrations", "*", "user_id", user.id);
      expect(row.is_active).toBe(0);
    } finally {
      users[USERNAME] = PASSWORD;
    }
  });
});

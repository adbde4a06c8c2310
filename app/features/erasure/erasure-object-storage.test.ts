import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { s3ServerEnv, startS3Server, type S3TestServer } from "#tests/setup/s3-server";
import { getConfig } from "~/infra/config.server";
import { getDb } from "~/infra/db.server";
import { getFileStore, newFileKey } from "~/infra/file-store.server";
import { publicMediaUrl, signedMediaUrl } from "~/infra/signed-urls.server";
import { JobWorker } from "~/infra/jobs/job-worker.server";
import { ERASE_ACCOUNT_JOB, eraseAccountJobHandler } from "~/features/erasure/erasure-job.server";
import * as media from "~/routes/_resources+/media.$";
import { callRoute, makeRequest } from "#tests/setup/requests";
import { createTestUser, TEST_PASSWORD } from "#tests/setup/accounts";
import { apiRoute } from "#tests/setup/api-routes";
import { payoutDeps } from "#tests/setup/payouts";
import { fixture } from "#tests/setup/studio";
import { uploadedImageRow } from "#tests/setup/studio-api";
import { updateWhere } from "#tests/setup/update-where";

/**
 * With object storage, a deleted upload and an erased creator's files stop
 * being served at once, as on the volume: the presigned and public URLs handed
 * out before answer 404, and so does a fresh request through the app, without
 * waiting for the sweep (docs/decisions/086-erasure-leaves-nothing-behind.md).
 */
const PORT = 5103;
Object.assign(process.env, s3ServerEnv(PORT));

let s3: S3TestServer | undefined;
beforeAll(async () => {
  s3 = await startS3Server({
    port: PORT,
    directory: path.join(process.env.DATA_DIR!, "s3rver-erasure"),
  });
});
afterAll(async () => {
  await s3?.close();
  for (const name of Object.keys(s3?.env ?? {})) delete process.env[name];
});

/** An upload through the API: its image id and file key. */
const upload = uploadedImageRow;

/** The app's signed /media link of a private key, and the presigned URL its redirect hands out. */
async function handedOut(key: string) {
  const signed = signedMediaUrl(key);
  const response = await callRoute(media.loader, makeRequest(signed), { "*": key });
  expect(response.status).toBe(302);
  const presigned = response.headers.get("location")!;
  expect((await fetch(presigned)).status).toBe(200);
  return { signed, presigned };
}

const throughTheApp = (signed: string, key: string) =>
  callRoute(media.loader, makeRequest(signed), { "*": key }).then((response) => response.status);

describe("with object storage, a removed file is served no more, at once", () => {
  it("a deleted upload: its handed-out link and a fresh request through the app", async () => {
    expect(getFileStore().kind).toBe("s3");
    const { token } = await createTestUser();
    const image = await upload(token);
    const { signed, presigned } = await handedOut(image.file_key);
    const deleted = await callRoute(
      apiRoute("/api/token-images/{id}").action,
      makeRequest(`/api/token-images/${image.id}`, { method: "DELETE", token }),
      { id: image.id },
    );
    expect(deleted.status).toBe(204);
    expect((await fetch(presigned)).status).toBe(404);
    expect(await throughTheApp(signed, image.file_key)).toBe(404);
  });

  it("an erased creator: the selfie's handed-out link, the app's link and the public profile photo", async () => {
    const creator = await createTestUser();
    const image = await upload(creator.token);
    const selfie = await handedOut(image.file_key);
    // A profile photo in the public bucket, at its public address.
    const avatar = newFileKey("avatars", "jpg");
    await getFileStore().write(avatar, fixture("portrait.png"));
    const avatarUrl = publicMediaUrl(avatar);
    await updateWhere("users", { profile_image_url: avatarUrl }, "id", creator.user.id);
    const photo = await fetch(avatarUrl);
    expect(photo.status).toBe(200);
    expect(photo.headers.get("cache-control")).toBe("public, max-age=600");

    const erased = await callRoute(
      apiRoute("/api/account").action,
      makeRequest("/api/account", {
        method: "DELETE",
        json: { password: TEST_PASSWORD },
        token: creator.token,
      }),
    );
    expect(erased.status).toBe(202);
    await new JobWorker({
      db: getDb(),
      handlers: {
        [ERASE_ACCOUNT_JOB]: eraseAccountJobHandler({
          store: getFileStore(),
          outboxDir: getConfig().outboxDir,
          payouts: payoutDeps(),
          log: () => {},
        }),
      },
      concurrency: 1,
      backoff: { baseMs: 0, maxMs: 0 },
      log: () => {},
    }).drain();

    expect((await fetch(selfie.presigned)).status).toBe(404);
    expect(await throughTheApp(selfie.signed, image.file_key)).toBe(404);
    expect((await fetch(avatarUrl)).status).toBe(404);
    expect(await getFileStore().exists(avatar)).toBe(false);
  });
});

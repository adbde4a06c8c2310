import sharp from "sharp";
import { afterAll, describe, expect, it } from "vitest";
import { getDb } from "~/infra/db.server";
import { stopVision } from "~/engines/styling/vision/vision-client.server";
import { beginErasure } from "~/features/erasure/erase-account.server";
import {
  FACE_NEEDS_CONSENT,
  NO_FACE_FOUND,
  SEVERAL_FACES,
  FACE_TOO_SMALL,
} from "~/features/privacy/procedures/verified-face.server";
import { callRoute, formRequest, makeRequest } from "#tests/setup/requests";
import { flashOf } from "#tests/setup/flash";
import * as privacySettings from "~/routes/_studio+/settings.privacy";
import { createTestUser } from "#tests/setup/accounts";
import { fixture, pngBomb, uploadRequest } from "#tests/setup/studio";
import { apiRoute } from "#tests/setup/api-routes";
import { getFileStore } from "~/infra/file-store.server";
import {
  COMPARE_LIKENESS_JOB,
  compareUploadsWithVerifiedFace,
  type CompareLikenessPayload,
} from "~/features/studio/images/likeness-comparison-job.server";
import { rowsWhere, selectWhere } from "#tests/setup/rows-where";

/**
 * The verified face (POST and DELETE /api/account/face) and the likeness of
 * uploads, with the real face models on real photos: Eileen Collins
 * (portrait.png), Grace Hopper (portrait-hopper.jpg), a rocket launch.
 */

const face = apiRoute("/api/account/face");
const consent = apiRoute("/api/account/consent");
const upload = apiRoute("/api/token-images/upload");
const images = apiRoute("/api/token-images");

afterAll(async () => {
  await stopVision();
});

const verify = (token: string, data: Uint8Array, filename = "selfie.png") =>
  callRoute(face.action, uploadRequest(data, { token, filename, url: "/api/account/face" }));

const unverify = (token: string) =>
  callRoute(face.action, makeRequest("/api/account/face", { method: "DELETE", token }));

async function uploadLikeness(token: string, data: Uint8Array): Promise<string> {
  const response = await callRoute(upload.action, uploadRequest(data, { token }));
  expect(response.status).toBe(201);
  return ((await response.json()) as { likeness: string }).likeness;
}

const descriptorRows = (userId: string) => rowsWhere("verified_faces", "user_id", userId);

/** Another photo of the same person: mirrored, re-framed and darker (the fixtures hold one photo of each). */
async function anotherCollins(): Promise<Buffer> {
  return sharp(fixture("portrait.png"))
    .flop()
    .extract({ left: 30, top: 20, width: 460, height: 470 })
    .modulate({ brightness: 0.85 })
    .jpeg({ quality: 70 })
    .toBuffer();
}

/** Two people side by side. */
async function twoPeople(): Promise<Buffer> {
  const collins = await sharp(fixture("portrait.png")).resize(400, 400).toBuffer();
  const hopper = await sharp(fixture("portrait-hopper.jpg")).resize(400, 400).toBuffer();
  return sharp({ create: { width: 800, height: 400, channels: 3, background: "#808080" } })
    .composite([
      { input: collins, left: 0, top: 0 },
      { input: hopper, left: 400, top: 0 },
    ])
    .png()
    .toBuffer();
}

/** Collins small in a large grey picture (her face about 7 % of its width; found, but too small). */
async function smallFace(): Promise<Buffer> {
  const collins = await sharp(fixture("portrait.png")).resize(500, 500).toBuffer();
  return sharp({ create: { width: 1600, height: 1600, channels: 3, background: "#808080" } })
    .composite([{ input: collins, left: 100, top: 100 }])
    .png()
    .toBuffer();
}

describe("POST /api/account/face", () => {
  it("keeps a face descriptor (never the photo) and answers {face: {verified, at}}", async () => {
    const { user, token } = await createTestUser();
    const response = await verify(token, fixture("portrait.png"));
    expect(response.status).toBe(200);
    const body = (await response.json()) as { face: { verified: boolean; at: string } };
    expect(body).toEqual({ face: { verified: true, at: expect.any(String) } });
    const [row] = await descriptorRows(user.id);
    expect(row.verified_at).toBe(body.face.at);
    // 1024 32-bit floats; no image row was made of the selfie.
    expect(Buffer.from(row.descriptor, "base64").length).toBe(4096);
    expect(row.same_face_user_id).toBeNull();
    const stored = await selectWhere("images", "id", "user_id", user.id);
    expect(stored).toEqual([]);
  });

  it("answers 409 without the consent to face processing, and keeps nothing", async () => {
    const { user, token } = await createTestUser({ faceConsent: false });
    const response = await verify(token, fixture("portrait.png"));
    expect(response.status).toBe(409);
    expect(await response.json()).toEqual({ message: FACE_NEEDS_CONSENT });
    expect(await descriptorRows(user.id)).toEqual([]);
  });

  it("answers 400 with a sentence for no face, two faces and a face too small", async () => {
    const { user, token } = await createTestUser();
    const none = await verify(token, fixture("coffee.png"));
    expect(none.status).toBe(400);
    expect(await none.json()).toEqual({ message: NO_FACE_FOUND });

    const two = await verify(token, await twoPeople());
    expect(two.status).toBe(400);
    expect(await two.json()).toEqual({ message: SEVERAL_FACES(2) });

    const small = await verify(token, await smallFace());
    expect(small.status).toBe(400);
    expect(await small.json()).toEqual({ message: FACE_TOO_SMALL });
    expect(await descriptorRows(user.id)).toEqual([]);
  });

  it("refuses hostile files as uploads do: not an image, a truncated file, a decompression bomb", async () => {
    const { user, token } = await createTestUser();
    const text = await verify(token, Buffer.from("not an image at all"), "selfie.jpg");
    expect(text.status).toBe(415);
    expect(await text.json()).toEqual({ message: expect.any(String) });
    const truncated = await verify(token, fixture("truncated.jpg"), "selfie.jpg");
    expect(truncated.status).toBe(415);
    const bomb = await verify(token, pngBomb());
    expect(bomb.status).toBe(415);
    expect(await descriptorRows(user.id)).toEqual([]);
  });

  it("accepts a face already verified on another account, and flags it to the admin", async () => {
    const first = await createTestUser();
    const second = await createTestUser();
    expect((await verify(first.token, fixture("portrait.png"))).status).toBe(200);
    expect((await verify(second.token, await anotherCollins(), "selfie.jpg")).status).toBe(200);
    const [row] = await descriptorRows(second.user.id);
    // The first account, or another that verified the same portrait earlier in this file.
    const collinsAccounts = (
      await getDb()
        .selectFrom("verified_faces")
        .select("user_id")
        .where("user_id", "<>", second.user.id)
        .execute()
    ).map((r) => r.user_id);
    expect(collinsAccounts).toContain(first.user.id);
    expect(collinsAccounts).toContain(row.same_face_user_id);
    const audit = await getDb()
      .selectFrom("audit_log")
      .selectAll()
      .where("action", "=", "user.face_also_verified")
      .where("subject_id", "=", second.user.id)
      .execute();
    expect(audit).toHaveLength(1);
    expect(JSON.parse(audit[0].detail ?? "{}")).toMatchObject({
      otherAccount: row.same_face_user_id,
    });
  });
});

describe("likeness of uploads", () => {
  it("is unverified without a verified face, then self, other or none", async () => {
    const { token } = await createTestUser();
    expect(await uploadLikeness(token, fixture("portrait.png"))).toBe("unverified");

    expect((await verify(token, fixture("portrait.png"))).status).toBe(200);
    expect(await uploadLikeness(token, await anotherCollins())).toBe("self");
    expect(await uploadLikeness(token, fixture("portrait-hopper.jpg"))).toBe("other");
    expect(await uploadLikeness(token, fixture("rocket.jpg"))).toBe("none");

    const list = await callRoute(images.loader, makeRequest("/api/token-images", { token }));
    expect(list.status).toBe(200);
    const likeness = ((await list.json()) as Array<{ likeness: string }>).map((i) => i.likeness);
    // Newest first; the upload made before the verification was not compared.
    expect(likeness).toEqual(["none", "other", "self", "unverified"]);
  });
});

describe("uploads made before the verification", () => {
  const comparisonJobs = async (userId: string) =>
    (
      await getDb()
        .selectFrom("jobs")
        .select("payload")
        .where("kind", "=", COMPARE_LIKENESS_JOB)
        .where("user_id", "=", userId)
        .execute()
    ).map((row) => JSON.parse(row.payload) as CompareLikenessPayload);

  const likenessList = async (token: string) => {
    const list = await callRoute(images.loader, makeRequest("/api/token-images", { token }));
    return ((await list.json()) as Array<{ likeness: string }>).map((i) => i.likeness);
  };

  it("are compared with the new face by a background job; a newer face's job only", async () => {
    const { user, token } = await createTestUser();
    expect(await uploadLikeness(token, fixture("portrait-hopper.jpg"))).toBe("unverified");
    expect(await uploadLikeness(token, await anotherCollins())).toBe("unverified");
    expect(await comparisonJobs(user.id)).toEqual([]);

    expect((await verify(token, fixture("portrait.png"))).status).toBe(200);
    const [first] = await comparisonJobs(user.id);
    expect(first).toEqual({ userId: user.id, verifiedAt: expect.any(String) });
    expect(await likenessList(token)).toEqual(["unverified", "unverified"]);

    // Verified again (Hopper this time): the first job is stale and compares nothing.
    expect((await verify(token, fixture("portrait-hopper.jpg"), "h.jpg")).status).toBe(200);
    const jobs = await comparisonJobs(user.id);
    expect(jobs).toHaveLength(2);
    const second = jobs.find((job) => job.verifiedAt !== first.verifiedAt)!;
    expect(await compareUploadsWithVerifiedFace(getDb(), getFileStore(), first)).toBe(0);
    expect(await likenessList(token)).toEqual(["unverified", "unverified"]);

    // The current face's job compares both uploads: Collins is someone else now, Hopper is self.
    expect(await compareUploadsWithVerifiedFace(getDb(), getFileStore(), second)).toBe(2);
    expect(await likenessList(token)).toEqual(["other", "self"]);
    // Run again, it finds nothing left to compare.
    expect(await compareUploadsWithVerifiedFace(getDb(), getFileStore(), second)).toBe(0);
  });
});

describe("deleting the verified face", () => {
  it("DELETE /api/account/face deletes the descriptor; uploads are unverified again", async () => {
    const { user, token } = await createTestUser();
    expect((await verify(token, fixture("portrait.png"))).status).toBe(200);
    expect(await uploadLikeness(token, fixture("portrait-hopper.jpg"))).toBe("other");
    const response = await unverify(token);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ face: { verified: false, at: null } });
    expect(await descriptorRows(user.id)).toEqual([]);
    const list = await callRoute(images.loader, makeRequest("/api/token-images", { token }));
    const likeness = ((await list.json()) as Array<{ likeness: string }>).map((i) => i.likeness);
    expect(likeness).toEqual(["unverified"]);
    expect(await uploadLikeness(token, fixture("portrait.png"))).toBe("unverified");
  });

  it("withdrawing the consent to face processing deletes the descriptor", async () => {
    const { user, token } = await createTestUser();
    expect((await verify(token, fixture("portrait.png"))).status).toBe(200);
    const withdrawn = await callRoute(
      consent.action,
      makeRequest("/api/account/consent", { method: "DELETE", token }),
    );
    expect(withdrawn.status).toBe(200);
    expect(await descriptorRows(user.id)).toEqual([]);
  });

  it("erasing the account deletes the descriptor", async () => {
    const { user, token } = await createTestUser();
    const other = await createTestUser();
    expect((await verify(token, fixture("portrait.png"))).status).toBe(200);
    expect((await verify(other.token, fixture("portrait-hopper.jpg"), "h.jpg")).status).toBe(200);
    await beginErasure(getDb(), { actorId: user.id, userId: user.id, now: new Date() });
    expect(await descriptorRows(user.id)).toEqual([]);
    expect(await descriptorRows(other.user.id)).toHaveLength(1);
  });
});

describe("Settings, Privacy: the verified face as plain form posts", () => {
  it("verifies from a file field, shows it, refuses a photo without a face with a flash, and deletes it", async () => {
    const { user, cookie } = await createTestUser();
    const screen = () =>
      callRoute(privacySettings.loader, makeRequest("/settings/privacy", { cookie }));
    expect(await (await screen()).json()).toMatchObject({ face: { verified: false, at: null } });

    const refused = await callRoute(
      privacySettings.action,
      uploadRequest(fixture("coffee.png"), { cookie, url: "/settings/privacy" }),
    );
    expect(refused.status).toBe(302);
    expect(await flashOf(refused)).toMatchObject({ kind: "error", description: NO_FACE_FOUND });

    const verified = await callRoute(
      privacySettings.action,
      uploadRequest(fixture("portrait.png"), { cookie, url: "/settings/privacy" }),
    );
    expect(verified.status).toBe(302);
    expect(verified.headers.get("Location")).toBe("/settings/privacy");
    expect(await flashOf(verified)).toMatchObject({ kind: "success", title: "Face verified" });
    expect(await (await screen()).json()).toMatchObject({
      face: { verified: true, at: expect.any(String) },
    });

    const removed = await callRoute(
      privacySettings.action,
      formRequest("/settings/privacy", { intent: "remove-face" }, { cookie }),
    );
    expect(removed.status).toBe(302);
    expect(await descriptorRows(user.id)).toEqual([]);
  });
});

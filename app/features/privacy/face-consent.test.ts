import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { flashOf } from "#tests/setup/flash";
import * as dashboard from "~/routes/_studio+/dashboard";
import * as privacySettings from "~/routes/_studio+/settings.privacy";
import { getConfig } from "~/infra/config.server";
import { getDb } from "~/infra/db.server";
import { requestStylization, STYLIZE_JOB } from "~/features/studio/styles/stylized-images.server";
import {
  CANCELLED_BY_CONSENT_TEXT_CHANGE,
  CANCELLED_BY_CONSENT_WITHDRAWAL,
  faceConsentText,
} from "~/features/privacy/face-consent";
import {
  currentFaceConsentVersion,
  faceConsentVersion,
} from "~/features/privacy/face-consent.server";
import type { DashboardData } from "~/features/studio/types";
import { callRoute, formRequest, makeRequest } from "#tests/setup/requests";
import { createTestUser } from "#tests/setup/accounts";
import { fixture, studioWorker, testStyleEngine, uploadRequest } from "#tests/setup/studio";
import { apiRoute } from "#tests/setup/api-routes";
import { testTies } from "#tests/setup/ties";
import { invoke } from "~/infra/procedure.server";
import { plainContext } from "~/infra/call-context.server";
import { stylizeImage } from "~/features/studio/styles/procedures.server";
import { rowWhere, selectWhere } from "#tests/setup/rows-where";
import { updateWhere } from "#tests/setup/update-where";

const consentRoute = apiRoute("/api/account/consent");
const accountRoute = apiRoute("/api/account");
const stylize = apiRoute("/api/token-images/{id}/stylize");
const upload = apiRoute("/api/token-images/upload");

/** The consent to face processing: no style without it, recorded with its time and version, withdrawn at once. */

beforeEach(async () => {
  await getDb().deleteFrom("jobs").execute();
});

afterEach(() => {
  getConfig().FAL_KEY = undefined;
  vi.useRealTimers();
});

/** The version of the consent text the test configuration shows now (the local engine's, without FAL_KEY). */
const currentVersion = () => currentFaceConsentVersion(getConfig());

async function uploadedImage(token: string): Promise<string> {
  const response = await callRoute(
    upload.action,
    uploadRequest(fixture("portrait.png"), { token }),
  );
  expect(response.status).toBe(201);
  return ((await response.json()) as { id: string }).id;
}

const requestStyle = (imageId: string, token: string) =>
  callRoute(
    stylize.action,
    makeRequest(`/api/token-images/${imageId}/stylize`, { token, json: { style: "cartoon" } }),
    { id: imageId },
  );

const consent = (method: "POST" | "DELETE", token: string) =>
  callRoute(
    consentRoute.action,
    makeRequest("/api/account/consent", {
      method,
      token,
      ...(method === "POST" ? { json: { faceProcessing: true } } : {}),
    }),
  );

async function queuedWork(userId: string) {
  const styles = await selectWhere("stylized_images", ["status", "error"], "user_id", userId);
  const jobs = await selectWhere("jobs", ["status", "kind"], "user_id", userId);
  return { styles, jobs };
}

describe("consent to face processing", () => {
  it("answers 409 naming the consent to a style asked for without it, and queues nothing", async () => {
    const { user, token } = await createTestUser({ faceConsent: false });
    const imageId = await uploadedImage(token);
    const response = await requestStyle(imageId, token);
    expect(response.status).toBe(409);
    const body = (await response.json()) as { message: string };
    expect(body).toEqual({ message: expect.stringContaining("consent") });
    expect(await queuedWork(user.id)).toEqual({ styles: [], jobs: [] });
  });

  it("records the time and version of a consent given through the API; styling then works", async () => {
    const { user, token } = await createTestUser({ faceConsent: false });
    const imageId = await uploadedImage(token);
    const given = await consent("POST", token);
    expect(given.status).toBe(200);
    const account = (await given.json()) as {
      id: string;
      consent: { faceProcessing: { given: boolean; at: string; version: string } };
    };
    expect(account).toMatchObject({
      id: user.id,
      consent: { faceProcessing: { given: true, version: currentVersion() } },
    });
    expect(Number.isNaN(Date.parse(account.consent.faceProcessing.at))).toBe(false);
    const row = await rowWhere("users", ["face_consent_version", "face_consent_at"], "id", user.id);
    expect(row).toEqual({
      face_consent_version: currentVersion(),
      face_consent_at: account.consent.faceProcessing.at,
    });
    expect((await requestStyle(imageId, token)).status).toBe(202);
  });

  it("asks again when the text changed: a consent to an earlier version does not count", async () => {
    const { user, token } = await createTestUser();
    const imageId = await uploadedImage(token);
    await updateWhere("users", { face_consent_version: "2000-01-01" }, "id", user.id);
    expect((await requestStyle(imageId, token)).status).toBe(409);
    expect(await queuedWork(user.id)).toEqual({ styles: [], jobs: [] });
  });

  it("refuses a style when the consent was withdrawn after the request was admitted (the insert checks it again)", async () => {
    const { user, token } = await createTestUser();
    const imageId = await uploadedImage(token);
    await updateWhere(
      "users",
      { face_consent_version: null, face_consent_at: null },
      "id",
      user.id,
    );
    await expect(
      requestStylization(getDb(), {
        userId: user.id,
        imageId,
        style: "anime",
        provider: "local",
        now: new Date(),
        consentVersion: currentVersion(),
      }),
    ).rejects.toMatchObject({ status: 409 });
    expect(await queuedWork(user.id)).toEqual({ styles: [], jobs: [] });
  });

  it("withdrawal stops styling at once and cancels the creator's waiting styles, and no one else's", async () => {
    const { user, token } = await createTestUser();
    const other = await createTestUser();
    const imageId = await uploadedImage(token);
    const otherImageId = await uploadedImage(other.token);
    expect((await requestStyle(imageId, token)).status).toBe(202);
    expect((await requestStyle(imageId, token)).status).toBe(202);
    expect((await requestStyle(otherImageId, other.token)).status).toBe(202);

    const withdrawn = await consent("DELETE", token);
    expect(withdrawn.status).toBe(200);
    expect(await withdrawn.json()).toMatchObject({
      consent: { faceProcessing: { given: false, at: null, version: null } },
    });

    const mine = await queuedWork(user.id);
    expect(mine.styles).toEqual([
      { status: "failed", error: CANCELLED_BY_CONSENT_WITHDRAWAL },
      { status: "failed", error: CANCELLED_BY_CONSENT_WITHDRAWAL },
    ]);
    expect(mine.jobs).toEqual([
      { status: "failed", kind: STYLIZE_JOB },
      { status: "failed", kind: STYLIZE_JOB },
    ]);
    expect(await queuedWork(other.user.id)).toEqual({
      styles: [{ status: "pending", error: null }],
      jobs: [{ status: "queued", kind: STYLIZE_JOB }],
    });
    expect((await requestStyle(imageId, token)).status).toBe(409);

    // The worker takes only the other creator's job; nothing of the withdrawn creator's is styled.
    const engine = testStyleEngine();
    await studioWorker(engine).drain();
    expect(engine.calls).toHaveLength(1);
    expect((await queuedWork(user.id)).styles.map((style) => style.status)).toEqual([
      "failed",
      "failed",
    ]);
    expect((await queuedWork(other.user.id)).styles).toEqual([
      { status: "completed", error: null },
    ]);
  });

  it("a job a worker takes after the withdrawal measures no face: it ends cancelled", async () => {
    const { user, token } = await createTestUser();
    const imageId = await uploadedImage(token);
    expect((await requestStyle(imageId, token)).status).toBe(202);
    // Withdrawn behind the queue's back (as if the job had been claimed a moment before).
    await updateWhere(
      "users",
      { face_consent_version: null, face_consent_at: null },
      "id",
      user.id,
    );
    const engine = testStyleEngine();
    await studioWorker(engine).drain();
    expect(engine.calls).toEqual([]);
    expect((await queuedWork(user.id)).styles).toEqual([
      { status: "failed", error: CANCELLED_BY_CONSENT_WITHDRAWAL },
    ]);
  });
});

describe("the consent on the screens, without JavaScript", () => {
  it("shows the consent form on the Style step, refuses Generate, and records the consent from the form", async () => {
    const { user, token, cookie } = await createTestUser({ faceConsent: false });
    const imageId = await uploadedImage(token);
    const page = await callRoute(
      dashboard.loader,
      makeRequest(`/dashboard?image=${imageId}&step=style`, { cookie }),
    );
    const data = (await page.json()) as DashboardData;
    expect(data.faceConsent).toEqual({
      given: false,
      outdated: false,
      paragraphs: expect.arrayContaining([expect.stringContaining("468 points")]),
    });

    const generate = await callRoute(
      dashboard.action,
      formRequest("/dashboard", { intent: "stylize", id: imageId, style: "cartoon" }, { cookie }),
    );
    expect(generate.status).toBe(302);
    expect(await flashOf(generate)).toMatchObject({
      kind: "error",
      description: expect.stringContaining("consent"),
    });
    expect(await queuedWork(user.id)).toEqual({ styles: [], jobs: [] });

    const back = `/dashboard?image=${imageId}&step=style`;
    const agreed = await callRoute(
      dashboard.action,
      formRequest("/dashboard", { intent: "give-consent", back }, { cookie }),
    );
    expect(agreed.status).toBe(302);
    expect(agreed.headers.get("Location")).toBe(`${back}#pipeline`);
    const after = (await (
      await callRoute(dashboard.loader, makeRequest(back, { cookie }))
    ).json()) as DashboardData;
    expect(after.faceConsent?.given).toBe(true);
    const styled = await callRoute(
      dashboard.action,
      formRequest("/dashboard", { intent: "stylize", id: imageId, style: "cartoon" }, { cookie }),
    );
    expect(styled.headers.get("Location")).toMatch(/pending=/);
  });

  it("Settings, Privacy: shows the state, and Withdraw and Give work as form posts", async () => {
    const { user, token, cookie } = await createTestUser();
    const imageId = await uploadedImage(token);
    expect((await requestStyle(imageId, token)).status).toBe(202);
    const shown = await callRoute(
      privacySettings.loader,
      makeRequest("/settings/privacy", { cookie }),
    );
    expect(await shown.json()).toMatchObject({
      given: true,
      record: { given: true, version: currentVersion() },
    });

    const withdrawn = await callRoute(
      privacySettings.action,
      formRequest("/settings/privacy", { intent: "withdraw-consent" }, { cookie }),
    );
    expect(withdrawn.status).toBe(302);
    expect(withdrawn.headers.get("Location")).toBe("/settings/privacy");
    expect((await queuedWork(user.id)).jobs).toEqual([{ status: "failed", kind: STYLIZE_JOB }]);
    const after = await callRoute(
      privacySettings.loader,
      makeRequest("/settings/privacy", { cookie }),
    );
    expect(await after.json()).toMatchObject({
      given: false,
      outdated: false,
      record: { given: false },
    });

    await callRoute(
      privacySettings.action,
      formRequest("/settings/privacy", { intent: "give-consent" }, { cookie }),
    );
    const again = await callRoute(
      privacySettings.loader,
      makeRequest("/settings/privacy", { cookie }),
    );
    expect(await again.json()).toMatchObject({ given: true });
  });
});

describe("the consent bound to its text", () => {
  const local = { kind: "local" } as const;
  const fal = { kind: "fal", photoExpirySeconds: 180 } as const;

  it("names each text by its engine and its words: the local and fal.ai texts have different versions", () => {
    expect(faceConsentVersion(local)).toMatch(/^local-[0-9a-f]{16}$/);
    expect(faceConsentVersion(fal)).toMatch(/^fal-[0-9a-f]{16}$/);
    expect(faceConsentVersion(local)).not.toBe(faceConsentVersion(fal).replace("fal-", "local-"));
    // Another expiry is another sentence, so another version; the same text, the same version.
    expect(faceConsentVersion({ kind: "fal", photoExpirySeconds: 300 })).not.toBe(
      faceConsentVersion(fal),
    );
    expect(faceConsentVersion({ kind: "fal", photoExpirySeconds: 180 })).toBe(
      faceConsentVersion(fal),
    );
    expect(currentFaceConsentVersion(getConfig())).toBe(faceConsentVersion(local));
    expect(currentFaceConsentVersion({ ...getConfig(), FAL_KEY: "fal-test-key" })).toMatch(/^fal-/);
  });

  it("the procedure refuses the next style once fal.ai is set up: a consent to the local text does not count", async () => {
    const { user, token } = await createTestUser();
    const imageId = await uploadedImage(token);
    const localCtx = plainContext("http://localhost:3000", { ties: testTies });
    await expect(
      invoke(stylizeImage, user, { id: imageId, style: "cartoon" }, localCtx),
    ).resolves.toMatchObject({ status: "pending" });
    const falCtx = plainContext("http://localhost:3000", {
      ties: testTies,
      config: { ...getConfig(), FAL_KEY: "fal-test-key" },
    });
    await expect(
      invoke(stylizeImage, user, { id: imageId, style: "anime" }, falCtx),
    ).rejects.toMatchObject({ status: 409 });
    expect((await queuedWork(user.id)).styles).toHaveLength(1);
  });

  it("a creator who agreed to the local text is asked again once a fal key is set, on the API and the screens, and can style after agreeing to fal.ai's text", async () => {
    const { user, token, cookie } = await createTestUser();
    const imageId = await uploadedImage(token);
    expect((await requestStyle(imageId, token)).status).toBe(202);
    const localVersion = currentVersion();

    getConfig().FAL_KEY = "fal-test-key";
    const falVersion = currentVersion();
    expect(falVersion).not.toBe(localVersion);

    // The API: 409 naming the consent, nothing more queued; the account says no consent.
    const refused = await requestStyle(imageId, token);
    expect(refused.status).toBe(409);
    expect(await refused.json()).toEqual({ message: expect.stringContaining("consent") });
    expect((await queuedWork(user.id)).styles).toHaveLength(1);
    const account = await callRoute(accountRoute.loader, makeRequest("/api/account", { token }));
    expect(await account.json()).toMatchObject({
      consent: { faceProcessing: { given: false, at: null, version: null } },
    });

    // Settings: not shown as agreed; the fal.ai text is asked for, saying the consent was to an earlier one.
    const settings = await callRoute(
      privacySettings.loader,
      makeRequest("/settings/privacy", { cookie }),
    );
    expect(await settings.json()).toMatchObject({
      given: false,
      outdated: true,
      record: { given: false, version: null },
      paragraphs: expect.arrayContaining([expect.stringContaining("sent to fal.ai")]),
    });

    // The dashboard's Style step: the consent form again, with the fal.ai text.
    const page = await callRoute(
      dashboard.loader,
      makeRequest(`/dashboard?image=${imageId}&step=style`, { cookie }),
    );
    expect(((await page.json()) as DashboardData).faceConsent).toEqual({
      given: false,
      outdated: true,
      paragraphs: expect.arrayContaining([expect.stringContaining("sent to fal.ai")]),
    });

    // Agreeing now records the fal.ai text's version; styling works again.
    const given = await consent("POST", token);
    expect(await given.json()).toMatchObject({
      consent: { faceProcessing: { given: true, version: falVersion } },
    });
    expect((await requestStyle(imageId, token)).status).toBe(202);
  });

  it("a style queued under the local text is not made once fal.ai styles: its job ends cancelled, naming the changed text", async () => {
    const { user, token } = await createTestUser();
    const imageId = await uploadedImage(token);
    expect((await requestStyle(imageId, token)).status).toBe(202);
    getConfig().FAL_KEY = "fal-test-key";
    const engine = testStyleEngine();
    await studioWorker(engine).drain();
    expect(engine.calls).toEqual([]);
    expect((await queuedWork(user.id)).styles).toEqual([
      { status: "failed", error: CANCELLED_BY_CONSENT_TEXT_CHANGE },
    ]);
  });

  it("logs every grant and withdrawal with its time and text version, never rewriting a row", async () => {
    const { user, token } = await createTestUser({ faceConsent: false });
    const log = () =>
      selectWhere(
        "consent_log",
        ["user_id", "purpose", "action", "text_version", "text", "at"],
        "user_id",
        user.id,
        "at",
      );
    const version = currentVersion();
    const lines = JSON.stringify(faceConsentText({ kind: "local" }));

    vi.useFakeTimers({ toFake: ["Date"], now: Date.parse("2026-12-01T09:00:00.000Z") });
    expect((await consent("POST", token)).status).toBe(200);
    const afterGrant = await log();
    expect(afterGrant).toEqual([
      {
        user_id: user.id,
        purpose: "face-processing",
        action: "grant",
        text_version: version,
        text: lines,
        at: "2026-12-01T09:00:00.000Z",
      },
    ]);

    vi.setSystemTime(Date.parse("2026-12-02T09:00:00.000Z"));
    expect((await consent("DELETE", token)).status).toBe(200);
    const afterWithdrawal = await log();
    expect(afterWithdrawal).toEqual([
      ...afterGrant,
      {
        user_id: user.id,
        purpose: "face-processing",
        action: "withdraw",
        text_version: version,
        text: null,
        at: "2026-12-02T09:00:00.000Z",
      },
    ]);
    // A withdrawal with nothing to withdraw records nothing.
    expect((await consent("DELETE", token)).status).toBe(200);
    expect(await log()).toEqual(afterWithdrawal);

    vi.setSystemTime(Date.parse("2026-12-03T09:00:00.000Z"));
    expect((await consent("POST", token)).status).toBe(200);
    expect(await log()).toEqual([
      ...afterWithdrawal,
      {
        user_id: user.id,
        purpose: "face-processing",
        action: "grant",
        text_version: version,
        text: lines,
        at: "2026-12-03T09:00:00.000Z",
      },
    ]);
  });
});

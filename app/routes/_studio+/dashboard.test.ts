import crypto from "node:crypto";
import { beforeEach, describe, expect, it } from "vitest";
import * as dashboard from "~/routes/_studio+/dashboard";
import * as home from "~/routes/_marketing+/_index";
import { getDb } from "~/infra/db.server";
import { StyleEngineError } from "~/engines/styling/style-engine-error.server";
import type { DashboardData } from "~/features/studio/types";
import type { UploadAnswer } from "~/features/studio/images/upload-toasts";
import { UPLOAD_FETCHER_ACTION } from "~/features/studio/images/upload-toasts";
import type { PayoutsOverview } from "~/features/payouts/types";
import { callRoute, formRequest, makeRequest, type RequestOptions } from "#tests/setup/requests";
import { createTestUser } from "#tests/setup/accounts";
import { fixture, studioWorker, testStyleEngine, uploadRequest } from "#tests/setup/studio";
import { flashOf } from "#tests/setup/flash";
import { rowWhere, rowsWhere } from "#tests/setup/rows-where";

/** The dashboard without JavaScript: every step is a page, every action a form post and a redirect. */

beforeEach(async () => {
  await getDb().deleteFrom("jobs").execute();
});

async function view(path: string, cookie: string) {
  const response = await load(path, cookie);
  return {
    response,
    data: (response.status === 200 ? await response.json() : null) as
      (DashboardData & { signedIn: true; payouts: PayoutsOverview }) | null,
  };
}

async function uploadThroughForm(cookie: string, data: Uint8Array = fixture("portrait.png")) {
  const response = await callRoute(
    dashboard.action,
    uploadRequest(data, { cookie, url: "/dashboard" }),
  );
  expect(response.status).toBe(302);
  return response;
}

/** A form post to /dashboard (as the user whose cookie is given). */
function postForm(fields: Record<string, string>, options: RequestOptions = {}) {
  return callRoute(dashboard.action, formRequest("/dashboard", fields, options));
}

/** The dashboard page (a loader call) at `path`. */
function load(path: string, cookie: string) {
  return callRoute(dashboard.loader, makeRequest(path, { cookie }));
}

/** Styles the image with a form post and runs the worker: the stylized image's id. */
async function styledImage(cookie: string, imageId: string, style: string): Promise<string> {
  const pending = (
    await postForm({ intent: "stylize", id: imageId, style }, { cookie })
  ).headers.get("Location")!;
  await studioWorker(testStyleEngine()).drain();
  return new URL(pending, "http://localhost").searchParams.get("pending")!;
}

function imageIdFrom(response: Response): string {
  return new URL(response.headers.get("Location")!, "http://localhost").searchParams.get("image")!;
}

describe("/dashboard without JavaScript", () => {
  it("tells a signed-out visitor they are logged out (401) and has them sign in again", async () => {
    const response = await callRoute(dashboard.loader, makeRequest("/dashboard"));
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ signedIn: false });
    const post = await postForm({ intent: "delete-image", id: "x" });
    expect(post.status).toBe(302);
    expect(post.headers.get("Location")).toBe("/api/login?redirectTo=%2Fdashboard");
  });

  it("starts at step 1 (upload) with the creator's numbers", async () => {
    const { cookie } = await createTestUser({ firstName: "Ada" });
    const { data } = await view("/dashboard", cookie);
    expect(data!.view.step).toBe("upload");
    expect(data!.user.firstName).toBe("Ada");
    expect(data!.stats).toEqual({
      totalImages: 0,
      totalStylized: 0,
      totalListed: 0,
      totalSales: 0,
      totalEarnings: 0,
      totalViews: 0,
    });
    expect(data!.view.refreshUrl).toBeNull();
    // The Payouts card: no payout account yet, nothing earned.
    expect(data!.payouts.account).toEqual({
      provider: "test",
      status: "not_connected",
      payoutsEnabled: false,
      country: null,
      crossBorder: false,
    });
    expect(data!.payouts.balance).toEqual({
      earned: "0",
      owed: "0",
      transferred: "0",
      held: "0",
      reversed: "0",
    });
  });

  it("uploads with a plain multipart form post, then shows the success state with the image held", async () => {
    const { cookie } = await createTestUser();
    const response = await uploadThroughForm(cookie);
    expect(response.headers.get("Location")).toMatch(
      /^\/dashboard\?image=[A-Za-z0-9_-]+&step=upload#pipeline$/,
    );
    expect(await flashOf(response)).toEqual({
      kind: "success",
      title: "Upload Successful",
      description: "Your selfie has been uploaded successfully!",
    });
    const { data } = await view(response.headers.get("Location")!, cookie);
    expect(data!.view.step).toBe("upload");
    expect(data!.view.image?.id).toBe(imageIdFrom(response));
    expect(data!.stats.totalImages).toBe(1);
  });

  it("answers a refused upload with File Too Large, Invalid File Type or Upload Failed", async () => {
    const { cookie } = await createTestUser();
    const tooLarge = await uploadThroughForm(cookie, crypto.randomBytes(11 * 1024 * 1024));
    expect(tooLarge.headers.get("Location")).toBe("/dashboard?step=upload#pipeline");
    expect(await flashOf(tooLarge)).toEqual({
      kind: "error",
      title: "File Too Large",
      description: "Please select a file smaller than 10MB.",
    });
    const notAnImage = await uploadThroughForm(cookie, Buffer.from("just some text"));
    expect(await flashOf(notAnImage)).toEqual({
      kind: "error",
      title: "Invalid File Type",
      description: "Please select a valid image file (JPG or PNG).",
    });
    const noFile = await uploadThroughForm(cookie, new Uint8Array(0));
    expect(await flashOf(noFile)).toMatchObject({ kind: "error", title: "Upload Failed" });
  });

  it("styles with a form post; the page refreshes itself while pending, then moves to optimize", async () => {
    const { cookie } = await createTestUser();
    const imageId = imageIdFrom(await uploadThroughForm(cookie));
    const posted = await postForm({ intent: "stylize", id: imageId, style: "cartoon" }, { cookie });
    expect(posted.status).toBe(302);
    const waitingAt = posted.headers.get("Location")!;
    expect(waitingAt).toMatch(
      new RegExp(`^/dashboard\\?image=${imageId}&step=style&pending=[A-Za-z0-9_-]+#pipeline$`),
    );
    // The page a browser without JavaScript refreshes (it keeps the #pipeline fragment itself).
    const waiting = waitingAt.replace(/#pipeline$/, "");
    const pendingId = new URL(waiting, "http://localhost").searchParams.get("pending")!;

    const { data } = await view(waiting, cookie);
    expect(data!.view.step).toBe("style");
    expect(data!.view.pending).toMatchObject({
      id: pendingId,
      status: "pending",
      style: "cartoon",
    });
    expect(data!.view.refreshUrl).toBe(`${waiting}&poll=1`);
    // A reload or a new visit to the image's style step (no `pending` in the address) still shows the style in progress.
    const { data: revisited } = await view(`/dashboard?image=${imageId}&step=style`, cookie);
    expect(revisited!.view.pending).toMatchObject({
      id: pendingId,
      status: "pending",
      style: "cartoon",
    });

    await studioWorker(testStyleEngine()).drain();
    const done = await load(`${waiting}&poll=3`, cookie);
    expect(done.status).toBe(302);
    expect(done.headers.get("Location")).toBe(
      `/dashboard?styled=${pendingId}&step=optimize#pipeline`,
    );
    expect(await flashOf(done)).toEqual({
      kind: "success",
      title: "AI Style Generated!",
      description: "Your Cartoon transformation is complete.",
    });
    const { data: optimize } = await view(done.headers.get("Location")!, cookie);
    expect(optimize!.view.step).toBe("optimize");
    expect(optimize!.view.styled?.status).toBe("completed");
    expect(optimize!.view.refreshUrl).toBeNull();
    expect(optimize!.view.optimization).toEqual({
      quality: 85,
      format: "webp",
      resolution: "original",
      // The optimized file is the creator's own copy: unmarked unless they ask.
      watermark: false,
      socialOptimized: true,
    });
  });

  it("reports a failed style, and gives up after 30 refreshes with the timeout message", async () => {
    const { cookie } = await createTestUser();
    const imageId = imageIdFrom(await uploadThroughForm(cookie));
    const post = () => postForm({ intent: "stylize", id: imageId, style: "anime" }, { cookie });

    const failing = (await post()).headers.get("Location")!;
    await studioWorker(
      testStyleEngine({
        fail: () => new StyleEngineError("The model could not read this photo.", false),
      }),
    ).drain();
    const failed = await load(failing, cookie);
    expect(failed.headers.get("Location")).toBe(`/dashboard?image=${imageId}&step=style#pipeline`);
    expect(await flashOf(failed)).toEqual({
      kind: "error",
      title: "Generation Failed",
      description: "AI processing failed",
    });

    const slow = (await post()).headers.get("Location")!.replace(/#pipeline$/, "");
    const stillRefreshing = await view(`${slow}&poll=29`, cookie);
    expect(stillRefreshing.data!.view.refreshUrl).toBe(`${slow}&poll=30`);
    const timedOut = await load(`${slow}&poll=30`, cookie);
    expect(timedOut.status).toBe(302);
    expect(await flashOf(timedOut)).toEqual({
      kind: "error",
      title: "Generation Failed",
      description: "AI processing timed out",
    });
  });

  it("refuses an unknown style with 'Generation Failed' and the reason", async () => {
    const { cookie } = await createTestUser();
    const imageId = imageIdFrom(await uploadThroughForm(cookie));
    const response = await postForm(
      { intent: "stylize", id: imageId, style: "watercolor" },
      { cookie },
    );
    expect(await flashOf(response)).toEqual({
      kind: "error",
      title: "Generation Failed",
      description: "Choose one of the styles: professional, cartoon, anime, fantasy",
    });
  });

  it("optimizes with a form post (checkboxes as on/absent) and moves to market", async () => {
    const { cookie } = await createTestUser();
    const imageId = imageIdFrom(await uploadThroughForm(cookie));
    const styledId = await styledImage(cookie, imageId, "fantasy");

    const response = await postForm(
      {
        intent: "optimize",
        imageId: styledId,
        quality: "90",
        format: "png",
        resolution: "800x800",
        watermark: "on",
      },
      { cookie },
    );
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe(
      `/dashboard?styled=${styledId}&step=market#pipeline`,
    );
    expect(await flashOf(response)).toEqual({
      kind: "success",
      title: "Image optimized successfully",
    });
    const row = await rowWhere("stylized_images", "*", "id", styledId);
    expect(row).toMatchObject({
      optimized_format: "png",
      optimized_quality: 90,
      watermark: 1,
      social_optimized: 0,
    });

    const { data } = await view(response.headers.get("Location")!, cookie);
    expect(data!.view.step).toBe("market");
    expect(data!.view.styled?.optimizedUrl).toMatch(/^\/media\/optimized\//);
    // The panel starts from the saved settings, or from a preset when one was picked.
    const again = await view(`/dashboard?styled=${styledId}&step=optimize`, cookie);
    expect(again.data!.view.optimization).toEqual({
      quality: 90,
      format: "png",
      resolution: "800x800",
      watermark: true,
      socialOptimized: false,
    });
    const preset = await view(`/dashboard?styled=${styledId}&step=optimize&preset=social`, cookie);
    expect(preset.data!.view.optimization).toMatchObject({
      quality: 80,
      format: "jpg",
      resolution: "1080x1080",
    });

    const bad = await postForm(
      { intent: "optimize", imageId: styledId, quality: "73" },
      { cookie },
    );
    expect(await flashOf(bad)).toMatchObject({ kind: "error", title: "Optimization failed" });
  });

  it("deletes a stylized image or an upload with a form post", async () => {
    const { cookie } = await createTestUser();
    const other = await createTestUser();
    const imageId = imageIdFrom(await uploadThroughForm(cookie));
    const styledId = await styledImage(cookie, imageId, "cartoon");

    const foreign = await postForm(
      { intent: "delete-stylized", id: styledId },
      { cookie: other.cookie },
    );
    expect(await flashOf(foreign)).toEqual({
      kind: "error",
      title: "Delete Failed",
      description: "Could not delete the image",
    });

    const deleted = await postForm(
      { intent: "delete-stylized", id: styledId, back: `/dashboard?image=${imageId}&step=style` },
      { cookie },
    );
    expect(deleted.headers.get("Location")).toBe(`/dashboard?image=${imageId}&step=style#pipeline`);
    expect(await flashOf(deleted)).toEqual({ kind: "success", title: "Image Deleted" });

    // Deleting the stylized image the page holds goes back to styling its original.
    const heldId = await styledImage(cookie, imageId, "anime");
    const held = await postForm(
      {
        intent: "delete-stylized",
        id: heldId,
        back: `/dashboard?image=${imageId}&styled=${heldId}&step=market`,
      },
      { cookie },
    );
    expect(held.headers.get("Location")).toBe(`/dashboard?image=${imageId}&step=style#pipeline`);

    const offsite = await postForm(
      { intent: "delete-image", id: imageId, back: "https://evil.example/" },
      { cookie },
    );
    expect(offsite.headers.get("Location")).toBe("/dashboard#pipeline");
    expect(await rowsWhere("images", "id", imageId)).toEqual([]);
  });

  it("opens the delete confirmation from ?confirmDelete= (the page stays as it was) and deletes with the panel's form", async () => {
    const { cookie } = await createTestUser();
    const imageId = imageIdFrom(await uploadThroughForm(cookie));
    const styledId = await styledImage(cookie, imageId, "cartoon");

    // The confirmation is rendered by the grid from the URL (see server-html.test.tsx); the loader answers the same page.
    const confirming = await view(
      `/dashboard?image=${imageId}&step=style&confirmDelete=${styledId}`,
      cookie,
    );
    expect(confirming.response.status).toBe(200);
    expect(confirming.data!.view.step).toBe("style");
    expect(confirming.data!.stylized.map((item) => item.id)).toContain(styledId);

    // The panel's form: intent, id and the page to return to (without ?confirmDelete=).
    const deleted = await postForm(
      { intent: "delete-stylized", id: styledId, back: `/dashboard?image=${imageId}&step=style` },
      { cookie },
    );
    expect(deleted.headers.get("Location")).toBe(`/dashboard?image=${imageId}&step=style#pipeline`);
    expect(await flashOf(deleted)).toEqual({ kind: "success", title: "Image Deleted" });
    expect((await view(`/dashboard?confirmDelete=${styledId}`, cookie)).data!.stylized).toEqual([]);
  });

  it("refuses a form post from another site", async () => {
    const { cookie } = await createTestUser();
    const response = await postForm(
      { intent: "delete-image", id: "x" },
      { cookie, origin: "cross" },
    );
    expect(response.status).toBe(403);
  });

  it("falls back to the furthest step the held images allow", async () => {
    const { cookie } = await createTestUser();
    const imageId = imageIdFrom(await uploadThroughForm(cookie));
    expect((await view(`/dashboard?step=optimize`, cookie)).data!.view.step).toBe("upload");
    expect((await view(`/dashboard?image=${imageId}&step=market`, cookie)).data!.view.step).toBe(
      "style",
    );
    expect((await view(`/dashboard?image=${imageId}`, cookie)).data!.view.step).toBe("style");
    expect((await view(`/dashboard?step=nonsense&poll=abc`, cookie)).data!.view.step).toBe(
      "upload",
    );
    const other = await createTestUser();
    expect((await view(`/dashboard?image=${imageId}`, other.cookie)).data!.view.image).toBeNull();
  });
});

describe("/ (Home)", () => {
  it("is the dashboard when signed in and the landing page otherwise", async () => {
    const { cookie } = await createTestUser();
    const signedIn = await callRoute(home.loader, makeRequest("/", { cookie }));
    expect((await signedIn.json()).view.step).toBe("upload");
    const signedOut = await callRoute(home.loader, makeRequest("/"));
    expect(signedOut.status).toBe(200);
    expect(await signedOut.json()).toMatchObject({ signedIn: false });
  });
});

describe("/dashboard's upload with JavaScript (the upload widget's fetcher)", () => {
  /** The widget's post: the same multipart form, to the dashboard's action marked `_js=1`. */
  function uploadThroughFetcher(cookie: string | undefined, data: Uint8Array) {
    return callRoute(dashboard.action, uploadRequest(data, { cookie, url: UPLOAD_FETCHER_ACTION }));
  }

  it("answers the images stored as data, with no redirect and no flash message", async () => {
    const { cookie } = await createTestUser();
    const response = await uploadThroughFetcher(cookie, fixture("portrait.png"));
    expect(response.status).toBe(200);
    const answer = (await response.json()) as UploadAnswer;
    expect(answer).toMatchObject({ ok: true, refused: [] });
    const images = answer.ok ? answer.images : [];
    expect(images).toHaveLength(1);
    expect(await flashOf(response)).toBeNull();
    const { data } = await view("/dashboard", cookie);
    expect(data!.images.map((image) => image.id)).toEqual([images[0]!.id]);
  });

  it("answers a refused upload with its status and the server's sentence", async () => {
    const { cookie } = await createTestUser();
    const tooLarge = await uploadThroughFetcher(cookie, crypto.randomBytes(11 * 1024 * 1024));
    expect(tooLarge.status).toBe(413);
    expect(await tooLarge.json()).toEqual({
      ok: false,
      status: 413,
      message: "Please select a file smaller than 10MB.",
    });
    const notAnImage = await uploadThroughFetcher(cookie, Buffer.from("just some text"));
    expect(notAnImage.status).toBe(415);
    expect(await notAnImage.json()).toEqual({
      ok: false,
      status: 415,
      message: "Please select a valid image file (JPG or PNG).",
    });
    expect(await flashOf(notAnImage)).toBeNull();
  });

  it("tells a signed-out visitor they are logged out (401); the form without JavaScript is sent to sign in", async () => {
    const response = await uploadThroughFetcher(undefined, fixture("portrait.png"));
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({
      ok: false,
      status: 401,
      message: "You are logged out. Logging in again...",
    });
    const form = await callRoute(
      dashboard.action,
      uploadRequest(fixture("portrait.png"), { url: "/dashboard" }),
    );
    expect(form.status).toBe(302);
    expect(form.headers.get("Location")).toBe("/api/login?redirectTo=%2Fdashboard");
  });
});

import http from "node:http";
import { API_ROUTES } from "~/routes/api+/api-route-table.server";
import os from "node:os";
import type { AddressInfo } from "node:net";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { PDFDocument } from "pdf-lib";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getConfig } from "~/infra/config.server";
import { createHttpApp } from "~/web/http-app.server";
import { takeFlash } from "~/web/flash.server";
import { loader as healthzLoader } from "~/routes/_resources+/healthz";
import * as releasePage from "~/routes/_studio+/studio.release";
import { apiRoute } from "#tests/setup/api-routes";
import { createTestUser } from "#tests/setup/accounts";
import { createStylizedImage } from "#tests/setup/market";
import { RELEASE_DETAILS, RELEASE_FORM_DETAILS } from "#tests/setup/model-releases";
import { callRoute, cookiesFrom, formRequest, makeRequest } from "#tests/setup/requests";
import {
  pdfWithManyObjects,
  pdfWithObjectStreamBomb,
  pngDataUrl,
  pngDeclaring,
} from "#tests/setup/hostile-files";
import { testTies } from "#tests/setup/ties";
import { rowsWhere } from "#tests/setup/rows-where";

/**
 * A hostile release file (a drawn signature that is a PNG bomb, an uploaded
 * PDF built to make its parser work for seconds) gets a 4xx within 2 s over
 * real HTTP, while /healthz keeps answering within 200 ms and the event loop is
 * never held for 200 ms. Before the fix pdf-lib decoded both on the request
 * thread: the 8000 × 8000 PNG (62 KB) held it about 7 s, the PDFs 2-5 s. On a
 * quiet machine the refusals take 14-210 ms and /healthz 14-25 ms (the figures
 * are in each assertion's message).
 */

const RELEASE_PATH = /^\/api\/token-stylized-images\/([^/]+)\/model-release$/;
const releaseApi = apiRoute("/api/token-stylized-images/{id}/model-release");

let server: http.Server;
let base = "";
// Made before anything is measured (making them takes a moment and some memory).
const hostile = {
  pngBomb: pngDataUrl(pngDeclaring(8000, 8000)),
  objectStreamBomb: pdfWithObjectStreamBomb(64),
  manyObjects: pdfWithManyObjects(50_000),
};

beforeAll(async () => {
  // The real HTTP front (body limits, request ids, the error handler) with the
  // two routes this file needs: /healthz and the release endpoint.
  const app = createHttpApp({
    ties: testTies,
    apiRoutes: API_ROUTES,
    config: getConfig(),
    publicDir: os.tmpdir(),
    handle: async (request, context) => {
      const { pathname } = new URL(request.url);
      if (pathname === "/healthz") return healthzLoader();
      const release = RELEASE_PATH.exec(pathname);
      if (release) return callRoute(releaseApi.action, request, { id: release[1] }, context);
      return Response.json({ message: "Not found" }, { status: 404 });
    },
  });
  server = http.createServer(app);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  // A server that has served before: an ordinary signature and upload first, as
  // any running server has (the first request of a process loads and compiles its code).
  const { user, token } = await createTestUser();
  const image = await createStylizedImage(user.id);
  const drawn = await sharp({
    create: { width: 480, height: 140, channels: 4, background: "#00000000" },
  })
    .png()
    .toBuffer();
  expect((await signWith(token, image.id, pngDataUrl(drawn))).status).toBe(201);
  const pdf = await PDFDocument.create();
  pdf.addPage().drawText("Signed");
  expect((await uploadPdf(token, image.id, Buffer.from(await pdf.save()))).status).toBe(201);
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

interface Measured {
  response: Response;
  body: { message?: string };
  elapsedMs: number;
  healthzMs: number[];
  maxLoopDelayMs: number;
}

/**
 * Sends `request` while /healthz is asked every 50 ms (from this process, so
 * a held event loop shows in both) and the event loop's delay is sampled.
 */
async function whileProbingHealth(request: () => Promise<Response>): Promise<Measured> {
  await (await fetch(`${base}/healthz`)).arrayBuffer();
  const healthzMs: number[] = [];
  let sending = true;
  const probing = (async () => {
    while (sending) {
      const started = performance.now();
      const health = await fetch(`${base}/healthz`);
      await health.arrayBuffer();
      healthzMs.push(performance.now() - started);
      expect(health.status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  })();
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  const started = performance.now();
  const response = await request();
  const body = (await response.json()) as { message?: string };
  const elapsedMs = performance.now() - started;
  loop.disable();
  sending = false;
  await probing;
  return { response, body, elapsedMs, healthzMs, maxLoopDelayMs: loop.max / 1e6 };
}

function expectRefusedInTime(measured: Measured, status: number, message: RegExp) {
  const figures = JSON.stringify({
    elapsedMs: Math.round(measured.elapsedMs),
    slowestHealthzMs: Math.round(Math.max(...measured.healthzMs)),
    probes: measured.healthzMs.length,
    maxLoopDelayMs: Math.round(measured.maxLoopDelayMs),
  });
  expect(measured.response.status, figures).toBe(status);
  expect(measured.response.headers.get("Content-Type")).toMatch(/application\/json/);
  expect(measured.body.message, figures).toMatch(message);
  expect(measured.elapsedMs, figures).toBeLessThan(2_000);
  expect(measured.healthzMs.length, figures).toBeGreaterThan(0);
  expect(Math.max(...measured.healthzMs), figures).toBeLessThan(200);
  expect(measured.maxLoopDelayMs, figures).toBeLessThan(200);
}

async function noReleaseOf(userId: string) {
  expect(await rowsWhere("model_releases", "user_id", userId)).toEqual([]);
}

const today = () => new Date().toISOString().slice(0, 10);

function signWith(token: string, imageId: string, drawnSignature: string) {
  return fetch(`${base}/api/token-stylized-images/${imageId}/model-release`, {
    method: "POST",
    headers: {
      Authorization: `Bearer ${token}`,
      "Content-Type": "application/json",
    },
    body: JSON.stringify({
      ...RELEASE_DETAILS,
      modelName: "Ada Lovelace",
      signedOn: today(),
      signature: "Ada Lovelace",
      confirm: true,
      drawnSignature,
    }),
  });
}

function uploadPdf(token: string, imageId: string, pdf: Buffer) {
  const form = new FormData();
  form.set("release", new Blob([new Uint8Array(pdf)], { type: "application/pdf" }), "release.pdf");
  return fetch(`${base}/api/token-stylized-images/${imageId}/model-release`, {
    method: "PUT",
    headers: { Authorization: `Bearer ${token}` },
    body: form,
  });
}

describe("a hostile drawn signature", () => {
  it("a 62 KB PNG declaring 8000 × 8000 pixels is refused (400) within 2 s; /healthz keeps answering within 200 ms", async () => {
    const { user, token } = await createTestUser();
    const image = await createStylizedImage(user.id);
    const bomb = hostile.pngBomb;
    expect(bomb.length).toBeLessThan(100_000);

    const measured = await whileProbingHealth(() => signWith(token, image.id, bomb));
    expectRefusedInTime(measured, 400, /drawn signature is too large/);
    await noReleaseOf(user.id);
  });

  it("the release page's form shows the refusal (the form's error) and keeps nothing", async () => {
    const { user, cookie } = await createTestUser();
    const image = await createStylizedImage(user.id);
    const refused = await callRoute(
      releasePage.action,
      formRequest(
        `/studio/release?image=${image.id}`,
        {
          intent: "sign",
          id: image.id,
          ...RELEASE_FORM_DETAILS,
          modelName: "Ada Lovelace",
          signedOn: today(),
          signature: "Ada Lovelace",
          confirm: "on",
          drawnSignature: hostile.pngBomb,
        },
        { cookie },
      ),
    );
    expect(refused.status).toBe(400);
    const reply = (await refused.json()) as { error?: Record<string, string[] | null> };
    expect(reply.error?.[""]).toEqual([expect.stringMatching(/drawn signature is too large/)]);
    await noReleaseOf(user.id);
  });
});

describe("a hostile uploaded release", () => {
  it("a PDF whose object stream inflates to 64 MB (65 KB) is refused (415) within 2 s; /healthz keeps answering within 200 ms", async () => {
    const { user, token } = await createTestUser();
    const image = await createStylizedImage(user.id);
    const bomb = hostile.objectStreamBomb;
    expect(bomb.length).toBeLessThan(100_000);

    const measured = await whileProbingHealth(() => uploadPdf(token, image.id, bomb));
    expectRefusedInTime(measured, 415, /could not be read as a PDF/);
    await noReleaseOf(user.id);
  });

  it("a PDF of 50,000 objects (2.3 MB) is refused (415) within 2 s; /healthz keeps answering within 200 ms", async () => {
    const { user, token } = await createTestUser();
    const image = await createStylizedImage(user.id);
    const heavy = hostile.manyObjects;

    const measured = await whileProbingHealth(() => uploadPdf(token, image.id, heavy));
    expectRefusedInTime(measured, 415, /could not be read as a PDF/);
    await noReleaseOf(user.id);
  });

  it("the release page's upload form redirects back with the refusal as its flash, keeping nothing", async () => {
    const { user, cookie } = await createTestUser();
    const image = await createStylizedImage(user.id);
    const form = new FormData();
    form.set(
      "release",
      new Blob([new Uint8Array(hostile.objectStreamBomb)], { type: "application/pdf" }),
      "release.pdf",
    );
    const refused = await callRoute(
      releasePage.action,
      makeRequest(`/studio/release?image=${image.id}`, { method: "POST", body: form, cookie }),
    );
    expect(refused.status).toBe(302);
    const { flash } = await takeFlash(
      makeRequest(`/studio/release?image=${image.id}`, { cookie: cookiesFrom(refused, cookie) }),
    );
    expect(flash).toMatchObject({
      kind: "error",
      title: "Release not saved",
      description: expect.stringMatching(/could not be read as a PDF/),
    });
    await noReleaseOf(user.id);
  });
});

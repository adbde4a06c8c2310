import { PDFDocument } from "pdf-lib";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { getDb } from "~/infra/db.server";
import { getFileStore } from "~/infra/file-store.server";
import * as releasePage from "~/routes/_studio+/studio.release";
import { creatorPublishingExport } from "~/features/publishing/creator-export.server";
import { erasePublishingDataOf } from "~/features/publishing/creator-erasure.server";
import { removePublishingArtifacts } from "~/features/publishing/publications/publications.server";
import { callRoute, formRequest, makeRequest } from "#tests/setup/requests";
import { createTestUser } from "#tests/setup/accounts";
import { createStylizedImage } from "#tests/setup/market";
import { apiRoute } from "#tests/setup/api-routes";
import { pdfText, RELEASE_DETAILS, RELEASE_FORM_DETAILS } from "#tests/setup/model-releases";
import { findPlatform } from "~/features/publishing/platforms";
import { stockSubmissionBlocker } from "~/features/publishing/publications/stock-readiness.server";
import { rowWhere, rowsWhere, selectWhere } from "#tests/setup/rows-where";
import { updateWhere } from "#tests/setup/update-where";

const releaseApi = apiRoute("/api/token-stylized-images/{id}/model-release");

/**
 * Model releases: signed in the app (a PDF made here, with the image it
 * covers) or uploaded (a PDF), one per stylized image, downloadable by its
 * owner only, refused with a JSON sentence for bad input, in the data export
 * and gone with the image and with the account.
 */

const path = (id: string) => `/api/token-stylized-images/${id}/model-release`;

function sign(token: string, id: string, json: Record<string, unknown>) {
  return callRoute(releaseApi.action, makeRequest(path(id), { token, json }), { id });
}

function upload(token: string, id: string, file: Blob, field = "release") {
  const form = new FormData();
  form.set(field, file, "release.pdf");
  const request = new Request(new URL(path(id), "http://localhost:3000"), {
    method: "PUT",
    headers: { Authorization: `Bearer ${token}` },
    body: form,
  });
  return callRoute(releaseApi.action, request, { id });
}

const today = () => new Date().toISOString().slice(0, 10);

async function aPdf(text: string): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  pdf.addPage().drawText(text);
  return Buffer.from(await pdf.save());
}

describe("a model release signed in the app", () => {
  it("is kept as a PDF that names the model and the image, and only its owner can download it", async () => {
    const { user, token } = await createTestUser({ firstName: "Zoë", lastName: "Example" });
    const stylized = await createStylizedImage(user.id);
    const drawn = await sharp({
      create: { width: 120, height: 40, channels: 4, background: "#00000000" },
    })
      .png()
      .toBuffer();

    const response = await sign(token, stylized.id, {
      ...RELEASE_DETAILS,
      shootLocation: "Manchester, United Kingdom",
      modelName: "Zoë Example",
      signedOn: today(),
      signature: "zoë  example",
      confirm: true,
      drawnSignature: `data:image/png;base64,${drawn.toString("base64")}`,
    });
    expect(response.status).toBe(201);
    const body = (await response.json()) as {
      kind: string;
      modelName: string;
      drawnSignature: boolean;
      downloadUrl: string;
    };
    expect(body).toMatchObject({
      kind: "signed",
      modelName: "Zoë Example",
      drawnSignature: true,
      downloadUrl: path(stylized.id),
    });

    const download = await callRoute(releaseApi.loader, makeRequest(path(stylized.id), { token }), {
      id: stylized.id,
    });
    expect(download.status).toBe(200);
    expect(download.headers.get("Content-Type")).toBe("application/pdf");
    const pdfBytes = Buffer.from(await download.arrayBuffer());
    expect(pdfBytes.subarray(0, 5).toString("latin1")).toBe("%PDF-");
    const pdf = await PDFDocument.load(pdfBytes);
    expect(pdf.getTitle()).toBe("Model release: Zoë Example");
    expect(pdf.getPageCount()).toBe(1);
    // The image it covers is printed on it, with the drawn signature (a PNG with its alpha mask): three images.
    expect(pdfBytes.toString("latin1").match(/\/Subtype \/Image/g)?.length).toBe(3);
    // What Adobe's release form asks, read back from the page: the model's details, the names in
    // capitals, the shoot, and a self-portrait signed as both model and photographer.
    const lines = await pdfText(pdfBytes);
    expect(lines).toEqual(
      expect.arrayContaining([
        "THE MODEL",
        "Name (printed): ZOË EXAMPLE",
        "Date of birth: 1990-05-01",
        "Address: 12 Example Street, Manchester M1 1AA, United Kingdom",
        "Email: model@example.com",
        "Phone: +44 161 496 0000",
        "THE PHOTOGRAPHER",
        "Name (printed): ZOË EXAMPLE (the model: a self-portrait)",
        "THE SHOOT",
        "Date the photo was taken: 2024-05-01",
        "Place: Manchester, United Kingdom",
        "Signature of the model:",
        "Model (printed): ZOË EXAMPLE",
        "Signature of the photographer:",
        "Photographer (printed): ZOË EXAMPLE",
      ]),
    );
    // The typed signature is set twice (model and photographer), each with its date.
    expect(lines.filter((line) => line === "zoë  example")).toHaveLength(2);
    expect(lines.filter((line) => line === `Date signed: ${today()}`)).toHaveLength(2);
    expect(body).toMatchObject({ awaitingPhotographer: false });
    // The model's contact details and birth date are on the PDF only, not in the row.
    const row = await rowWhere("model_releases", "*", "stylized_image_id", stylized.id);
    for (const detail of [
      "1990-05-01",
      "Example Street",
      "model@example.com",
      "161 496",
      "Manchester",
    ])
      expect(JSON.stringify(row)).not.toContain(detail);

    const stranger = await createTestUser();
    const refused = await callRoute(
      releaseApi.loader,
      makeRequest(path(stylized.id), { token: stranger.token }),
      { id: stylized.id },
    );
    expect(refused.status).toBe(404);
    const anonymous = await callRoute(releaseApi.loader, makeRequest(path(stylized.id)), {
      id: stylized.id,
    });
    expect(anonymous.status).toBe(401);
  });

  it("refuses bad input with a JSON sentence and keeps nothing", async () => {
    const { user, token } = await createTestUser();
    const stylized = await createStylizedImage(user.id);
    const good = {
      ...RELEASE_DETAILS,
      modelName: "Ada Lovelace",
      signedOn: today(),
      signature: "Ada Lovelace",
      confirm: true,
    };
    const cases: Array<[Record<string, unknown>, number, RegExp]> = [
      [{ ...good, dateOfBirth: undefined }, 400, /enter your date of birth/],
      [{ ...good, dateOfBirth: "1990-02-30" }, 400, /real date/],
      // One day short of 18 on the shoot date: a minor, refused (no guardian block here).
      [{ ...good, shootDate: "2020-06-01", dateOfBirth: "2002-06-02" }, 400, /18 or older/],
      [{ ...good, dateOfBirth: "2024-05-02" }, 400, /before the date the photo was taken/],
      [{ ...good, address: " " }, 400, /postal address/],
      [{ ...good, email: "not an address" }, 400, /valid email address/],
      [{ ...good, phone: "call me" }, 400, /phone number/],
      [{ ...good, phone: "+1 2" }, 400, /phone number/],
      [{ ...good, shootDate: undefined }, 400, /date the photo was taken/],
      [{ ...good, shootDate: "2999-01-01" }, 400, /photo was taken cannot be in the future/],
      [{ ...good, selfTaken: false }, 400, /photographer's name, or tick/],
      [{ ...good, modelName: "" }, 400, /name of the person shown/],
      [{ ...good, signature: "Someone Else" }, 400, /type your name exactly as above/],
      [{ ...good, confirm: false }, 400, /confirm that you are the person shown/],
      [{ ...good, signedOn: "31/12/2026" }, 400, /YYYY-MM-DD/],
      [{ ...good, signedOn: "2999-01-01" }, 400, /cannot be in the future/],
      [
        { ...good, drawnSignature: "data:text/html;base64,PGI+" },
        415,
        /drawn signature must be a PNG/,
      ],
    ];
    for (const [json, status, message] of cases) {
      const response = await sign(token, stylized.id, json);
      expect(response.status, JSON.stringify(json)).toBe(status);
      expect(response.headers.get("Content-Type")).toMatch(/application\/json/);
      expect(JSON.stringify(await response.json())).toMatch(message);
    }
    const notMine = await sign((await createTestUser()).token, stylized.id, good);
    expect(notMine.status).toBe(404);
    expect(await rowsWhere("model_releases", "user_id", user.id)).toEqual([]);
  });

  it("works as a plain form without JavaScript: the page shows the form, signing redirects back with the PDF's link", async () => {
    const { user, cookie } = await createTestUser({ firstName: "Grace", lastName: "Hopper" });
    const stylized = await createStylizedImage(user.id);
    const page = await callRoute(
      releasePage.loader,
      makeRequest(`/studio/release?image=${stylized.id}`, { cookie }),
    );
    expect(page.status).toBe(200);
    const state = (await page.json()) as { state: { release: unknown; suggestedName: string } };
    expect(state.state).toMatchObject({ release: null, suggestedName: "Grace Hopper" });

    /** Grace's release signed on the page, with the confirmation box ticked or not. */
    const sign = (confirm: Record<string, string>) =>
      callRoute(
        releasePage.action,
        formRequest(
          `/studio/release?image=${stylized.id}`,
          {
            intent: "sign",
            id: stylized.id,
            ...RELEASE_FORM_DETAILS,
            modelName: "Grace Hopper",
            signedOn: today(),
            signature: "Grace Hopper",
            ...confirm,
          },
          { cookie },
        ),
      );
    const refused = await sign({});
    expect(refused.status).toBe(400);
    const sentBack = (await refused.json()) as { initialValue: Record<string, unknown> };
    expect(JSON.stringify(sentBack)).toContain("confirm that you are the person shown");
    // The form comes back with what was typed, so nothing is typed twice.
    expect(sentBack.initialValue).toMatchObject({
      address: RELEASE_DETAILS.address,
      dateOfBirth: RELEASE_DETAILS.dateOfBirth,
      phone: RELEASE_DETAILS.phone,
      selfTaken: "on",
    });

    const signed = await sign({ confirm: "on" });
    expect(signed.status).toBe(302);
    expect(signed.headers.get("Location")).toBe(`/studio/release?image=${stylized.id}`);
    const after = (await (
      await callRoute(
        releasePage.loader,
        makeRequest(`/studio/release?image=${stylized.id}`, { cookie }),
      )
    ).json()) as {
      state: { release: { downloadUrl: string } | null };
    };
    expect(after.state.release?.downloadUrl).toBe(path(stylized.id));
  });
});

describe("a model release naming another photographer", () => {
  it("prints their name in capitals with an empty line for their signature, and Adobe Stock waits for the signed copy", async () => {
    const { user, token } = await createTestUser();
    const stylized = await createStylizedImage(user.id);
    await updateWhere(
      "stylized_images",
      { native_width: 2000, native_height: 2000 },
      "id",
      stylized.id,
    );
    const adobe = findPlatform("adobestock")!;
    const response = await sign(token, stylized.id, {
      ...RELEASE_DETAILS,
      selfTaken: false,
      photographerName: "Grace Hopper",
      modelName: "Ada Lovelace",
      signedOn: today(),
      signature: "Ada Lovelace",
      confirm: true,
    });
    expect(response.status).toBe(201);
    expect(await response.json()).toMatchObject({ kind: "signed", awaitingPhotographer: true });

    const download = await callRoute(releaseApi.loader, makeRequest(path(stylized.id), { token }), {
      id: stylized.id,
    });
    const lines = await pdfText(Buffer.from(await download.arrayBuffer()));
    expect(lines).toEqual(
      expect.arrayContaining([
        "Name (printed): GRACE HOPPER",
        "Signature of the photographer:",
        "Photographer (printed): GRACE HOPPER",
        "Date signed: ____________",
        "Model (printed): ADA LOVELACE",
      ]),
    );
    // The model's signature only: the photographer's line is left for them.
    expect(lines.filter((line) => line === "Ada Lovelace")).toHaveLength(1);
    expect(lines.join(" ")).toContain("photographed by GRACE HOPPER");

    const image = await rowWhere("stylized_images", "*", "id", stylized.id);
    expect(await stockSubmissionBlocker(getDb(), user.id, image, adobe)).toContain(
      "needs the photographer's signature on this image's model release",
    );
    // The copy the photographer signed, uploaded, replaces it: nothing blocks the image then.
    const signedCopy = await upload(
      token,
      stylized.id,
      new Blob([new Uint8Array(await aPdf("Signed by both"))], { type: "application/pdf" }),
    );
    expect(signedCopy.status).toBe(201);
    expect(await stockSubmissionBlocker(getDb(), user.id, image, adobe)).toBeNull();
  });
});

describe("an uploaded model release", () => {
  it("keeps a PDF, replacing the release before and its file; refuses anything that is not a PDF", async () => {
    const { user, token } = await createTestUser();
    const stylized = await createStylizedImage(user.id);
    const store = getFileStore();
    const first = await sign(token, stylized.id, {
      ...RELEASE_DETAILS,
      modelName: "Ada Lovelace",
      signedOn: today(),
      signature: "Ada Lovelace",
      confirm: true,
    });
    expect(first.status).toBe(201);
    const firstKey = (
      await rowWhere("model_releases", "file_key", "stylized_image_id", stylized.id)
    ).file_key;

    const notPdf = await upload(
      token,
      stylized.id,
      new Blob(["<html>not a pdf</html>"], { type: "application/pdf" }),
    );
    expect(notPdf.status).toBe(415);
    expect(((await notPdf.json()) as { message: string }).message).toContain("must be a PDF");
    const wrongField = await upload(
      token,
      stylized.id,
      new Blob([new Uint8Array(await aPdf("x"))]),
      "image",
    );
    expect(wrongField.status).toBe(400);
    expect(await store.exists(firstKey)).toBe(true);

    const signedElsewhere = await aPdf("Signed release of the person shown");
    const uploaded = await upload(
      token,
      stylized.id,
      new Blob([new Uint8Array(signedElsewhere)], { type: "application/pdf" }),
    );
    expect(uploaded.status).toBe(201);
    expect(await uploaded.json()).toMatchObject({
      kind: "uploaded",
      modelName: null,
      bytes: signedElsewhere.length,
    });
    expect(await store.exists(firstKey)).toBe(false);
    const rows = await rowsWhere("model_releases", "stylized_image_id", stylized.id);
    expect(rows).toHaveLength(1);
    expect((await store.read(rows[0].file_key)).equals(signedElsewhere)).toBe(true);
  });
});

describe("the release page's upload form (multipart, without JavaScript)", () => {
  it("keeps a PDF and redirects back with a flash; refuses a file that is not a PDF the same way, keeping nothing", async () => {
    const { user, cookie } = await createTestUser();
    const stylized = await createStylizedImage(user.id);
    const post = (blob: Blob) => {
      const form = new FormData();
      form.set("release", blob, "release.pdf");
      return callRoute(
        releasePage.action,
        new Request(new URL(`/studio/release?image=${stylized.id}`, "http://localhost:3000"), {
          method: "POST",
          headers: { Cookie: cookie, Origin: "http://localhost:3000" },
          body: form,
        }),
      );
    };
    const refused = await post(new Blob(["GIF89a not a pdf"], { type: "application/pdf" }));
    expect(refused.status).toBe(302);
    expect(refused.headers.get("Location")).toBe(`/studio/release?image=${stylized.id}`);
    expect(await rowsWhere("model_releases", "user_id", user.id)).toEqual([]);

    const kept = await post(
      new Blob([new Uint8Array(await aPdf("Signed"))], { type: "application/pdf" }),
    );
    expect(kept.status).toBe(302);
    const row = await rowWhere("model_releases", "*", "user_id", user.id);
    expect(row).toMatchObject({ kind: "uploaded", stylized_image_id: stylized.id });
  });
});

describe("a model release and the creator's data", () => {
  it("is in the data export, goes with its image, and goes with the account", async () => {
    const { user, token } = await createTestUser();
    const db = getDb();
    const store = getFileStore();
    const kept = await createStylizedImage(user.id);
    const deleted = await createStylizedImage(user.id);
    for (const image of [kept, deleted]) {
      expect(
        (
          await sign(token, image.id, {
            ...RELEASE_DETAILS,
            modelName: "Ada Lovelace",
            signedOn: today(),
            signature: "Ada Lovelace",
            confirm: true,
          })
        ).status,
      ).toBe(201);
    }
    const keyOf = async (id: string) =>
      (await rowWhere("model_releases", "file_key", "stylized_image_id", id)).file_key;
    const [keptKey, deletedKey] = [await keyOf(kept.id), await keyOf(deleted.id)];

    const exported = await creatorPublishingExport(db, user.id);
    expect(exported.files).toEqual(
      expect.arrayContaining([{ key: keptKey, name: `releases/${kept.id}.pdf` }]),
    );
    expect(exported.modelReleases.map((release) => release.stylizedImageId).sort()).toEqual(
      [kept.id, deleted.id].sort(),
    );

    // The studio's delete: the PDF goes first, the row with the image.
    await removePublishingArtifacts(db, store, deleted.id);
    await db.deleteFrom("stylized_images").where("id", "=", deleted.id).execute();
    expect(await store.exists(deletedKey)).toBe(false);
    expect(await selectWhere("model_releases", "id", "stylized_image_id", deleted.id)).toEqual([]);

    await erasePublishingDataOf(db, store, user.id);
    expect(await store.exists(keptKey)).toBe(false);
    expect(await selectWhere("model_releases", "id", "user_id", user.id)).toEqual([]);
  });
});

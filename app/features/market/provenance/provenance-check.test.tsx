import sharp from "sharp";
import { afterAll, describe, expect, it } from "vitest";
import { getFileStore } from "~/infra/file-store.server";
import { DIGITAL_SOURCE_TYPES } from "~/engines/styling/ai-disclosure.server";
import { endCheckWorker } from "~/engines/provenance/credentials-check.server";
import { SELF_MADE_ORGANIZATION } from "~/engines/provenance/signing-identity.server";
import { action as pageAction } from "~/routes/_market+/provenance";
import {
  BEYOND_LIMITS,
  DAMAGED_FILE,
  NOT_AN_IMAGE,
  PROVENANCE_UPLOAD_MESSAGES,
} from "~/features/market/provenance/procedures.server";
import { ProvenanceCheck } from "~/features/market/provenance/components/provenance-check";
import { callRoute, makeRequest } from "#tests/setup/requests";
import { createTestUser } from "#tests/setup/accounts";
import { createStylizedImage } from "#tests/setup/market";
import { apiRoute } from "#tests/setup/api-routes";
import { serverHtml } from "#tests/setup/server-html";
import { deeplyNestedJumbf, jpegWithJumbf } from "#tests/setup/hostile-files";

/**
 * The public check, POST /api/provenance/check and the /provenance page: a
 * delivered file reads as valid, signed by the server's certificate and made
 * as its XMP says; anything else gets its answer or a sentence, never a 500,
 * and nothing is kept.
 */

const check = apiRoute("/api/provenance/check");

afterAll(() => endCheckWorker());

function fileForm(bytes: Uint8Array, name = "image.jpg", type = "image/jpeg", field = "file") {
  const form = new FormData();
  form.append(field, new Blob([new Uint8Array(bytes)], { type }), name);
  return form;
}

function checkFile(body: BodyInit | undefined, headers?: Record<string, string>) {
  return callRoute(
    check.action,
    makeRequest("/api/provenance/check", { method: "POST", body, headers }),
  );
}

async function styledFile(): Promise<Buffer> {
  const { user } = await createTestUser();
  const stylized = await createStylizedImage(user.id);
  return getFileStore().read(stylized.file_key!);
}

describe("POST /api/provenance/check", () => {
  it("reads a file the product delivers: valid, signed by the server's certificate, made as its XMP says", async () => {
    const response = await checkFile(fileForm(await styledFile()));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      manifest: true,
      valid: true,
      signer: SELF_MADE_ORGANIZATION,
      digitalSourceType: DIGITAL_SOURCE_TYPES.local,
      claimGenerator: "Selfie Studio",
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
  });

  it("says so of an image without a manifest and of a re-encoded copy, and keeps no file", async () => {
    const copy = await sharp(await styledFile())
      .jpeg()
      .toBuffer();
    const response = await checkFile(fileForm(copy));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ manifest: false });
    const png = await sharp({ create: { width: 4, height: 4, channels: 3, background: "#000" } })
      .png()
      .toBuffer();
    expect(await (await checkFile(fileForm(png, "a.png", "image/png"))).json()).toEqual({
      manifest: false,
    });
    const scratch = await getFileStore().scratchDir();
    const { readdir } = await import("node:fs/promises");
    expect(await readdir(scratch)).toEqual([]);
  });

  it("answers a sentence for what it cannot read: not an image 400, cut short or past its limits 422, past 10 MB 413", async () => {
    const cases: [string, BodyInit, number, string][] = [
      [
        "text",
        fileForm(Buffer.from("hello, not an image"), "a.txt", "text/plain"),
        400,
        NOT_AN_IMAGE,
      ],
      ["cut short", fileForm((await styledFile()).subarray(0, 5_000)), 422, DAMAGED_FILE],
      [
        "a manifest store nested 5,000 deep",
        fileForm(
          jpegWithJumbf(
            await sharp({ create: { width: 8, height: 8, channels: 3, background: "#fff" } })
              .jpeg()
              .toBuffer(),
            deeplyNestedJumbf(5_000),
          ),
        ),
        422,
        BEYOND_LIMITS,
      ],
      [
        "11 MB",
        fileForm(Buffer.alloc(11 * 1024 * 1024, 0xff)),
        413,
        PROVENANCE_UPLOAD_MESSAGES.tooLarge,
      ],
      ["no file", fileForm(Buffer.alloc(0)), 400, PROVENANCE_UPLOAD_MESSAGES.missing],
      [
        "the wrong field",
        fileForm(Buffer.from("x"), "a.jpg", "image/jpeg", "image"),
        400,
        PROVENANCE_UPLOAD_MESSAGES.missing,
      ],
    ];
    for (const [name, body, status, message] of cases) {
      const response = await checkFile(body);
      expect(response.status, name).toBe(status);
      expect(await response.json(), name).toMatchObject({ message });
    }
    const json = await checkFile(JSON.stringify({ file: "abc" }), {
      "Content-Type": "application/json",
    });
    expect(json.status).toBe(400);
    expect(await json.json()).toMatchObject({ message: PROVENANCE_UPLOAD_MESSAGES.notMultipart });
  });
});

describe("/provenance", () => {
  it("answers the form's post on the page: the report, or the refusal's sentence with its status", async () => {
    const ok = await callRoute(
      pageAction,
      makeRequest("/provenance", { method: "POST", body: fileForm(await styledFile()) }),
    );
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ report: { manifest: true, valid: true } });

    const refused = await callRoute(
      pageAction,
      makeRequest("/provenance", {
        method: "POST",
        body: fileForm(Buffer.from("plain text"), "a.txt", "text/plain"),
      }),
    );
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual({ refused: NOT_AN_IMAGE });
  });

  it("is a plain multipart form post without JavaScript, and shows what the check found", async () => {
    const empty = await serverHtml(<ProvenanceCheck />, "/provenance");
    expect(empty).toMatch(
      /<form[^>]*method="post"[^>]*action="\/provenance"[^>]*enctype="multipart\/form-data"/i,
    );
    expect(empty).toMatch(/<input[^>]*type="file"[^>]*name="file"/);

    const valid = await serverHtml(
      <ProvenanceCheck
        outcome={{
          report: {
            manifest: true,
            valid: true,
            signer: SELF_MADE_ORGANIZATION,
            digitalSourceType: DIGITAL_SOURCE_TYPES.fal,
            claimGenerator: "Selfie Studio",
            createdAt: "2026-12-01T10:00:00.000Z",
          },
        }}
      />,
      "/provenance",
      { withoutTextMarkers: true },
    );
    expect(valid).toContain("Content Credentials: valid");
    expect(valid).toContain(SELF_MADE_ORGANIZATION);
    expect(valid).toContain("made by a generative AI model (trainedAlgorithmicMedia)");
    expect(valid).toContain('<time dateTime="2026-12-01T10:00:00.000Z">2026-12-01</time>');

    const none = await serverHtml(
      <ProvenanceCheck outcome={{ report: { manifest: false } }} />,
      "/provenance",
    );
    expect(none).toContain("No Content Credentials");
    const refused = await serverHtml(
      <ProvenanceCheck outcome={{ refused: DAMAGED_FILE }} />,
      "/provenance",
    );
    expect(refused).toMatch(/role="alert"[^>]*>[^<]*This image is damaged or cut short/);
  });
});

import zlib from "node:zlib";
import { PDFArray, PDFDocument, PDFRawStream } from "pdf-lib";
import type { StylizedImageRow } from "#db/schema";
import { getDb } from "~/infra/db.server";
import { getFileStore } from "~/infra/file-store.server";
import { signModelRelease } from "~/features/publishing/releases/model-releases.server";
import { firstRowWhere } from "./rows-where";

/**
 * What a model release signed in the app asks besides the name, the date
 * signed, the signature and the confirmation (schemas.ts): an adult model's
 * date of birth and contact details, a shoot date in the past (fixed, so no
 * test depends on the day it runs), and a self-portrait.
 */
export const RELEASE_DETAILS = {
  dateOfBirth: "1990-05-01",
  address: "12 Example Street, Manchester M1 1AA, United Kingdom",
  email: "model@example.com",
  phone: "+44 161 496 0000",
  shootDate: "2024-05-01",
  selfTaken: true,
} as const;

/** The image's model release, signed by its owner as "Alice Example" unless it has one already. */
export async function ensureModelRelease(
  owner: { user: { id: string }; email: string },
  image: StylizedImageRow,
): Promise<void> {
  const existing = await firstRowWhere("model_releases", "id", "stylized_image_id", image.id);
  if (existing) return;
  await signModelRelease(getDb(), getFileStore(), {
    userId: owner.user.id,
    accountEmail: owner.email,
    image,
    input: {
      ...RELEASE_DETAILS,
      photographerName: null,
      modelName: "Alice Example",
      signedOn: "2026-11-26",
      signature: "Alice Example",
    },
    now: new Date(),
  });
}

/** The same, as the release page's form posts them (the ticked box sends "on"). */
export const RELEASE_FORM_DETAILS = { ...RELEASE_DETAILS, selfTaken: "on" } as const;

/**
 * The text a PDF made by pdf-lib shows, line by line: each page's content
 * streams inflated, and the strings of their text operators (pdf-lib writes
 * a standard font's text as hex strings in WinAnsi, which is Latin-1 for
 * what these tests print) decoded.
 */
export async function pdfText(bytes: Uint8Array): Promise<string[]> {
  const pdf = await PDFDocument.load(bytes);
  const lines: string[] = [];
  for (const page of pdf.getPages()) {
    const contents = page.node.Contents();
    const streams =
      contents instanceof PDFArray
        ? contents.asArray().map((ref) => pdf.context.lookup(ref))
        : [contents];
    for (const stream of streams) {
      if (!(stream instanceof PDFRawStream)) continue;
      const raw = Buffer.from(stream.contents);
      const text = stream.dict.toString().includes("/FlateDecode")
        ? zlib.inflateSync(raw).toString("latin1")
        : raw.toString("latin1");
      for (const match of text.matchAll(/<([0-9A-Fa-f]*)>\s*Tj/g)) {
        lines.push(Buffer.from(match[1], "hex").toString("latin1"));
      }
    }
  }
  return lines;
}

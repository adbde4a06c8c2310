import fsp from "node:fs/promises";
import sharp from "sharp";
import { PDFDocument, StandardFonts, rgb } from "pdf-lib";
import type { PDFFont, PDFPage } from "pdf-lib";
import type { ModelReleaseRow, StylizedImageRow } from "#db/schema";
import type { DB } from "~/infra/db.server";
import type { FileStore } from "~/infra/file-store.server";
import { newFileKey } from "~/infra/file-store.server";
import { newId } from "~/infra/ids.server";
import { unsupportedMedia } from "~/infra/errors.server";
import { drawnSignaturePng } from "~/features/publishing/releases/drawn-signature.server";
import { checkReleasePdf } from "~/features/publishing/releases/release-pdf-check.server";
import type { ReleasePdfCheck } from "~/features/publishing/releases/release-pdf-check.server";
import { styleName } from "~/lib/styles";
import type { ModelReleaseJson } from "~/features/publishing/releases/model-release-types";
import { PRODUCT_NAME } from "~/lib/product";

/**
 * Model releases. A styled selfie shows a real, identifiable person, and a
 * stock agency (Adobe Stock) takes such an image only with a release signed by
 * that person. One release per stylized image, stored as a PDF under
 * releases/: either signed here by the creator for themselves, or a signed
 * release for the person shown that the creator uploads. A new one replaces
 * the old. The agency takes the PDF in its own portal (Adobe: Releases, then
 * attached to the file), never over SFTP, so the app keeps it for the
 * creator to download.
 *
 * A release signed here carries what Adobe's own release form asks (Adobe
 * takes other forms "substantially similar" to its own): the model's name
 * (printed in capitals), date of birth, postal address, email and phone; the
 * photographer's name and signature block; the shoot date (and place, if
 * given); each signature with its date; the grant; and the image it covers.
 * For a self-portrait the model signs as photographer too (Adobe's rule);
 * when someone else took the photo, their block is left for them to sign,
 * and the release waits for the signed copy (`awaiting_photographer`). The
 * model is an adult on the shoot date (schemas.ts refuses a minor: the form
 * has no guardian block). The contact details and date of birth are printed
 * on the PDF only; the row keeps the name, the date signed and the typed
 * signature, as before.
 */

export const MAX_RELEASE_BYTES = 10 * 1024 * 1024;
export const NOT_A_PDF = "The release must be a PDF file (a signed model release, at most 10 MB).";
export const UNREADABLE_PDF =
  "The release could not be read as a PDF: it is damaged, or too complex to open in time. " +
  "Please save or print the signed release as a new PDF (at most 10 MB) and upload that.";

export function modelReleaseDownloadPath(stylizedImageId: string): string {
  return `/api/token-stylized-images/${encodeURIComponent(stylizedImageId)}/model-release`;
}

export function modelReleaseJson(row: ModelReleaseRow): ModelReleaseJson {
  return {
    id: row.id,
    stylizedImageId: row.stylized_image_id,
    kind: row.kind,
    modelName: row.model_name,
    signedOn: row.signed_on,
    drawnSignature: row.drawn_signature === 1,
    awaitingPhotographer: row.awaiting_photographer === 1,
    bytes: row.bytes,
    createdAt: row.created_at,
    downloadUrl: modelReleaseDownloadPath(row.stylized_image_id),
  };
}

export function findModelRelease(
  db: DB,
  userId: string,
  stylizedImageId: string,
): Promise<ModelReleaseRow | undefined> {
  return db
    .selectFrom("model_releases")
    .selectAll()
    .where("user_id", "=", userId)
    .where("stylized_image_id", "=", stylizedImageId)
    .executeTakeFirst();
}

/** The creator's newest model releases with their image's style, for the stock agency's card. */
export async function recentModelReleases(db: DB, userId: string, limit = 20) {
  const rows = await db
    .selectFrom("model_releases")
    .innerJoin("stylized_images", "stylized_images.id", "model_releases.stylized_image_id")
    .select([
      "model_releases.stylized_image_id",
      "model_releases.signed_on",
      "model_releases.created_at",
      "stylized_images.style",
    ])
    .where("model_releases.user_id", "=", userId)
    .orderBy("model_releases.created_at", "desc")
    .limit(limit)
    .execute();
  return rows.map((row) => ({
    stylizedImageId: row.stylized_image_id,
    style: row.style,
    signedOn: row.signed_on,
    createdAt: row.created_at,
    downloadUrl: modelReleaseDownloadPath(row.stylized_image_id),
  }));
}

/** Records a release's PDF for an image, replacing (and removing the file of) the one before. */
async function saveRelease(
  db: DB,
  store: FileStore,
  args: {
    userId: string;
    image: StylizedImageRow;
    kind: "signed" | "uploaded";
    fileKey: string;
    bytes: number;
    modelName: string | null;
    signedOn: string | null;
    signature: string | null;
    drawn: boolean;
    awaitingPhotographer: boolean;
    now: Date;
  },
): Promise<ModelReleaseRow> {
  const before = await findModelRelease(db, args.userId, args.image.id);
  const values = {
    kind: args.kind,
    model_name: args.modelName,
    signed_on: args.signedOn,
    signature: args.signature,
    drawn_signature: args.drawn ? 1 : 0,
    awaiting_photographer: args.awaitingPhotographer ? 1 : 0,
    file_key: args.fileKey,
    bytes: args.bytes,
    created_at: args.now.toISOString(),
  };
  let row: ModelReleaseRow;
  try {
    row = await db
      .insertInto("model_releases")
      .values({ id: newId(), user_id: args.userId, stylized_image_id: args.image.id, ...values })
      .onConflict((conflict) => conflict.column("stylized_image_id").doUpdateSet(values))
      .returningAll()
      .executeTakeFirstOrThrow();
  } catch (error) {
    await store.remove(args.fileKey);
    throw error;
  }
  if (before && before.file_key !== args.fileKey) await store.remove(before.file_key);
  return row;
}

export interface SignedReleaseInput {
  modelName: string;
  /** The model's date of birth, YYYY-MM-DD (an adult on the shoot date). */
  dateOfBirth: string;
  address: string;
  email: string;
  phone: string;
  /** The day the photo was taken, YYYY-MM-DD, and where (optional). */
  shootDate: string;
  shootLocation?: string;
  /** Who took the photo when it was not the model (null: the model did, and signs as photographer too). */
  photographerName: string | null;
  signedOn: string;
  signature: string;
  /** A drawn signature, as a PNG data URL (from the page's canvas, with JavaScript). */
  drawnSignature?: string;
}

/** Text a standard PDF font can set: characters outside its encoding lose their accents, else become "?". */
function settable(font: PDFFont, text: string): string {
  let out = "";
  for (const char of text) {
    const tries = [char, char.normalize("NFKD").replace(/\p{M}/gu, ""), "?"];
    for (const attempt of tries) {
      try {
        font.encodeText(attempt);
        out += attempt;
        break;
      } catch {
        // try the next form
      }
    }
  }
  return out;
}

/** Draws `text` wrapped to `width`; answers the y below it. */
function paragraph(
  page: PDFPage,
  font: PDFFont,
  text: string,
  at: { x: number; y: number; width: number; size: number },
): number {
  const words = settable(font, text).split(/\s+/);
  let line = "";
  let y = at.y;
  const flush = () => {
    page.drawText(line, { x: at.x, y, size: at.size, font, color: rgb(0.1, 0.1, 0.12) });
    y -= at.size * 1.45;
    line = "";
  };
  for (const word of words) {
    const next = line ? `${line} ${word}` : word;
    if (font.widthOfTextAtSize(next, at.size) > at.width && line) {
      flush();
      line = word;
    } else line = next;
  }
  if (line) flush();
  return y - at.size * 0.5;
}

/** A name as the release prints it: in capital letters (Adobe's rule, for legibility). */
export function printedName(name: string): string {
  return name.toLocaleUpperCase("en");
}

/** What releasePdf prints (a signed release, as SignedReleaseInput, without the drawn signature's data URL). */
export type ReleasePdfFields = Omit<SignedReleaseInput, "drawnSignature">;

/**
 * The PDF of a release the creator signs for themselves, laid out as Adobe's
 * own release form is: the grant; the model (name in capitals, date of birth,
 * address, email, phone); the photographer (the model, for a self-portrait,
 * or the person named); the shoot (date, place) and the image it covers
 * (printed, with its id); then the model's signature (typed, and drawn if
 * given) with its date, and the photographer's: the same signature for a
 * self-portrait, else an empty line and date for them to sign.
 */
export async function releasePdf(args: {
  release: ReleasePdfFields;
  /** The drawn signature, as drawnSignaturePng makes it (small, already decoded once). */
  drawn: Buffer | null;
  accountEmail: string;
  image: { id: string; style: string; createdAt: string };
  imageBytes: Buffer;
  now: Date;
}): Promise<Buffer> {
  const release = args.release;
  const model = printedName(release.modelName);
  const photographer = release.photographerName ? printedName(release.photographerName) : model;
  const selfPortrait = release.photographerName === null;
  const pdf = await PDFDocument.create();
  pdf.setTitle(`Model release: ${release.modelName}`);
  pdf.setAuthor(release.modelName);
  pdf.setCreator(PRODUCT_NAME);
  pdf.setProducer(PRODUCT_NAME);
  pdf.setCreationDate(args.now);
  const page = pdf.addPage([595.28, 841.89]);
  const regular = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const script = await pdf.embedFont(StandardFonts.TimesRomanItalic);
  const left = 56;
  const width = 595.28 - 2 * left;
  const grey = rgb(0.5, 0.5, 0.55);
  let y = 786;
  page.drawText("Model Release", { x: left, y, size: 20, font: bold });
  y -= 26;
  const photographed = selfPortrait
    ? "which I photographed myself (a self-portrait: I sign below as both the model and the photographer)"
    : `which was photographed by ${photographer} (the photographer, who signs below)`;
  y = paragraph(
    page,
    regular,
    `I, ${model}, am the person shown in the image described below, ${photographed}, and I styled it with ${PRODUCT_NAME}. ` +
      `For value received, I grant ${selfPortrait ? "myself as its photographer and contributor" : "the photographer, myself as its contributor,"} ` +
      "and the stock agencies and their customers to which it is licensed (including Adobe Stock), the irrevocable, worldwide " +
      "right to use, reproduce, adapt, publish and license this image and works made from it, in any media, for any lawful purpose, " +
      "including commercial use and advertising, without further approval or payment. I waive any right to inspect or approve the " +
      "finished uses. I am at least 18 years old, and I have read this release and understood it before signing it. It covers the " +
      "image below and every version made from the same photograph.",
    { x: left, y, width, size: 9.5 },
  );

  // The three blocks (model, photographer, shoot), beside the image they cover.
  const thumbnail = await sharp(args.imageBytes, { failOn: "error" })
    .rotate()
    .resize(360, 360, { fit: "inside" })
    .flatten({ background: "#ffffff" })
    .jpeg({ quality: 80 })
    .toBuffer();
  const embedded = await pdf.embedJpg(thumbnail);
  const scale = Math.min(140 / embedded.width, 140 / embedded.height);
  const shown = { width: embedded.width * scale, height: embedded.height * scale };
  const top = y;
  page.drawImage(embedded, { x: left + width - shown.width, y: top - shown.height, ...shown });
  const column = { x: left, width: width - shown.width - 16 };
  const heading = (text: string) => {
    y -= 4;
    page.drawText(text, { x: left, y, size: 10, font: bold });
    y -= 15;
  };
  const field = (label: string, value: string) => {
    y = paragraph(page, regular, `${label}: ${value}`, { ...column, y, size: 9.5 }) + 4;
  };
  heading("THE MODEL");
  field("Name (printed)", model);
  field("Date of birth", release.dateOfBirth);
  field("Address", release.address);
  field("Email", release.email);
  field("Phone", release.phone);
  heading("THE PHOTOGRAPHER");
  field(
    "Name (printed)",
    selfPortrait ? `${photographer} (the model: a self-portrait)` : photographer,
  );
  field("Contributor's account", args.accountEmail);
  heading("THE SHOOT");
  field("Date the photo was taken", release.shootDate);
  if (release.shootLocation) field("Place", release.shootLocation);
  field(
    "The image it covers",
    `${styleName(args.image.style)} style, image ${args.image.id}, made ${args.image.createdAt.slice(0, 10)}`,
  );
  y = Math.min(y, top - shown.height) - 14;

  // The signatures: the model's, then the photographer's (the same for a self-portrait).
  const drawn = args.drawn ? await pdf.embedPng(args.drawn) : null;
  const signatureBlock = (role: string, name: string, signed: boolean) => {
    page.drawText(`Signature of the ${role}:`, { x: left, y, size: 9.5, font: regular });
    y -= 26;
    if (signed) {
      page.drawText(settable(script, release.signature), {
        x: left,
        y,
        size: 20,
        font: script,
        color: rgb(0.05, 0.1, 0.35),
      });
      if (drawn) {
        const s = Math.min(200 / drawn.width, 56 / drawn.height, 1);
        page.drawImage(drawn, {
          x: left + 250,
          y: y - 8,
          width: drawn.width * s,
          height: drawn.height * s,
        });
      }
    }
    y -= 10;
    page.drawLine({
      start: { x: left, y },
      end: { x: left + width, y },
      thickness: 0.6,
      color: grey,
    });
    y -= 13;
    page.drawText(signed ? `Date signed: ${release.signedOn}` : "Date signed: ____________", {
      x: left + width - 140,
      y,
      size: 9.5,
      font: regular,
    });
    const printed = `${role === "model" ? "Model" : "Photographer"} (printed): ${name}`;
    y = paragraph(page, regular, printed, { x: left, y, width: width - 150, size: 9.5 }) - 6;
  };
  signatureBlock("model", model, true);
  signatureBlock("photographer", photographer, selfPortrait);

  paragraph(
    page,
    regular,
    `Signed electronically in ${PRODUCT_NAME} on ${release.signedOn} by typing the name above${args.drawn ? " and drawing the signature" : ""}` +
      (selfPortrait
        ? ", as the model and as the photographer; "
        : `, as the model; the photographer, ${photographer}, signs on the line above; `) +
      `recorded ${args.now.toISOString()}.`,
    { x: left, y, width, size: 8.5 },
  );
  return Buffer.from(await pdf.save());
}

/** Signs a release in the app for the creator themselves (the image must be theirs and completed). */
export async function signModelRelease(
  db: DB,
  store: FileStore,
  args: {
    userId: string;
    accountEmail: string;
    image: StylizedImageRow;
    input: SignedReleaseInput;
    now: Date;
  },
): Promise<ModelReleaseRow> {
  const drawn = await drawnSignaturePng(args.input.drawnSignature);
  const imageBytes = await store.read(args.image.file_key!);
  const { drawnSignature: _drawn, ...release } = args.input;
  const bytes = await releasePdf({
    release,
    drawn,
    accountEmail: args.accountEmail,
    image: { id: args.image.id, style: args.image.style, createdAt: args.image.created_at },
    imageBytes,
    now: args.now,
  });
  const fileKey = newFileKey("releases", "pdf");
  await store.write(fileKey, bytes);
  return saveRelease(db, store, {
    userId: args.userId,
    image: args.image,
    kind: "signed",
    fileKey,
    bytes: bytes.length,
    modelName: args.input.modelName,
    signedOn: args.input.signedOn,
    signature: args.input.signature,
    drawn: drawn !== null,
    awaitingPhotographer: args.input.photographerName !== null,
    now: args.now,
  });
}

/**
 * Keeps an uploaded, signed release (a scratch file on the volume) for an
 * image. A file that is not a PDF, or one pdf-lib cannot open (with no page,
 * or past the check's limits: release-pdf-check.server.ts) is refused (415).
 */
export async function adoptUploadedRelease(
  db: DB,
  store: FileStore,
  args: { userId: string; image: StylizedImageRow; path: string; now: Date },
): Promise<ModelReleaseRow> {
  const bytes = await fsp.readFile(args.path);
  let check: ReleasePdfCheck;
  try {
    check = await checkReleasePdf(bytes);
  } catch (error) {
    await fsp.rm(args.path, { force: true });
    throw error;
  }
  if (!check.readable) {
    await fsp.rm(args.path, { force: true });
    throw unsupportedMedia(check.reason === "not-a-pdf" ? NOT_A_PDF : UNREADABLE_PDF);
  }
  const fileKey = newFileKey("releases", "pdf");
  await store.putFile(fileKey, args.path);
  return saveRelease(db, store, {
    userId: args.userId,
    image: args.image,
    kind: "uploaded",
    fileKey,
    bytes: bytes.length,
    modelName: null,
    signedOn: null,
    signature: null,
    drawn: false,
    awaitingPhotographer: false,
    now: args.now,
  });
}

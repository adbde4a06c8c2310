import type { FlashMessage } from "~/lib/flash";
import type { ImageJson } from "~/features/studio/types";
import { DAMAGED_IMAGE, FILE_TOO_LARGE, INVALID_FILE_TYPE } from "~/lib/limits";

/**
 * What the creator is told after an upload from the dashboard, in one place:
 * the dashboard's action says it as a flash message after the form without
 * JavaScript, and the upload widget as a toast after its fetcher's post.
 */

/** A file that was not stored, and why (its place among the files chosen, from 0). */
export interface RefusedFile {
  index: number;
  filename: string | null;
  message: string;
}

/** The dashboard action's answer to the upload widget's fetcher (`UPLOAD_FETCHER_ACTION`). */
export type UploadAnswer =
  | { ok: true; images: ImageJson[]; refused: (RefusedFile & { status: number })[] }
  | { ok: false; status: number; message: string };

/**
 * Where the upload widget posts with JavaScript: the dashboard's own action,
 * which then answers the fetcher with an `UploadAnswer` instead of a redirect
 * (a multipart body is the procedure's to read, so the mark is in the address).
 */
export const UPLOAD_FETCHER_PARAM = "_js";
export const UPLOAD_FETCHER_ACTION = `/dashboard?${UPLOAD_FETCHER_PARAM}=1`;

/** Each refused file with its reason, in one sentence list. */
function reasons(files: RefusedFile[]): string {
  return files
    .map((file) => `${file.filename ?? `File ${file.index + 1}`}: ${file.message}`)
    .join(" ");
}

/** After an upload that stored at least one selfie (of several: how many of the files chosen, and each refused one's reason). */
export function uploadToast(outcome: {
  files: number;
  stored: number;
  refused: RefusedFile[];
}): FlashMessage {
  if (outcome.files === 1)
    return {
      kind: "success",
      title: "Upload Successful",
      description: "Your selfie has been uploaded successfully!",
    };
  const stored = `${outcome.stored} of ${outcome.files} selfies uploaded.`;
  if (outcome.refused.length === 0)
    return { kind: "success", title: "Upload Successful", description: stored };
  return {
    kind: "error",
    title: "Some files were not uploaded",
    description: `${stored} ${reasons(outcome.refused)}`,
  };
}

/** After an upload the server refused as a whole (nothing stored): by its status and message. */
export function uploadRefusedToast(refusal: { status: number; message: string }): FlashMessage {
  if (refusal.message === DAMAGED_IMAGE.description) return { kind: "error", ...DAMAGED_IMAGE };
  if (refusal.status === 413) return { kind: "error", ...FILE_TOO_LARGE };
  if (refusal.status === 415) return { kind: "error", ...INVALID_FILE_TYPE };
  return { kind: "error", title: "Upload Failed", description: refusal.message };
}

/**
 * Several selfies chosen, none stored: the server's refusal of the ones sent
 * (none when every file was refused before sending), then each file refused
 * before sending with its reason.
 */
export function severalRefusedToast(message: string | null, early: RefusedFile[]): FlashMessage {
  return {
    kind: "error",
    title: "Upload Failed",
    description: `${message ?? ""} ${reasons(early)}`.trim(),
  };
}

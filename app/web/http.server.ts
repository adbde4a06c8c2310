import { readCapped } from "~/infra/capped-read.server";
import { HttpError, payloadTooLarge } from "~/infra/errors.server";
import {
  DATABASE_RETRY_AFTER_SECONDS,
  DATABASE_UNAVAILABLE_MESSAGE,
  isDatabaseUnavailable,
} from "~/infra/database-errors.server";

const JSON_TYPE = "application/json; charset=utf-8";

export function jsonResponse(body: unknown, init: { status?: number; headers?: HeadersInit } = {}) {
  const headers = new Headers(init.headers);
  headers.set("Content-Type", JSON_TYPE);
  headers.set("Cache-Control", headers.get("Cache-Control") ?? "no-store");
  return new Response(JSON.stringify(body), { status: init.status ?? 200, headers });
}

/** 503 with Retry-After: the database cannot be reached for the moment (database-errors.server.ts). */
export function databaseUnavailableJson(): Response {
  return jsonResponse(
    { message: DATABASE_UNAVAILABLE_MESSAGE },
    { status: 503, headers: { "Retry-After": String(DATABASE_RETRY_AFTER_SECONDS) } },
  );
}

/** An error as the API's JSON body (`message`, and `fieldErrors` when there are any); unexpected errors say nothing about internals. */
export function errorResponse(error: unknown): Response {
  if (error instanceof HttpError) {
    return jsonResponse(
      error.fieldErrors
        ? { message: error.message, fieldErrors: error.fieldErrors }
        : { message: error.message },
      { status: error.status, headers: error.headers },
    );
  }
  if (error instanceof Response) {
    // A thrown Response (e.g. a redirect) passes through, but never as HTML.
    if (error.status >= 300 && error.status < 400) return error;
    return jsonResponse(
      { message: error.statusText || "Request failed" },
      { status: error.status },
    );
  }
  if (isDatabaseUnavailable(error)) return databaseUnavailableJson();
  console.error("Unexpected error in API handler:", error);
  return jsonResponse({ message: "Something went wrong. Please try again." }, { status: 500 });
}

/** Reads a request body as text, refusing more than `maxBytes` without reading the rest. */
export async function readTextLimited(request: Request, maxBytes: number): Promise<string> {
  return (await readBytesLimited(request, maxBytes)).toString("utf8");
}

/** Reads a request body, refusing more than `maxBytes` (declared or sent) without reading the rest. */
export async function readBytesLimited(request: Request, maxBytes: number): Promise<Buffer> {
  const declared = Number(request.headers.get("Content-Length") ?? "NaN");
  if (Number.isFinite(declared) && declared > maxBytes)
    throw payloadTooLarge("Request body too large");
  return readCapped(request.body, maxBytes, () => payloadTooLarge("Request body too large"));
}

/** Form posts carry a few fields; files go to the upload routes, which stream them. */
export const MAX_FORM_BYTES = 1024 * 1024;

/**
 * A form post's fields, read from a copy of the request (so that sign-in can
 * read it again) and never more than `maxBytes` of it. A body that is too
 * large, or not a form, is answered as a thrown 413 or 400.
 */
export async function readFormData(request: Request, maxBytes = MAX_FORM_BYTES): Promise<FormData> {
  let bytes: Buffer;
  try {
    bytes = await readBytesLimited(request.clone(), maxBytes);
  } catch (error) {
    if (error instanceof HttpError)
      throw jsonResponse({ message: error.message }, { status: error.status });
    throw error;
  }
  try {
    return await new Response(new Uint8Array(bytes), {
      headers: { "Content-Type": request.headers.get("Content-Type") ?? "" },
    }).formData();
  } catch {
    throw jsonResponse(
      { message: "Send the form as application/x-www-form-urlencoded or multipart/form-data" },
      { status: 400 },
    );
  }
}

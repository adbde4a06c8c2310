import { apiRequest } from "~/ui/api-client";
import type { ImageJson } from "~/features/studio/types";

/**
 * The browser's calls of the creator pipeline, through the
 * shared API client (cookie, or the stored bearer token). A failure is thrown
 * as an ApiError carrying the status and the server's own message.
 */
export class ApiError extends Error {
  constructor(
    public readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = "ApiError";
  }
}

async function call<T>(method: string, url: string, body?: unknown): Promise<T> {
  let response: Response;
  try {
    response = await apiRequest(method, url, body);
  } catch (error) {
    const text = error instanceof Error ? error.message : String(error);
    const match = /^(\d{3}): ([\s\S]*)$/.exec(text);
    if (!match)
      throw new ApiError(0, "Could not reach the server. Check your connection and try again.");
    let message = match[2];
    try {
      const parsed = JSON.parse(message) as { message?: unknown };
      if (typeof parsed.message === "string") message = parsed.message;
    } catch {
      // a plain-text body is the message
    }
    throw new ApiError(Number(match[1]), message);
  }
  return (response.status === 204 ? undefined : await response.json()) as T;
}

export function uploadSelfie(file: File): Promise<ImageJson> {
  const body = new FormData();
  body.append("image", file);
  return call<ImageJson>("POST", "/api/token-images/upload", body);
}

/** A file of a several-file upload the server did not store, and why. */
export interface RefusedUpload {
  index: number;
  filename: string | null;
  status: number;
  message: string;
}

/** Several selfies in one request (up to 10): the images stored and the files refused, each with its reason. */
export function uploadSelfies(
  files: File[],
): Promise<{ images: ImageJson[]; refused: RefusedUpload[] }> {
  const body = new FormData();
  for (const file of files) body.append("image", file);
  return call("POST", "/api/token-images/upload", body);
}

/** Where a signed-out visitor goes to sign in again, coming back to the dashboard. */
export const SIGN_IN_AGAIN_URL = "/api/login?redirectTo=%2Fdashboard";
/** A 401 on the dashboard says so, then goes to sign in after 500 ms. */
export const LOGGED_OUT_MESSAGE = {
  title: "Unauthorized",
  description: "You are logged out. Logging in again...",
};
export const SIGN_IN_DELAY_MS = 500;

import { expect, onTestFinished } from "vitest";
import { getConfig } from "~/infra/config.server";
import { callRoute, makeRequest, type RequestOptions } from "#tests/setup/requests";
import { fixture, uploadRequest } from "#tests/setup/studio";
import { apiRoute } from "#tests/setup/api-routes";
import { rowWhere } from "#tests/setup/rows-where";

/** The studio's token API as tests call it (vitest only). */

const upload = apiRoute("/api/token-images/upload");
const stylize = apiRoute("/api/token-images/{id}/stylize");

/** Sets configuration values for one test; they are put back when it finishes. */
export function useConfig(values: Partial<ReturnType<typeof getConfig>>) {
  const config = getConfig();
  const saved = Object.fromEntries(
    Object.keys(values).map((key) => [key, config[key as keyof typeof config]]),
  );
  Object.assign(config, values);
  onTestFinished(() => void Object.assign(config, saved));
}

/** POST /api/token-images/upload of the portrait fixture with the token. */
export function uploadPortrait(token: string): Promise<Response> {
  return callRoute(upload.action, uploadRequest(fixture("portrait.png"), { token }));
}

/** Uploads the portrait fixture (expecting 201); answers the stored image. */
export async function uploadedImage(token: string) {
  const response = await uploadPortrait(token);
  expect(response.status).toBe(201);
  return (await response.json()) as { id: string; originalUrl: string };
}

/** Uploads the portrait fixture (expecting 201); answers the stored images row's id and file key. */
export async function uploadedImageRow(token: string) {
  const { id } = await uploadedImage(token);
  return rowWhere("images", ["id", "file_key"], "id", id);
}

/** POST /api/token-images/{id}/stylize with the JSON body and the credentials given. */
export function stylizeRequest(
  imageId: string,
  json: unknown,
  auth: Pick<RequestOptions, "token" | "cookie" | "origin">,
): Promise<Response> {
  return callRoute(
    stylize.action,
    makeRequest(`/api/token-images/${imageId}/stylize`, { ...auth, json }),
    { id: imageId },
  );
}

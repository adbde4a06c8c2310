import { expect } from "vitest";
import { callRoute, makeRequest } from "#tests/setup/requests";
import { apiRoute } from "#tests/setup/api-routes";

const integrations = apiRoute("/api/token-marketplace-integrations");

/**
 * Connects OpenSea for the holder of `token` with an API key and a wallet, as the manual set-up
 * does (POST /api/token-marketplace-integrations), and checks it was saved (201).
 */
export async function connectOpenSeaByKey(
  token: string,
  apiKey: string,
  walletAddress: string,
): Promise<Response> {
  const response = await callRoute(
    integrations.action,
    makeRequest("/api/token-marketplace-integrations", {
      token,
      json: { platform: "opensea", apiKey, walletAddress },
    }),
  );
  expect(response.status).toBe(201);
  return response;
}

import { describe, expect, it } from "vitest";
import { getDb } from "~/infra/db.server";
import { CryptoBoxError, open, seal } from "~/infra/crypto-box.server";
import { openIntegration } from "~/features/publishing/integrations/integrations.server";
import { callRoute, makeRequest } from "#tests/setup/requests";
import { createTestUser } from "#tests/setup/accounts";
import { apiRoutes } from "#tests/setup/api-routes";
import { storedDatabaseBytes } from "#tests/setup/db-tables";
import { rowWhere, rowsWhere } from "#tests/setup/rows-where";

const { tokenIntegrations, displayIntegrations, deleteIntegration } = apiRoutes({
  tokenIntegrations: "/api/token-marketplace-integrations",
  displayIntegrations: "/api/marketplace-integrations",
  deleteIntegration: "/api/token-marketplace-integrations/{platform}",
});

const WALLET = "0x52908400098527886E0F7030069857D2E4169EE7";

describe("crypto box (AES-256-GCM at rest)", () => {
  it("opens what it sealed, and only with the same associated data and key", () => {
    const sealed = seal("sk_live_secret-value", "integration:u1:opensea");
    expect(sealed).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(sealed).not.toContain("secret-value");
    expect(open(sealed, "integration:u1:opensea")).toBe("sk_live_secret-value");
    // Random IVs: the same secret seals differently each time.
    expect(seal("sk_live_secret-value", "integration:u1:opensea")).not.toBe(sealed);
    // Bound to its row: another user's or platform's AAD does not open it.
    expect(() => open(sealed, "integration:u2:opensea")).toThrow(CryptoBoxError);
    expect(() => open(sealed, "integration:u1:rarible")).toThrow(CryptoBoxError);
    // A different app secret (another installation) cannot open it.
    expect(() => open(sealed, "integration:u1:opensea", { secret: "x".repeat(64) })).toThrow(
      CryptoBoxError,
    );
    // Tampering with any part is detected.
    const parts = sealed.split(".");
    const body = Buffer.from(parts[3], "base64url");
    body[0] ^= 1;
    expect(() =>
      open(
        [parts[0], parts[1], parts[2], body.toString("base64url")].join("."),
        "integration:u1:opensea",
      ),
    ).toThrow(CryptoBoxError);
    expect(() => open("v2.a.b.c", "x")).toThrow(CryptoBoxError);
  });
});

describe("integrations API (manual setup)", () => {
  it("stores a key encrypted, answers only its last four characters, and never writes it in the clear", async () => {
    const { user, token } = await createTestUser();
    const apiKey = "opensea-PLAINTEXT-api-key-7f3a9c";
    const response = await callRoute(
      tokenIntegrations.action,
      makeRequest("/api/token-marketplace-integrations", {
        token,
        json: { platform: "opensea", apiKey, walletAddress: WALLET },
      }),
    );
    expect(response.status).toBe(201);
    const text = await response.text();
    expect(text).not.toContain(apiKey);
    const body = JSON.parse(text);
    expect(body).toMatchObject({
      platform: "opensea",
      isActive: true,
      apiKeyLast4: "3a9c",
      walletAddress: WALLET,
    });
    expect(typeof body.id).toBe("string");
    expect(typeof body.createdAt).toBe("string");

    // The row holds ciphertext; the connector can open it.
    const row = await rowWhere("integrations", "*", "user_id", user.id);
    expect(row.credentials).not.toContain(apiKey);
    expect((await openIntegration(getDb(), user.id, "opensea"))?.secret).toBe(apiKey);

    // Scan what the database stores (SQLite: the file and its WAL) for the plaintext key.
    const stored = await storedDatabaseBytes();
    expect(stored.includes(Buffer.from(apiKey, "utf8"))).toBe(false);
    expect(stored.includes(Buffer.from("PLAINTEXT", "utf8"))).toBe(false);
    // ...while the scan would find it were it there (the check can fail).
    expect(stored.includes(Buffer.from(WALLET, "utf8"))).toBe(true);

    // Listing never carries the key either.
    const list = await callRoute(
      tokenIntegrations.loader,
      makeRequest("/api/token-marketplace-integrations", { token }),
    );
    const listText = await list.text();
    expect(listText).not.toContain(apiKey);
    expect(JSON.parse(listText)).toEqual([
      { platform: "marketplace", isActive: true },
      { platform: "opensea", isActive: true },
      { platform: "foap", isActive: true },
      { platform: "eyeem", isActive: true },
      { platform: "clickasnap", isActive: true },
    ]);
    const names = await callRoute(
      displayIntegrations.loader,
      makeRequest("/api/marketplace-integrations", { token }),
    );
    expect((await names.json()).map((entry: { platform: string }) => entry.platform)).toEqual([
      "Selfie Studio",
      "OpenSea",
      "Foap",
      "EyeEm",
      "ClickASnap",
    ]);
  });

  it("answers 400 for an unknown platform, a missing key, and a missing or malformed wallet", async () => {
    const { token } = await createTestUser();
    const post = (json: unknown) =>
      callRoute(
        tokenIntegrations.action,
        makeRequest("/api/token-marketplace-integrations", { token, json }),
      );
    const cases: [unknown, string][] = [
      [{ platform: "myspace", apiKey: "k" }, "platform"],
      [{ platform: "opensea", walletAddress: WALLET }, "apiKey"],
      [{ platform: "opensea", apiKey: "key-1234" }, "walletAddress"],
      [{ platform: "opensea", apiKey: "key-1234", walletAddress: "0x1234" }, "walletAddress"],
      [{ platform: "rarible", apiKey: "key-1234", walletAddress: `${WALLET}0` }, "walletAddress"],
      [{ platform: "foundation", apiKey: "key-1234", walletAddress: WALLET }, "platform"],
      [{ platform: "eyeem", apiKey: "key-1234" }, "platform"],
      [{}, "platform"],
    ];
    for (const [json, field] of cases) {
      const response = await post(json);
      expect(response.status, JSON.stringify(json)).toBe(400);
      expect(
        Object.keys((await response.json()).fieldErrors ?? {}),
        JSON.stringify(json),
      ).toContain(field);
    }
    const bad = await callRoute(
      tokenIntegrations.action,
      makeRequest("/api/token-marketplace-integrations", {
        token,
        body: "{oops",
        headers: { "Content-Type": "application/json" },
      }),
    );
    expect(bad.status).toBe(400);
    const signedOut = await callRoute(
      tokenIntegrations.action,
      makeRequest("/api/token-marketplace-integrations", {
        json: { platform: "opensea", apiKey: "k", walletAddress: WALLET },
      }),
    );
    expect(signedOut.status).toBe(401);
  });

  it("disconnects with DELETE (204) and keeps each creator's connections to themselves", async () => {
    const alice = await createTestUser();
    const bob = await createTestUser();
    await callRoute(
      tokenIntegrations.action,
      makeRequest("/api/token-marketplace-integrations", {
        token: alice.token,
        json: { platform: "rarible", apiKey: "rarible-key-0001", walletAddress: WALLET },
      }),
    );
    const bobs = await callRoute(
      tokenIntegrations.loader,
      makeRequest("/api/token-marketplace-integrations", { token: bob.token }),
    );
    expect((await bobs.json()).map((e: { platform: string }) => e.platform)).not.toContain(
      "rarible",
    );

    const removed = await callRoute(
      deleteIntegration.action,
      makeRequest("/api/token-marketplace-integrations/rarible", {
        token: alice.token,
        method: "DELETE",
      }),
      { platform: "rarible" },
    );
    expect(removed.status).toBe(204);
    expect(await rowsWhere("integrations", "user_id", alice.user.id)).toEqual([]);
    const unknown = await callRoute(
      deleteIntegration.action,
      makeRequest("/api/token-marketplace-integrations/myspace", {
        token: alice.token,
        method: "DELETE",
      }),
      { platform: "myspace" },
    );
    expect(unknown.status).toBe(400);
  });
});

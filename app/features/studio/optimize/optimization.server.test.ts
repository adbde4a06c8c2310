import { describe, expect, it, onTestFinished } from "vitest";
import { getConfig } from "~/infra/config.server";
import { PerKeyLimiter } from "~/infra/per-key-limiter.server";
import { runningOptimizations } from "~/features/studio/optimize/optimization.server";
import { callRoute, makeRequest } from "#tests/setup/requests";
import { createTestUser } from "#tests/setup/accounts";
import { createStylizedImage } from "#tests/setup/market";
import { apiRoute } from "#tests/setup/api-routes";

const optimize = apiRoute("/api/images/optimize");

const settings = {
  quality: 80,
  format: "jpg",
  resolution: "original",
  watermark: false,
  socialOptimized: false,
};
const optimizeCall = (token: string, imageId: string) =>
  callRoute(
    optimize.action,
    makeRequest("/api/images/optimize", { token, json: { imageId, ...settings } }),
  );

describe("PerKeyLimiter", () => {
  it("holds at most `max` slots per key, and a slot frees once however often it is released", () => {
    const limiter = new PerKeyLimiter();
    const first = limiter.tryAcquire("alice", 2)!;
    const second = limiter.tryAcquire("alice", 2)!;
    expect(limiter.tryAcquire("alice", 2)).toBeNull();
    expect(limiter.tryAcquire("bob", 2)).not.toBeNull();
    first();
    first();
    expect(limiter.count("alice")).toBe(1);
    expect(limiter.tryAcquire("alice", 2)).not.toBeNull();
    expect(limiter.tryAcquire("alice", 2)).toBeNull();
    second();
    expect(limiter.count("alice")).toBe(1);
  });
});

describe("optimizations at once", () => {
  it("answers 429 with a clear message while the creator has OPTIMIZATIONS_AT_ONCE running, and frees the slot after", async () => {
    expect(getConfig().OPTIMIZATIONS_AT_ONCE).toBe(2);
    const { user, token } = await createTestUser();
    const other = await createTestUser();
    const styled = await createStylizedImage(user.id);
    const theirs = await createStylizedImage(other.user.id);

    // Two optimizations of this creator are running.
    const running = [
      runningOptimizations.tryAcquire(user.id, 2)!,
      runningOptimizations.tryAcquire(user.id, 2)!,
    ];
    onTestFinished(() => running.forEach((release) => release()));

    const refused = await optimizeCall(token, styled.id);
    expect(refused.status).toBe(429);
    expect(refused.headers.get("Retry-After")).toBe("5");
    expect(await refused.json()).toEqual({
      message: "You already have 2 optimizations running. Please wait for them to finish.",
    });
    // Another creator is not held up.
    expect((await optimizeCall(other.token, theirs.id)).status).toBe(200);

    running[0]();
    expect((await optimizeCall(token, styled.id)).status).toBe(200);
    expect(runningOptimizations.count(user.id)).toBe(1);
  });

  it("gives the slot back when the optimization fails", async () => {
    const { user, token } = await createTestUser();
    const pending = await createStylizedImage(user.id, { status: "pending" });
    expect((await optimizeCall(token, pending.id)).status).toBe(400);
    expect(runningOptimizations.count(user.id)).toBe(0);
  });
});

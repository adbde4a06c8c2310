import { describe, expect, it } from "vitest";
import * as landing from "~/routes/_marketing+/landing";
import * as home from "~/routes/_marketing+/_index";
import { callRoute, makeRequest } from "#tests/setup/requests";
import { createTestUser } from "#tests/setup/accounts";
import { ensureStyleSamples, styleSampleKey } from "~/engines/styling/style-samples.server";
import { getFileStore } from "~/infra/file-store.server";

describe("landing page samples", () => {
  it("shows no samples until all four exist, then the local engine's public sample URLs", async () => {
    const before = await (await callRoute(landing.loader, makeRequest("/landing"))).json();
    expect(before).toMatchObject({ samples: null });

    const { created } = await ensureStyleSamples({ log: () => {} });
    expect(created.sort()).toEqual(["anime", "cartoon", "fantasy", "professional"]);

    const after = await (await callRoute(landing.loader, makeRequest("/landing"))).json();
    expect(Object.keys(after.samples.urls).sort()).toEqual([
      "anime",
      "cartoon",
      "fantasy",
      "professional",
    ]);
    for (const [style, url] of Object.entries(after.samples.urls as Record<string, string>)) {
      expect(url).toBe(`/media/${styleSampleKey(style as "anime")}`);
      expect(url).not.toMatch(/sig=/);
    }
    expect(after.samples.credit).toMatch(/public domain/i);

    // "/" shows them to visitors; a signed-in user gets the dashboard instead.
    const visitor = await (await callRoute(home.loader, makeRequest("/"))).json();
    expect(visitor.signedIn).toBe(false);
    expect(visitor.samples).toEqual(after.samples);
    const { cookie } = await createTestUser();
    const member = await (await callRoute(home.loader, makeRequest("/", { cookie }))).json();
    expect(member.signedIn).toBe(true);
    expect(member.samples).toBeUndefined();

    // One missing file: no samples rather than a broken image.
    await getFileStore().remove(styleSampleKey("anime"));
    expect(await (await callRoute(landing.loader, makeRequest("/landing"))).json()).toMatchObject({
      samples: null,
    });
  });
});

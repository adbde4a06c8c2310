import { describe, expect, it } from "vitest";
import * as integrations from "~/routes/_studio+/integrations";
import { callRoute, makeRequest } from "#tests/setup/requests";
import { createTestUser } from "#tests/setup/accounts";

describe("/integrations loader", () => {
  it("knows whether the visitor is signed in", async () => {
    const anonymous = await callRoute(integrations.loader, makeRequest("/integrations"));
    expect(await anonymous.json()).toEqual({ signedIn: false });
    const { cookie } = await createTestUser();
    const member = await callRoute(integrations.loader, makeRequest("/integrations", { cookie }));
    expect((await member.json()).signedIn).toBe(true);
  });
});

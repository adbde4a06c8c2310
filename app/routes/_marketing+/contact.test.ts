import { describe, expect, it } from "vitest";
import * as contact from "~/routes/_marketing+/contact";
import { getConfig, parseConfig } from "~/infra/config.server";
import { callRoute, makeRequest } from "#tests/setup/requests";
import { restoringConfigure } from "#tests/setup/configure";

/** /contact gives the address of the running configuration: SUPPORT_EMAIL, or ADMIN_EMAIL without it. */

const configure = restoringConfigure();

async function contactAddress(): Promise<string> {
  const response = await callRoute(contact.loader, makeRequest("/contact"));
  expect(response.status).toBe(200);
  return ((await response.json()) as { email: string }).email;
}

describe("GET /contact", () => {
  it("is public and answers the configured SUPPORT_EMAIL, and the new one when the setting changes", async () => {
    configure({ SUPPORT_EMAIL: "help@studio.example" });
    expect(await contactAddress()).toBe("help@studio.example");
    configure({ SUPPORT_EMAIL: "care@other.example" });
    expect(await contactAddress()).toBe("care@other.example");
  });
});

describe("SUPPORT_EMAIL", () => {
  const base = { DATA_DIR: getConfig().dataDir };
  it("defaults to ADMIN_EMAIL's value", () => {
    expect(parseConfig(base).SUPPORT_EMAIL).toBe("admin@selfie.studio");
    expect(parseConfig({ ...base, ADMIN_EMAIL: "Owner@Shop.example" }).SUPPORT_EMAIL).toBe(
      "owner@shop.example",
    );
    expect(
      parseConfig({ ...base, ADMIN_EMAIL: "owner@shop.example", SUPPORT_EMAIL: "" }).SUPPORT_EMAIL,
    ).toBe("owner@shop.example");
  });

  it("takes an address of its own and refuses anything else", () => {
    expect(parseConfig({ ...base, SUPPORT_EMAIL: " Help@Shop.example " }).SUPPORT_EMAIL).toBe(
      "help@shop.example",
    );
    for (const bad of ["help", "help@", "mailto:help@shop.example"]) {
      expect(() => parseConfig({ ...base, SUPPORT_EMAIL: bad })).toThrow(/SUPPORT_EMAIL/);
    }
  });
});

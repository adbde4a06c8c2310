import { describe, expect, it } from "vitest";
import * as privacy from "~/routes/_marketing+/privacy";
import { getConfig, parseConfig } from "~/infra/config.server";
import { callRoute, makeRequest } from "#tests/setup/requests";
import { restoringConfigure } from "#tests/setup/configure";

/** /privacy is made from the running configuration: a changed setting changes the page, no code involved. */

const configure = restoringConfigure();

interface Facts {
  sections: { id: string; title: string; paragraphs: string[] }[];
  vendorRetentionUrl: string | null;
}

async function page(): Promise<{ text: Record<string, string>; facts: Facts }> {
  const response = await callRoute(privacy.loader, makeRequest("/privacy"));
  expect(response.status).toBe(200);
  const facts = (await response.json()) as Facts;
  return {
    facts,
    text: Object.fromEntries(
      facts.sections.map((section) => [
        section.id,
        `${section.title}\n${section.paragraphs.join("\n")}`,
      ]),
    ),
  };
}

describe("GET /privacy", () => {
  it("is public and describes the local engine, the outbox, the test checkout and originals kept, by default", async () => {
    configure({
      FAL_KEY: undefined,
      ORIGINALS_RETENTION_DAYS: undefined,
      SMTP_URL: undefined,
      STRIPE_SECRET_KEY: undefined,
    });
    const { text, facts } = await page();
    expect(text.styling).toContain("computed on this server");
    expect(text.styling).toContain("does not leave this server");
    expect(text.styling).not.toContain("fal.ai");
    expect(facts.vendorRetentionUrl).toBeNull();
    expect(text.originals).toContain("kept until you delete them or your account");
    expect(text.mail).toContain("outbox");
    expect(text.payments).toContain("test checkout");
    expect(text.backups).toContain(
      "A backup taken before you delete an image or your account still holds that data",
    );
  });

  it("names fal.ai and its retention when FAL_KEY is set", async () => {
    configure({ FAL_KEY: "key-id:key-secret", FAL_TIMEOUT_SECONDS: 120 });
    const { text, facts } = await page();
    expect(text.styling).toContain("sent to fal.ai");
    expect(text.styling).toContain("expiry of 120 seconds");
    expect(text.styling).toContain("request history");
    expect(facts.vendorRetentionUrl).toContain("docs.fal.ai");
  });

  it("states the originals' retention when ORIGINALS_RETENTION_DAYS is set", async () => {
    configure({ ORIGINALS_RETENTION_DAYS: 30 });
    const { text } = await page();
    expect(text.originals).toContain("removed 30 days after you upload them");
    expect(text.originals).toContain("the styles made from them stay");
  });

  it("names the mail server's host (never its credentials), Stripe and Shopify when they are configured", async () => {
    configure({
      SMTP_URL: "smtps://mailer:s3cret-pass@smtp.example.eu:465",
      STRIPE_SECRET_KEY: "sk_test_123",
      SHOPIFY_CLIENT_ID: "shopify-client",
    });
    const { text } = await page();
    expect(text.mail).toContain("smtp.example.eu");
    expect(JSON.stringify(text)).not.toContain("s3cret-pass");
    expect(text.payments).toContain("Stripe");
    expect(text.platforms).toContain("Shopify");
  });
});

describe("ORIGINALS_RETENTION_DAYS", () => {
  it("is unset by default (kept), a whole number of days when set, and refused otherwise", () => {
    const base = { DATA_DIR: getConfig().dataDir };
    expect(parseConfig(base).ORIGINALS_RETENTION_DAYS).toBeUndefined();
    expect(
      parseConfig({ ...base, ORIGINALS_RETENTION_DAYS: "" }).ORIGINALS_RETENTION_DAYS,
    ).toBeUndefined();
    expect(parseConfig({ ...base, ORIGINALS_RETENTION_DAYS: "90" }).ORIGINALS_RETENTION_DAYS).toBe(
      90,
    );
    for (const bad of ["0", "-3", "1.5", "forever"]) {
      expect(() => parseConfig({ ...base, ORIGINALS_RETENTION_DAYS: bad })).toThrow(
        /ORIGINALS_RETENTION_DAYS/,
      );
    }
  });
});

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

/** What every configuration must say: Art. 13's items, each with the setting it comes from. */
function expectArticle13(text: Record<string, string>, privacyEmail: string) {
  // (1)(c) purposes and legal bases, one per processing.
  expect(text.purposes).toContain("Art. 6(1)(b)");
  expect(text.purposes).toContain("explicit consent (Art. 9(2)(a))");
  expect(text.purposes).toContain("legitimate interest");
  expect(text.purposes).toContain("Art. 6(1)(f)");
  expect(text.purposes).toContain(
    "legal obligation to keep accounting and tax records (Art. 6(1)(c))",
  );
  // (2)(e) whether providing the data is required; (2)(f) automated decisions.
  expect(text.purposes).toContain("without them there is no account");
  expect(text.purposes).toContain("by automated means alone");
  // (2)(b) and (c): each right and where it is used.
  for (const right of [
    "Access and portability",
    "Rectification",
    "Erasure",
    "Withdrawal of consent",
    "Objection and restriction",
    "supervisory authority",
  ]) {
    expect(text.rights).toContain(right);
  }
  expect(text.rights).toContain(privacyEmail);
  // Buyers, who have no account, through the contact page and the address.
  expect(text.buyers).toContain(privacyEmail);
  // (2)(a) retention, from the settings.
  expect(text.retention).toContain("ends after 30 days, or after 7 days unused");
  expect(text.retention).toContain("API token after 30 days");
  expect(text.retention).toContain("deleted 30 days after it was sent");
  expect(text.retention).toContain("name no email address");
}

interface Link {
  href: string;
  label: string;
}

function linksOf(facts: Facts, id: string): Link[] {
  return (facts.sections.find((section) => section.id === id) as { links?: Link[] }).links ?? [];
}

const controller = {
  OPERATOR_NAME: "Studio Owner GmbH",
  OPERATOR_ADDRESS: "Beispielstraße 1, 10115 Berlin, Germany",
  PRIVACY_EMAIL: "privacy@studio.example",
};

const nothingOutside = {
  FAL_KEY: undefined,
  STRIPE_SECRET_KEY: undefined,
  SMTP_URL: undefined,
  DATABASE_URL: undefined,
  FILES_S3_BUCKET: undefined,
  AWS_ENDPOINT_URL_S3: undefined,
  AWS_REGION: undefined,
  SHOPIFY_CLIENT_ID: undefined,
  ORIGINALS_RETENTION_DAYS: undefined,
  SESSION_DAYS: 30,
  SESSION_IDLE_DAYS: 7,
  TOKEN_DAYS: 30,
  MAIL_RETENTION_DAYS: 30,
};

describe("GET /privacy, read under four configurations", () => {
  it("by default: the controller, this server's own engine, the outbox, the test checkout, the data directory, and no recipient company", async () => {
    configure({ ...nothingOutside, ...controller });
    const { text, facts } = await page();
    expect(text.controller).toContain(
      "Studio Owner GmbH, Beispielstraße 1, 10115 Berlin, Germany runs Selfie Studio and is the controller",
    );
    expect(linksOf(facts, "controller")).toEqual([
      { href: "mailto:privacy@studio.example", label: "privacy@studio.example" },
    ]);
    expectArticle13(text, "privacy@studio.example");
    expect(linksOf(facts, "rights").map((link) => link.href)).toEqual([
      "/settings/export",
      "/settings",
      "/settings/delete",
      "/settings/privacy",
      "mailto:privacy@studio.example",
    ]);
    expect(linksOf(facts, "buyers").map((link) => link.href)).toContain("/contact");
    expect(text.stored).toContain("a database file on this server");
    expect(text.stored).toContain("a folder on this server");
    expect(text.styling).toContain("computed on this server");
    expect(text.styling).toContain("does not leave this server");
    expect(text.styling).not.toContain("fal.ai");
    expect(facts.vendorRetentionUrl).toBeNull();
    expect(text.recipients).toContain(
      "No selfie, style, payment or message is sent to another company",
    );
    for (const outside of ["fal.ai", "Stripe", "transfer outside the EU", "mail provider"]) {
      expect(text.recipients).not.toContain(outside);
    }
    expect(text.originals).toContain("kept until you delete them or your account");
    expect(text.mail).toContain("outbox");
    expect(text.payments).toContain("test checkout");
    expect(text.backups).toContain("a full copy of the data directory");
    expect(text.backups).toContain(
      "A backup taken before you delete an image or your account still holds that data",
    );
  });

  it("with FAL_KEY: fal.ai in the United States for styles and upscaling, the transfer and its safeguards, and X-Fal-Store-IO: 0", async () => {
    configure({
      ...nothingOutside,
      ...controller,
      FAL_KEY: "key-id:key-secret",
      FAL_TIMEOUT_SECONDS: 120,
      ORIGINALS_RETENTION_DAYS: 30,
    });
    const { text, facts } = await page();
    expectArticle13(text, "privacy@studio.example");
    expect(text.styling).toContain("sent to fal.ai");
    expect(text.styling).toContain("expiry of 120 seconds");
    expect(text.styling).toContain("X-Fal-Store-IO: 0");
    expect(text.styling).not.toContain("fal.ai also keeps");
    expect(facts.vendorRetentionUrl).toContain("docs.fal.ai");
    expect(text.recipients).toContain(
      "fal.ai, an AI image service in the United States, makes your styles",
    );
    expect(text.recipients).toContain("enlarges it");
    expect(text.recipients).toContain("X-Fal-Store-IO: 0");
    expect(text.recipients).toContain(
      "This is a transfer outside the EU and the EEA, to the United States (fal.ai)",
    );
    expect(text.recipients).toContain("Ask privacy@studio.example for a copy of the safeguards.");
    expect(text.recipients).not.toContain("Stripe");
    expect(text.originals).toContain("removed 30 days after you upload them");
    expect(text.originals).toContain("the styles made from them stay");
  });

  it("on PostgreSQL and object storage: the database host, the store's host and region, and no data directory", async () => {
    configure({
      ...nothingOutside,
      ...controller,
      DATABASE_URL: "postgres://app:db-s3cret@db.eu-central.example:5432/selfie",
      FILES_S3_BUCKET: "selfie-files",
      AWS_ENDPOINT_URL_S3: "https://s3.storage.example",
      AWS_REGION: "eu-central-1",
    });
    const { text } = await page();
    expectArticle13(text, "privacy@studio.example");
    expect(text.stored).toContain("a PostgreSQL database at db.eu-central.example");
    expect(text.stored).toContain("object storage at s3.storage.example (region eu-central-1)");
    expect(text.stored).not.toContain("data directory");
    expect(text.recipients).toContain("The database host db.eu-central.example");
    expect(text.recipients).toContain("The object storage at s3.storage.example");
    expect(text.recipients).toContain("set by the operator's contract with each");
    expect(text.backups).toContain("the database at db.eu-central.example");
    expect(text.backups).toContain("in object storage");
    expect(text.backups).not.toContain("data directory");
    expect(JSON.stringify(text)).not.toContain("db-s3cret");
  });

  it("with Stripe and SMTP: Stripe and its transfer, the mail provider's host (never its credentials), and Shopify when configured", async () => {
    configure({
      ...nothingOutside,
      ...controller,
      SMTP_URL: "smtps://mailer:s3cret-pass@smtp.example.eu:465",
      STRIPE_SECRET_KEY: "sk_test_123",
      SHOPIFY_CLIENT_ID: "shopify-client",
    });
    const { text } = await page();
    expectArticle13(text, "privacy@studio.example");
    expect(text.mail).toContain("smtp.example.eu");
    expect(text.recipients).toContain("The mail provider behind smtp.example.eu");
    expect(text.recipients).toContain("Stripe takes buyers' payments");
    expect(text.recipients).toContain("to the United States (Stripe)");
    expect(text.recipients).not.toContain("fal.ai");
    expect(text.recipients).not.toContain("No selfie, style, payment or message");
    expect(JSON.stringify(text)).not.toContain("s3cret-pass");
    expect(text.payments).toContain("Stripe");
    expect(text.platforms).toContain("Shopify");
    expect(text.recipients).toContain("Shopify receives");
  });

  it("on a demo that names no operator, says so and still gives an address", async () => {
    configure({
      ...nothingOutside,
      OPERATOR_NAME: undefined,
      OPERATOR_ADDRESS: undefined,
      PRIVACY_EMAIL: "admin@selfie.studio",
    });
    const { text } = await page();
    expect(text.controller).toContain("This server is a demonstration");
    expect(text.controller).toContain("names no operator");
    expect(text.controller).toContain("admin@selfie.studio");
  });
});

describe("OPERATOR_NAME, OPERATOR_ADDRESS and PRIVACY_EMAIL", () => {
  const base = { DATA_DIR: getConfig().dataDir };
  const production = {
    ...base,
    NODE_ENV: "production",
    PUBLIC_URL: "https://selfie.example",
    STRIPE_SECRET_KEY: "sk_live_123",
  };

  it("are required in production, naming each one missing", () => {
    expect(() => parseConfig(production)).toThrow(
      /OPERATOR_NAME, OPERATOR_ADDRESS, PRIVACY_EMAIL: are required when NODE_ENV=production/,
    );
    expect(() =>
      parseConfig({
        ...production,
        OPERATOR_NAME: "Studio Owner",
        PRIVACY_EMAIL: "p@studio.example",
      }),
    ).toThrow(/OPERATOR_ADDRESS: is required when NODE_ENV=production/);
    const config = parseConfig({ ...production, ...controller });
    expect(config.OPERATOR_NAME).toBe("Studio Owner GmbH");
    expect(config.PRIVACY_EMAIL).toBe("privacy@studio.example");
  });

  it("may be left out of a demo on the test checkout, or outside production; PRIVACY_EMAIL then falls back to the support address", () => {
    const demo = parseConfig({
      ...production,
      STRIPE_SECRET_KEY: "",
      ALLOW_TEST_CHECKOUT: "true",
      SUPPORT_EMAIL: "help@studio.example",
    });
    expect(demo.OPERATOR_NAME).toBeUndefined();
    expect(demo.PRIVACY_EMAIL).toBe("help@studio.example");
    // Stripe keys make it a live store, whatever ALLOW_TEST_CHECKOUT says.
    expect(() => parseConfig({ ...production, ALLOW_TEST_CHECKOUT: "true" })).toThrow(
      /OPERATOR_NAME/,
    );
    expect(parseConfig(base).PRIVACY_EMAIL).toBe("admin@selfie.studio");
  });

  it("refuses a privacy address that is not one", () => {
    expect(() => parseConfig({ ...base, PRIVACY_EMAIL: "not an address" })).toThrow(
      /PRIVACY_EMAIL/,
    );
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

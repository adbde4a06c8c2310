import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, parseConfig } from "~/infra/config.server";

const tempDir = () => fs.mkdtempSync(path.join(os.tmpdir(), "selfie-config-"));

describe("parseConfig", () => {
  it("has safe defaults and creates the data directory", () => {
    const dir = path.join(tempDir(), "nested", "data");
    const config = parseConfig({ DATA_DIR: dir });
    expect(config.PORT).toBe(3000);
    expect(config.REGISTRATION).toBe("closed");
    expect(config.ADMIN_EMAIL).toBe("admin@selfie.studio");
    expect(config.dataDir).toBe(dir);
    expect(fs.existsSync(dir)).toBe(true);
    expect(config.databaseFile).toBe(path.join(dir, "selfie-studio.sqlite"));
  });

  it("reads the beta's settings: BETA_SPOTS a whole number from 1, BETA_ENDS_AT an ISO date; 200 spots and no end by default; DEMO_FIGURES off by default", () => {
    const defaults = parseConfig({ DATA_DIR: tempDir() });
    expect([
      defaults.BETA_SPOTS,
      defaults.BETA_ENDS_AT,
      defaults.WAITLIST_REQUESTS_PER_ADDRESS,
    ]).toEqual([200, undefined, 10]);
    expect(defaults.DEMO_FIGURES).toBe("off");
    expect(parseConfig({ DATA_DIR: tempDir(), DEMO_FIGURES: "on" }).DEMO_FIGURES).toBe("on");
    expect(() => parseConfig({ DATA_DIR: tempDir(), DEMO_FIGURES: "yes" })).toThrow(
      /DEMO_FIGURES: must be on or off/,
    );
    const set = parseConfig({
      DATA_DIR: tempDir(),
      BETA_SPOTS: "150",
      BETA_ENDS_AT: "2027-03-01",
      WAITLIST_REQUESTS_PER_ADDRESS: "3",
    });
    expect([set.BETA_SPOTS, set.BETA_ENDS_AT, set.WAITLIST_REQUESTS_PER_ADDRESS]).toEqual([
      150,
      "2027-03-01",
      3,
    ]);
    expect(
      parseConfig({ DATA_DIR: tempDir(), BETA_ENDS_AT: "2027-03-01T12:00:00Z" }).BETA_ENDS_AT,
    ).toBe("2027-03-01T12:00:00Z");
    expect(parseConfig({ DATA_DIR: tempDir(), BETA_SPOTS: "", BETA_ENDS_AT: " " }).BETA_SPOTS).toBe(
      200,
    );
    expect(() => parseConfig({ DATA_DIR: tempDir(), BETA_SPOTS: "0" })).toThrow(/BETA_SPOTS:/);
    expect(() => parseConfig({ DATA_DIR: tempDir(), BETA_SPOTS: "lots" })).toThrow(/BETA_SPOTS:/);
    expect(() => parseConfig({ DATA_DIR: tempDir(), BETA_ENDS_AT: "next spring" })).toThrow(
      /BETA_ENDS_AT: must be an ISO date/,
    );
  });

  it("generates the app secret once per data directory and keeps it private", () => {
    const dir = tempDir();
    const first = parseConfig({ DATA_DIR: dir }).appSecret;
    const second = parseConfig({ DATA_DIR: dir }).appSecret;
    expect(first).toMatch(/^[0-9a-f]{64}$/);
    expect(second).toBe(first);
    expect(fs.statSync(path.join(dir, "app-secret")).mode & 0o077).toBe(0);
    expect(parseConfig({ DATA_DIR: tempDir() }).appSecret).not.toBe(first);
  });

  it("uses APP_SECRET when given", () => {
    const secret = "x".repeat(40);
    expect(parseConfig({ DATA_DIR: tempDir(), APP_SECRET: secret }).appSecret).toBe(secret);
  });

  it("stops with a message naming each bad variable", () => {
    const attempt = () =>
      parseConfig({
        DATA_DIR: tempDir(),
        PORT: "eighty",
        REGISTRATION: "maybe",
        APP_SECRET: "short",
        ADMIN_EMAIL: "not-an-email",
        ADMIN_PASSWORD: "123",
      });
    expect(attempt).toThrow(ConfigError);
    try {
      attempt();
    } catch (error) {
      const message = (error as Error).message;
      for (const name of ["PORT", "REGISTRATION", "APP_SECRET", "ADMIN_EMAIL", "ADMIN_PASSWORD"]) {
        expect(message).toContain(`${name}:`);
      }
    }
  });

  it("runs every role by default, takes web or worker, and refuses any other role", () => {
    expect(parseConfig({ DATA_DIR: tempDir() }).ROLE).toBe("all");
    expect(parseConfig({ DATA_DIR: tempDir(), ROLE: "" }).ROLE).toBe("all");
    expect(parseConfig({ DATA_DIR: tempDir(), ROLE: "web" }).ROLE).toBe("web");
    expect(parseConfig({ DATA_DIR: tempDir(), ROLE: " Worker " }).ROLE).toBe("worker");
    expect(() => parseConfig({ DATA_DIR: tempDir(), ROLE: "scheduler" })).toThrow(
      /ROLE: must be all, web or worker/,
    );
    expect(parseConfig({ DATA_DIR: tempDir() }).PERIODIC_PROBE_SECONDS).toBeUndefined();
    expect(
      parseConfig({ DATA_DIR: tempDir(), PERIODIC_PROBE_SECONDS: "2" }).PERIODIC_PROBE_SECONDS,
    ).toBe(2);
    expect(() => parseConfig({ DATA_DIR: tempDir(), PERIODIC_PROBE_SECONDS: "0" })).toThrow(
      /PERIODIC_PROBE_SECONDS:/,
    );
  });

  it("reads the platform's country and settlement currency, and refuses a currency the country does not settle in", () => {
    expect(parseConfig({ DATA_DIR: tempDir() })).toMatchObject({
      STRIPE_PLATFORM_COUNTRY: "US",
      CURRENCY: "usd",
    });
    expect(
      parseConfig({ DATA_DIR: tempDir(), STRIPE_PLATFORM_COUNTRY: "fr", CURRENCY: "EUR" }),
    ).toMatchObject({ STRIPE_PLATFORM_COUNTRY: "FR", CURRENCY: "eur" });
    expect(() => parseConfig({ DATA_DIR: tempDir(), STRIPE_PLATFORM_COUNTRY: "GB" })).toThrow(
      /CURRENCY: a platform in GB settles in gbp, not usd; set CURRENCY=gbp/,
    );
    expect(() =>
      parseConfig({ DATA_DIR: tempDir(), STRIPE_PLATFORM_COUNTRY: "JP", CURRENCY: "jpy" }),
    ).toThrow(/STRIPE_PLATFORM_COUNTRY: must be one of/);
    expect(() => parseConfig({ DATA_DIR: tempDir(), CURRENCY: "dollars" })).toThrow(
      /CURRENCY: must be a three-letter currency code/,
    );
  });

  it("treats empty optional settings as unset", () => {
    const config = parseConfig({ DATA_DIR: tempDir(), FAL_KEY: "", STRIPE_SECRET_KEY: "  " });
    expect(config.FAL_KEY).toBeUndefined();
    expect(config.STRIPE_SECRET_KEY).toBeUndefined();
  });

  it("has generous creator quotas by default and reads them as numbers", () => {
    const config = parseConfig({ DATA_DIR: tempDir() });
    expect(config).toMatchObject({
      UPLOADS_PER_DAY: 100,
      STORAGE_PER_CREATOR_MB: 2048,
      STYLIZATIONS_PER_DAY: 200,
      OPTIMIZATIONS_AT_ONCE: 2,
      PUBLISH_JOBS_PER_CREATOR: 10,
      MIN_FREE_DISK_MB: 200,
    });
    expect(
      parseConfig({ DATA_DIR: tempDir(), UPLOADS_PER_DAY: "5", MIN_FREE_DISK_MB: "0" }),
    ).toMatchObject({
      UPLOADS_PER_DAY: 5,
      MIN_FREE_DISK_MB: 0,
    });
    expect(() => parseConfig({ DATA_DIR: tempDir(), STYLIZATIONS_PER_DAY: "0" })).toThrow(
      /STYLIZATIONS_PER_DAY:/,
    );
  });
});

describe("parseConfig in production", () => {
  const production = (extra: Record<string, string> = {}) => ({
    DATA_DIR: tempDir(),
    NODE_ENV: "production",
    PUBLIC_URL: "https://selfie.example",
    ...extra,
  });
  const problemsOf = (env: Record<string, string>) => {
    try {
      parseConfig(env);
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      return (error as Error).message;
    }
    throw new Error("parseConfig accepted the configuration");
  };

  it("refuses to start without STRIPE_SECRET_KEY unless ALLOW_TEST_CHECKOUT=true", () => {
    const message = problemsOf(production());
    expect(message).toContain("STRIPE_SECRET_KEY:");
    expect(message).toContain("ALLOW_TEST_CHECKOUT=true");
    expect(
      problemsOf(production({ STRIPE_SECRET_KEY: " ", ALLOW_TEST_CHECKOUT: "false" })),
    ).toContain("ALLOW_TEST_CHECKOUT=true");

    const demo = parseConfig(production({ ALLOW_TEST_CHECKOUT: "true" }));
    expect(demo.ALLOW_TEST_CHECKOUT).toBe(true);
    expect(demo.STRIPE_SECRET_KEY).toBeUndefined();
    expect(
      parseConfig(
        production({
          STRIPE_SECRET_KEY: "sk_live_x",
          OPERATOR_NAME: "Studio Owner",
          OPERATOR_ADDRESS: "1 Main Street, Springfield",
          PRIVACY_EMAIL: "privacy@selfie.example",
        }),
      ).ALLOW_TEST_CHECKOUT,
    ).toBe(false);
    // Outside production the test checkout needs no switch.
    expect(
      parseConfig({ DATA_DIR: tempDir(), NODE_ENV: "development" }).STRIPE_SECRET_KEY,
    ).toBeUndefined();
  });

  it("requires PUBLIC_URL", () => {
    const message = problemsOf({
      DATA_DIR: tempDir(),
      NODE_ENV: "production",
      ALLOW_TEST_CHECKOUT: "true",
      PUBLIC_URL: "",
    });
    expect(message).toContain("PUBLIC_URL:");
    expect(message).not.toContain("STRIPE_SECRET_KEY:");
    expect(parseConfig({ DATA_DIR: tempDir(), NODE_ENV: "test" }).PUBLIC_URL).toBeUndefined();
  });

  it("refuses to start with SMTP_URL but without MAIL_FROM, saying why", () => {
    const message = problemsOf(
      production({ ALLOW_TEST_CHECKOUT: "true", SMTP_URL: "smtps://u:p@smtp.example.com:465" }),
    );
    expect(message).toContain(
      "MAIL_FROM: is required when NODE_ENV=production and SMTP_URL is set",
    );
    expect(message).toContain("refuse a sender they have not verified");
    const configured = parseConfig(
      production({
        ALLOW_TEST_CHECKOUT: "true",
        SMTP_URL: "smtps://u:p@smtp.example.com:465",
        MAIL_FROM: "Studio <studio@selfie.example>",
      }),
    );
    expect(configured.MAIL_FROM).toBe("Studio <studio@selfie.example>");
    // Without SMTP (the outbox) or outside production, the default sender is kept.
    expect(parseConfig(production({ ALLOW_TEST_CHECKOUT: "true" })).MAIL_FROM).toMatch(
      /no-reply@selfie\.example/,
    );
    expect(
      parseConfig({
        DATA_DIR: tempDir(),
        NODE_ENV: "development",
        SMTP_URL: "smtp://localhost:2525",
      }).MAIL_FROM,
    ).toMatch(/no-reply@/);
  });

  it("names every missing setting at once", () => {
    const message = problemsOf({ DATA_DIR: tempDir(), NODE_ENV: "production" });
    expect(message).toContain("PUBLIC_URL:");
    expect(message).toContain("STRIPE_SECRET_KEY:");
  });
});

describe("the app-secret file", () => {
  it("stops the start when it holds fewer than 32 characters, and leaves it as it is", () => {
    const dir = tempDir();
    const file = path.join(dir, "app-secret");
    fs.writeFileSync(file, "too-short\n", { mode: 0o600 });
    expect(() => parseConfig({ DATA_DIR: dir })).toThrow(ConfigError);
    try {
      parseConfig({ DATA_DIR: dir });
    } catch (error) {
      expect((error as Error).message).toContain(file);
    }
    expect(fs.readFileSync(file, "utf8")).toBe("too-short\n");
    fs.writeFileSync(file, "");
    expect(() => parseConfig({ DATA_DIR: dir })).toThrow(ConfigError);
    expect(fs.readFileSync(file, "utf8")).toBe("");
    // APP_SECRET wins over the file.
    expect(parseConfig({ DATA_DIR: dir, APP_SECRET: "y".repeat(32) }).appSecret).toBe(
      "y".repeat(32),
    );
  });

  it("reads SMTP_URL as an smtp:// or smtps:// URL, credentials included", () => {
    expect(parseConfig({ DATA_DIR: tempDir() }).SMTP_URL).toBeUndefined();
    expect(parseConfig({ DATA_DIR: tempDir(), SMTP_URL: " " }).SMTP_URL).toBeUndefined();
    const url = "smtps://user:p%40ss@smtp.example.com:465";
    expect(parseConfig({ DATA_DIR: tempDir(), SMTP_URL: url }).SMTP_URL).toBe(url);
    expect(parseConfig({ DATA_DIR: tempDir(), SMTP_URL: "smtp://localhost:1025" }).SMTP_URL).toBe(
      "smtp://localhost:1025",
    );
  });

  it("stops on an SMTP_URL that is not smtp:// or smtps://, saying what is expected", () => {
    expect(() => parseConfig({ DATA_DIR: tempDir(), SMTP_URL: "http://x" })).toThrow(ConfigError);
    expect(() => parseConfig({ DATA_DIR: tempDir(), SMTP_URL: "http://x" })).toThrow(
      "SMTP_URL: must start with smtp:// or smtps:// (not http://), such as smtps://user:pass@smtp.example.com:465",
    );
    expect(() => parseConfig({ DATA_DIR: tempDir(), SMTP_URL: "smtp.example.com:465" })).toThrow(
      "SMTP_URL: must start with smtp:// or smtps://, such as smtps://user:pass@smtp.example.com:465",
    );
    expect(() => parseConfig({ DATA_DIR: tempDir(), SMTP_URL: "not a url" })).toThrow(
      /SMTP_URL: must be a URL/,
    );
  });

  it("never repeats the SMTP password in a start-up error", () => {
    for (const SMTP_URL of [
      "https://user:hunter22@smtp.example.com",
      "smtps://user:hunter22@",
      "smtps://user:hunter22@ bad host",
    ]) {
      let message = "";
      try {
        parseConfig({ DATA_DIR: tempDir(), SMTP_URL });
      } catch (error) {
        message = (error as Error).message;
      }
      expect(message).toContain("SMTP_URL:");
      expect(message).not.toContain("hunter22");
    }
  });

  it("sends from MAIL_FROM, by default the product at no-reply@ the host of PUBLIC_URL", () => {
    expect(parseConfig({ DATA_DIR: tempDir() }).MAIL_FROM).toBe(
      "Selfie Studio <no-reply@localhost>",
    );
    expect(
      parseConfig({ DATA_DIR: tempDir(), PUBLIC_URL: "https://selfie.example:8443/app" }).MAIL_FROM,
    ).toBe("Selfie Studio <no-reply@selfie.example>");
    expect(
      parseConfig({ DATA_DIR: tempDir(), MAIL_FROM: "Selfie Studio <studio@example.com>" })
        .MAIL_FROM,
    ).toBe("Selfie Studio <studio@example.com>");
    expect(parseConfig({ DATA_DIR: tempDir(), MAIL_FROM: "studio@example.com" }).MAIL_FROM).toBe(
      "studio@example.com",
    );
    for (const MAIL_FROM of [
      "Selfie Studio",
      "a@example.com, b@example.com",
      "Team: a@example.com;",
    ]) {
      expect(() => parseConfig({ DATA_DIR: tempDir(), MAIL_FROM })).toThrow(
        /MAIL_FROM: must be one address/,
      );
    }
  });
});

describe("object storage settings", () => {
  const whole = {
    AWS_ACCESS_KEY_ID: "AKIAIOSFODNN7EXAMPLE",
    AWS_SECRET_ACCESS_KEY: "secret",
    FILES_S3_BUCKET: "selfie-files",
    FILES_S3_PUBLIC_BUCKET: "selfie-public",
    FILES_PUBLIC_BASE_URL: "https://cdn.selfie.example",
  };
  const problemsOf = (env: Record<string, string>) => {
    try {
      parseConfig({ DATA_DIR: tempDir(), ...env });
      return [];
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      return (error as ConfigError).problems;
    }
  };

  it("refuses AWS S3 itself (no AWS_ENDPOINT_URL_S3) without AWS_REGION, or with auto, which AWS refuses", () => {
    expect(problemsOf(whole)).toEqual([
      "AWS_REGION: is required when AWS_ENDPOINT_URL_S3 is unset (the files go to AWS S3 itself); set it to the buckets' region, such as eu-west-1, or set AWS_ENDPOINT_URL_S3 for R2, Tigris or MinIO (AWS_REGION then defaults to auto)",
    ]);
    expect(problemsOf({ ...whole, AWS_REGION: "auto" })).toEqual([
      expect.stringMatching(/^AWS_REGION: auto is not a region of AWS S3 when AWS_ENDPOINT_URL_S3/),
    ]);
  });

  it("takes AWS S3 with its region, and R2, Tigris or MinIO with an endpoint and no region", () => {
    expect(parseConfig({ DATA_DIR: tempDir(), ...whole, AWS_REGION: "eu-west-1" }).AWS_REGION).toBe(
      "eu-west-1",
    );
    const r2 = parseConfig({
      DATA_DIR: tempDir(),
      ...whole,
      AWS_ENDPOINT_URL_S3: "https://0123456789abcdef.r2.cloudflarestorage.com",
    });
    expect(r2.AWS_REGION).toBeUndefined();
  });
});

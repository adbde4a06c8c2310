import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, parseConfig } from "./config.server";

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

  it("treats empty optional settings as unset", () => {
    const config = parseConfig({ DATA_DIR: tempDir(), FAL_KEY: "", STRIPE_SECRET_KEY: "  " });
    expect(config.FAL_KEY).toBeUndefined();
    expect(config.STRIPE_SECRET_KEY).toBeUndefined();
  });
});

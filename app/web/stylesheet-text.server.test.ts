import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { stylesheetReader } from "./stylesheet-text.server";

let publicDir: string;

beforeEach(() => {
  publicDir = fs.mkdtempSync(path.join(os.tmpdir(), "stylesheet-text-"));
  fs.mkdirSync(path.join(publicDir, "build", "_assets"), { recursive: true });
  fs.writeFileSync(path.join(publicDir, "build", "_assets", "app-ABC.css"), "body{margin:0}");
  fs.writeFileSync(path.join(publicDir, "build", "_assets", "app-ABC.js"), "alert(1)");
  fs.writeFileSync(path.join(publicDir, "secret.css"), "outside{}");
});

afterEach(() => fs.rmSync(publicDir, { recursive: true, force: true }));

describe("stylesheetReader", () => {
  it("reads a stylesheet of the build by its URL, once", () => {
    const read = stylesheetReader(publicDir);
    expect(read("/build/_assets/app-ABC.css")).toBe("body{margin:0}");
    // A fingerprinted file never changes under its name: the text read first is kept.
    fs.writeFileSync(path.join(publicDir, "build", "_assets", "app-ABC.css"), "changed{}");
    expect(read("/build/_assets/app-ABC.css")).toBe("body{margin:0}");
  });

  it("answers null for a file it cannot read, and for anything but a stylesheet under /build/", () => {
    const read = stylesheetReader(publicDir);
    expect(read("/build/_assets/missing-XYZ.css")).toBeNull();
    expect(read("/build/_assets/app-ABC.js")).toBeNull();
    expect(read("/secret.css")).toBeNull();
    expect(read("/build/../secret.css")).toBeNull();
    expect(read("/build/_assets/../../secret.css")).toBeNull();
  });
});

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { sweepStaleScratchFiles } from "~/infra/uploads/scratch-sweep.server";

describe("sweepStaleScratchFiles", () => {
  it("removes scratch files older than an hour and keeps newer ones", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "scratch-"));
    fs.writeFileSync(path.join(dir, "old.upload"), "x");
    fs.writeFileSync(path.join(dir, "new.upload"), "y");
    // Both files' times are set and the sweep is given its clock: a file's time comes from the
    // file system, which a test's clock (or the day it runs) must not be mixed with.
    const now = new Date("2030-01-01T12:00:00.000Z");
    const aMinuteAgo = new Date(now.getTime() - 60 * 1000);
    const hourAndABitAgo = new Date(now.getTime() - 61 * 60 * 1000);
    fs.utimesSync(path.join(dir, "new.upload"), aMinuteAgo, aMinuteAgo);
    fs.utimesSync(path.join(dir, "old.upload"), hourAndABitAgo, hourAndABitAgo);
    expect(await sweepStaleScratchFiles(dir, now.getTime())).toBe(1);
    expect(fs.readdirSync(dir)).toEqual(["new.upload"]);
    expect(await sweepStaleScratchFiles(path.join(dir, "missing"))).toBe(0);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});

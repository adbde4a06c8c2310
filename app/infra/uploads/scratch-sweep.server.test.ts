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
    const hourAndABitAgo = new Date(Date.now() - 61 * 60 * 1000);
    fs.utimesSync(path.join(dir, "old.upload"), hourAndABitAgo, hourAndABitAgo);
    expect(await sweepStaleScratchFiles(dir)).toBe(1);
    expect(fs.readdirSync(dir)).toEqual(["new.upload"]);
    expect(await sweepStaleScratchFiles(path.join(dir, "missing"))).toBe(0);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});

import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import url from "node:url";
import { describe, expect, it, onTestFinished } from "vitest";
import { dataDir } from "#tests/setup/setup-test-env";
import { getDb } from "~/infra/db.server";
import { getFileStore } from "~/infra/file-store.server";
import { storeUploadedImage } from "~/features/studio/images/images.server";
import { requestStylization } from "~/features/studio/styles/stylized-images.server";
import { createTestUser } from "#tests/setup/accounts";
import { FIXTURES } from "#tests/setup/studio";
import { rowWhere } from "#tests/setup/rows-where";

const here = path.dirname(url.fileURLToPath(import.meta.url));
const script = path.resolve(here, "stylize-worker-process.fixture.ts");

function startWorkerProcess(env: Record<string, string>) {
  const child = spawn(process.execPath, ["--import", "tsx", script], {
    cwd: path.resolve(here, "../../../.."),
    env: { ...process.env, DATA_DIR: dataDir, NODE_ENV: "test", ...env },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr.on("data", (chunk) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return { child, exited, stderr: () => stderr };
}

async function waitFor(
  check: () => boolean | Promise<boolean>,
  what: () => string,
  limitMs = 20_000,
) {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > limitMs) throw new Error(`Timed out waiting for ${what()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe("a styling job survives its process being killed", () => {
  it("is reclaimed by the next process after SIGKILL and completes", async () => {
    const { user } = await createTestUser();
    const db = getDb();
    const store = getFileStore();
    const source = path.join(dataDir, "portrait-copy.png");
    fs.copyFileSync(path.join(FIXTURES, "portrait.png"), source);
    const image = await storeUploadedImage(db, store, {
      userId: user.id,
      sourcePath: source,
      now: new Date(),
    });
    const stylized = await requestStylization(db, {
      userId: user.id,
      imageId: image.id,
      style: "cartoon",
      provider: "local",
      now: new Date(),
    });
    const marker = path.join(dataDir, "worker-marker.log");
    fs.writeFileSync(marker, "");
    const row = () => rowWhere("stylized_images", "*", "id", stylized!.id);
    const job = () => db.selectFrom("jobs").selectAll().executeTakeFirstOrThrow();

    // The first process takes the job and is killed while the engine works.
    const first = startWorkerProcess({ MARKER_FILE: marker, HANG: "1", LEASE_MS: "1500" });
    onTestFinished(() => {
      if (first.child.exitCode === null && first.child.signalCode === null)
        first.child.kill("SIGKILL");
    });
    await waitFor(
      () => fs.readFileSync(marker, "utf8").includes("styling cartoon"),
      () => `the first process to start styling (${first.stderr()})`,
    );
    expect((await row()).status).toBe("processing");
    first.child.kill("SIGKILL");
    expect(await first.exited).toBeNull(); // killed, not exited
    expect((await job()).status).toBe("running"); // the dead process still holds the lease

    // A fresh process reclaims it once the lease ran out, and finishes it.
    const second = startWorkerProcess({ MARKER_FILE: marker, HANG: "0", LEASE_MS: "1500" });
    onTestFinished(() => {
      if (second.child.exitCode === null && second.child.signalCode === null)
        second.child.kill("SIGKILL");
    });
    await waitFor(
      async () => (await row()).status === "completed",
      () => `the second process to complete the job (${second.stderr()})`,
    );
    second.child.kill("SIGTERM");
    expect(await second.exited, second.stderr()).toBe(0);

    const done = await row();
    expect(done.provider).toBe("local");
    expect(done.attempts).toBe(2);
    expect(await store.exists(done.file_key!)).toBe(true);
    const finished = await job();
    expect(finished.status).toBe("done");
    expect(finished.attempts).toBe(2);
    const pids = new Set(
      fs
        .readFileSync(marker, "utf8")
        .split("\n")
        .filter((line) => line.includes("styling"))
        .map((line) => line.split(" ")[0]),
    );
    expect(pids.size).toBe(2); // styled by two different processes
  });
});

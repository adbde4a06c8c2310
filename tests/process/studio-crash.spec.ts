import fs from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { STYLE_IDS } from "~/lib/styles";
import { MAX_OPEN_STYLIZATIONS } from "~/features/studio/styles/stylized-images.server";
import { eventually, signInCreator, type CreatorSession } from "./support/creator-session";
import { ROOT, startServer, type RunningServer } from "./support/server-process";

/**
 * Crash test, jobs (docs/decisions/009-crash-points.md): the server dies during
 * styling jobs and during a publishing (connector) job, at a crash point and
 * from outside, and is started again on the same data directory. Every job
 * completes, each result is recorded once, and no file is left without its row
 * nor a row without its file. A short job lease (JOB_LEASE_SECONDS=3) lets the
 * new process take up the dead one's jobs within seconds.
 */
const WALLET = "0x52908400098527886E0F7030069857D2E4169EE7";

interface JobRow {
  id: string;
  kind: string;
  status: string;
  attempts: number;
}

function scratchFor(port: number) {
  const dir = path.join(ROOT, "tests", ".tmp", `process-studio-crash-${port}`);
  fs.rmSync(dir, { recursive: true, force: true });
  return path.join(dir, "data");
}

const start = (dataDir: string, port: number, env: Record<string, string> = {}, seed = false) =>
  startServer({
    dataDir,
    port,
    seed,
    env: { JOB_LEASE_SECONDS: "3", JOB_CONCURRENCY: "2", ...env },
  });

const jobs = (server: RunningServer) =>
  server.query<JobRow>("select id, kind, status, attempts from jobs order by created_at");

/** Waits until every job is done and every stylized image completed, then checks each through the API. */
async function expectAllStyled(
  server: RunningServer,
  creator: CreatorSession,
  stylizedIds: string[],
) {
  await eventually("every job done", () =>
    jobs(server).every((job) => job.status === "done") ? true : undefined,
  );
  for (const id of stylizedIds) {
    const response = await creator.call(`/api/token-stylized-images/${id}`);
    expect(response.status).toBe(200);
    const stylized = (await response.json()) as { status: string; styledUrl: string | null };
    expect(stylized.status, `stylized image ${id}`).toBe("completed");
    const image = await server.fetch(stylized.styledUrl!);
    expect(image.status).toBe(200);
    expect(image.headers.get("content-type")).toMatch(/^image\//);
  }
  // Each recorded once, each with its own file (the seed's demo images are not counted).
  const rows = server.query<{ n: number; files: number }>(
    `select count(*) as n, count(distinct file_key) as files from stylized_images
     where status = 'completed' and id in (${stylizedIds.map(() => "?").join(", ")})`,
    ...stylizedIds,
  );
  expect(rows[0]).toEqual({ n: stylizedIds.length, files: stylizedIds.length });
}

/** `null` when a request failed because the server process had died (fetch's TypeError); rethrows anything else. */
function unlessServerGone(error: unknown): null {
  if (error instanceof TypeError) return null;
  throw error;
}

function expectConsistent(server: RunningServer) {
  const consistency = server.inspect();
  expect(consistency.missingFiles, "rows without their file").toEqual([]);
  expect(consistency.unreferencedFiles, "files without their row").toEqual([]);
  expect(consistency.integrity).toBe("ok");
}

test("styling jobs survive a crash right after a styled file is stored", async () => {
  const port = 3685;
  const dataDir = scratchFor(port);
  let server = await start(dataDir, port, { SELFIE_CRASH_POINT: "styled-file-stored" }, true);
  try {
    const creator = await signInCreator(server);
    const image = await creator.uploadImage();
    // The worker starts on the first job at once, so the process may die before every style
    // is asked for (or before an answer is sent): the rest are asked for after the restart.
    const stylizedIds: string[] = [];
    for (const style of STYLE_IDS) {
      const stylized = await creator.stylize(image.id, style).catch(unlessServerGone);
      if (!stylized) break;
      stylizedIds.push(stylized.id);
    }
    const askAgain = STYLE_IDS.slice(stylizedIds.length);
    await server.exited(30_000);

    // Dead between storing a result and recording it: a file no row names, a job still leased.
    const atCrash = server.inspect();
    expect(
      atCrash.unreferencedFiles.filter((key) => key.startsWith("styled/")).length,
    ).toBeGreaterThanOrEqual(1);
    expect(jobs(server).some((job) => job.status === "running")).toBe(true);

    server = await start(dataDir, port);
    for (const style of askAgain) stylizedIds.push((await creator.stylize(image.id, style)).id);
    await expectAllStyled(server, creator, stylizedIds);
    const retried = jobs(server).filter((job) => job.attempts > 1);
    expect(retried.length, "the interrupted job ran again").toBeGreaterThanOrEqual(1);
    expectConsistent(server);
    expect(server.output()).toMatch(/Removed \d+ files no row referred to/);
  } finally {
    await server.stop();
  }
});

test("styling jobs survive a SIGKILL from outside while they run", async () => {
  const port = 3686;
  const dataDir = scratchFor(port);
  let server = await start(dataDir, port, {}, true);
  try {
    const creator = await signInCreator(server);
    // As many pictures in every style as a creator may have stylizations open at once.
    const fixtures = ["portrait.png", "rocket.jpg", "cat.png"].slice(
      0,
      Math.floor(MAX_OPEN_STYLIZATIONS / STYLE_IDS.length),
    );
    expect(fixtures.length, "at least one picture in every style").toBeGreaterThan(0);
    const images: string[] = [];
    for (const fixture of fixtures) images.push((await creator.uploadImage(fixture)).id);
    const wanted = images.flatMap((imageId) => STYLE_IDS.map((style) => ({ imageId, style })));

    // Killed from outside as soon as a job is seen running. A local style takes well under a
    // second, so the jobs are watched closely from the first request on; the styles not yet
    // asked for when the process dies are asked for after the restart.
    let gone = false;
    const killed = eventually(
      "a running job",
      () => (jobs(server).some((job) => job.status === "running") ? true : undefined),
      30_000,
      5,
    ).then(async () => {
      await server.kill();
      gone = true;
    });
    const stylizedIds: string[] = [];
    for (const { imageId, style } of wanted) {
      if (gone) break;
      const stylized = await creator.stylize(imageId, style).catch(unlessServerGone);
      if (!stylized) break;
      stylizedIds.push(stylized.id);
    }
    await killed;
    const atKill = jobs(server);
    expect(
      atKill.filter((job) => job.status !== "done").length,
      "jobs were still to do at the kill",
    ).toBeGreaterThan(0);

    server = await start(dataDir, port);
    for (const { imageId, style } of wanted.slice(stylizedIds.length)) {
      stylizedIds.push(await stylizeWhenOpen(creator, imageId, style));
    }
    await expectAllStyled(server, creator, stylizedIds);
    expectConsistent(server);
  } finally {
    await server.stop();
  }
});

/**
 * Asks for a style, waiting while the creator's open stylizations are at their cap (a request
 * the kill cut off may have been recorded without its answer arriving, and holds a place until
 * its job, taken up again after the restart, is done).
 */
async function stylizeWhenOpen(
  creator: CreatorSession,
  imageId: string,
  style: string,
): Promise<string> {
  return eventually(`a place for the ${style} style`, async () => {
    const response = await creator.call(`/api/token-images/${imageId}/stylize`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ style }),
    });
    if (response.status === 429) return undefined;
    expect(response.status).toBe(202);
    return ((await response.json()) as { id: string }).id;
  });
}

test("a publishing job survives a crash right after its mint kit is stored", async () => {
  const port = 3687;
  const dataDir = scratchFor(port);
  let server = await start(dataDir, port, { SELFIE_CRASH_POINT: "publication-files-stored" }, true);
  try {
    const creator = await signInCreator(server);
    const image = await creator.uploadImage();
    const { id: stylizedId } = await creator.stylize(image.id, "anime");
    await expectAllStyled(server, creator, [stylizedId]);
    const connected = await creator.call("/api/token-marketplace-integrations", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({
        platform: "opensea",
        apiKey: "opensea-process-test-key",
        walletAddress: WALLET,
      }),
    });
    expect(connected.status).toBe(201);
    // The worker starts the job at once, so the process may die before this answer is sent.
    const posted = await creator
      .call("/api/marketplace/post", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({
          imageId: stylizedId,
          platforms: ["opensea"],
          title: "Crash Kit",
          description: "Made through a crash",
          price: 42,
        }),
      })
      .catch(() => null);
    if (posted) expect(posted.status).toBe(200);
    await server.exited(30_000);
    expect(jobs(server).filter((job) => job.kind === "publish-to-platform")).toMatchObject([
      { status: "running", attempts: 1 },
    ]);

    const publication = () =>
      server.query<{ status: string; artifact_key: string | null }>(
        "select status, artifact_key from listing_platforms where platform = 'opensea'",
      );
    expect(publication()).toEqual([{ status: "queued", artifact_key: null }]);
    expect(
      server.inspect().unreferencedFiles.filter((key) => key.startsWith("kits/")).length,
    ).toBeGreaterThanOrEqual(1);

    server = await start(dataDir, port);
    const [done] = await eventually("the mint kit", () => {
      const rows = publication();
      return rows[0]?.status === "ready_to_mint" ? rows : undefined;
    });
    expect(done.artifact_key).toMatch(/^kits\/.+\.zip$/);
    const publishJobs = jobs(server).filter((job) => job.kind === "publish-to-platform");
    expect(publishJobs).toHaveLength(1);
    expect(publishJobs[0]).toMatchObject({ status: "done", attempts: 2 });
    // One kit: its zip and the image beside it, nothing from the attempt that died.
    expect(
      fs.readdirSync(path.join(dataDir, "files", "kits")).filter((name) => !name.startsWith(".")),
    ).toHaveLength(2);
    expectConsistent(server);
  } finally {
    await server.stop();
  }
});

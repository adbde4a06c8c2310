// A worker process for the crash test (app/features/studio/styles/stylize-job-crash.test.ts): it
// styles with the test engine; with HANG=1 the engine never finishes, so the
// test can SIGKILL the process in the middle of a styling job. Polls like the
// server does; SIGTERM stops it cleanly.
import fs from "node:fs";
import { getDb } from "~/infra/db.server";
import { LocalFileStore } from "~/infra/file-store.server";
import { getConfig } from "~/infra/config.server";
import { JobWorker } from "~/infra/jobs/job-worker.server";
import type { StyleEngine } from "~/engines/styling/style-engine.server";
import { STYLIZE_JOB } from "~/features/studio/styles/stylized-images.server";
import { stylizeJobHandler } from "~/features/studio/styles/stylize-job.server";
import { currentFaceConsentVersion } from "~/features/privacy/public.server";
import { testStyleEngine } from "#tests/setup/studio";
import { contentCredentialsFor } from "~/engines/provenance/content-credentials.server";

const marker = process.env.MARKER_FILE!;
const note = (line: string) => fs.appendFileSync(marker, `${process.pid} ${line}\n`);
const real = testStyleEngine();
const engine: StyleEngine = {
  id: real.id,
  async stylize(input, style, options) {
    note(`styling ${style}`);
    if (process.env.HANG === "1") await new Promise(() => {});
    return real.stylize(input, style, options);
  },
};

const worker = new JobWorker({
  db: getDb(),
  handlers: {
    [STYLIZE_JOB]: stylizeJobHandler({
      store: new LocalFileStore(getConfig().filesDir),
      engine: () => engine,
      faceConsentVersion: () => currentFaceConsentVersion(getConfig()),
      credentials: contentCredentialsFor(getConfig()),
    }),
  },
  concurrency: 2,
  leaseMs: Number(process.env.LEASE_MS ?? 1000),
  pollMs: 100,
  log: note,
});
note("started");
// Like the server: poll for work until told to stop (SIGTERM stops cleanly; SIGKILL is the crash).
worker.start();
process.once("SIGTERM", () => {
  void worker
    .stop()
    .then(() => getDb().destroy())
    .then(() => process.exit(0));
});

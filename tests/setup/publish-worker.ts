import { getFileStore } from "~/infra/file-store.server";
import { getDb } from "~/infra/db.server";
import { JobWorker } from "~/infra/jobs/job-worker.server";
import {
  PUBLISH_JOB,
  publishJobHandler,
} from "~/features/publishing/publications/publishing-job.server";
import { testTies } from "#tests/setup/ties";

/**
 * A running job worker for the publishing tests: the real publish-job
 * handler (with the test's own options) on the test database, polling fast
 * and retrying after milliseconds, silent. Stop it in afterAll.
 */
export function startPublishWorker(
  options?: Partial<Parameters<typeof publishJobHandler>[0]>,
): JobWorker {
  const worker = new JobWorker({
    db: getDb(),
    handlers: {
      [PUBLISH_JOB]: publishJobHandler({ store: getFileStore(), ties: testTies, ...options }),
    },
    concurrency: 2,
    pollMs: 20,
    backoff: { baseMs: 10, maxMs: 40 },
    log: () => {},
  });
  worker.start();
  return worker;
}

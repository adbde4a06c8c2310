import { getConfig } from "~/infra/config.server";
import { getFileStore } from "~/infra/file-store.server";
import { ensureFreeSpace } from "~/infra/disk-space.server";
import { getStyleEngine } from "~/engines/styling/select-style-engine.server";
import type { JobHandlers } from "~/infra/jobs/job-worker.server";
import { STYLIZE_JOB } from "~/features/studio/stylized-images.server";
import { stylizeJobHandler } from "~/features/studio/stylize-job.server";
import { PUBLISH_JOB, publishJobHandler } from "~/features/publishing/publishing-job.server";
import { selectMailTransport } from "~/infra/mail/select-mail-transport.server";
import { MAIL_JOB, mailJobHandler } from "~/features/mail/mail-job.server";

/**
 * Every kind of background job this app runs, and its handler: the one place
 * the worker learns what it can do. A new kind (e.g. publishing to a platform)
 * is one more entry here.
 */
export function jobHandlers(): JobHandlers {
  return {
    [STYLIZE_JOB]: stylizeJobHandler({
      store: getFileStore(),
      engine: () => getStyleEngine(),
      // Longer than the engine's own limit (fal.ai), so the engine reports its timeout itself.
      timeoutMs: Math.max(3 * 60_000, (getConfig().FAL_TIMEOUT_SECONDS + 60) * 1000),
      ensureSpace: () => ensureFreeSpace(getConfig()),
    }),
    [PUBLISH_JOB]: publishJobHandler({ store: getFileStore(), ensureSpace: () => ensureFreeSpace(getConfig()) }),
    [MAIL_JOB]: mailJobHandler({
      transport: () => selectMailTransport(getConfig()),
      from: () => getConfig().MAIL_FROM,
    }),
  };
}

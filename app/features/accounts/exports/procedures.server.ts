import { z } from "zod";
import { defineProcedure } from "~/infra/procedure.server";
import { announceJobs } from "~/infra/jobs/job-queue.server";
import { notFound } from "~/infra/errors.server";
import type { DownloadFile } from "~/infra/api-entry.server";
import type { AccountExportView } from "~/features/accounts/exports/account-export-types";
import {
  accountExportView,
  downloadableExportKey,
  latestAccountExportOf,
  nextExportAllowedAt,
  ownAccountExport,
  startAccountExport,
} from "~/features/accounts/exports/account-exports.server";

// The creator's export of their own data (account-exports.server.ts; the zip is built by account-export-job.server.ts).

/**
 * POST /api/account/export and the Your data tab's button: asks for an export
 * of the caller's data and answers it (202 on the API); while one is pending,
 * the same export. One an hour (429 with Retry-After otherwise).
 */
export const requestAccountExport = defineProcedure({
  name: "requestAccountExport",
  access: "user",
  input: z.object({}),
  async run({ user, ctx }): Promise<AccountExportView> {
    const row = await startAccountExport(ctx.db, user.id, ctx.now);
    announceJobs();
    return accountExportView(row, ctx.now, ctx.origin);
  },
});

/** GET /api/account/export/{id}: one of the caller's exports, with its download link while it works; 404 for another's. */
export const accountExport = defineProcedure({
  name: "accountExport",
  access: "user",
  input: z.object({ id: z.string().min(1, "Required").max(64, "Not an export id") }),
  async run({ input, user, ctx }): Promise<AccountExportView> {
    return accountExportView(
      await ownAccountExport(ctx.db, user.id, input.id),
      ctx.now,
      ctx.origin,
    );
  },
});

/**
 * GET /api/account/export/{id}/download: the zip of one of the caller's
 * exports, for their session or API token only (a link alone opens nothing);
 * 404 for another's, one not ready, or one whose hours are over.
 */
export const accountExportDownload = defineProcedure({
  name: "accountExportDownload",
  access: "user",
  input: z.object({ id: z.string().min(1, "Required").max(64, "Not an export id") }),
  async run({ input, user, ctx }): Promise<DownloadFile> {
    const row = await ownAccountExport(ctx.db, user.id, input.id);
    const key = downloadableExportKey(row, ctx.now);
    if (!key || !(await ctx.files.exists(key))) throw notFound("Export not found");
    return {
      fileName: "selfie-studio-data.zip",
      size: await ctx.files.size(key),
      stream: () => ctx.files.stream(key),
    };
  },
});

/** The Your data tab: the caller's latest export (or none) and when they may ask for a new one. */
export const accountExportScreen = defineProcedure({
  name: "accountExportScreen",
  access: "user",
  input: z.object({}),
  async run({
    user,
    ctx,
  }): Promise<{ latest: AccountExportView | null; nextAllowedAt: string | null }> {
    const [latest, nextAllowedAt] = await Promise.all([
      latestAccountExportOf(ctx.db, user.id),
      nextExportAllowedAt(ctx.db, user.id, ctx.now),
    ]);
    return {
      latest: latest ? accountExportView(latest, ctx.now, ctx.origin) : null,
      nextAllowedAt,
    };
  },
});

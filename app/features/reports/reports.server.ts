import type { ReportRow } from "#db/schema";
import type { DB } from "~/infra/db.server";
import type { FileStore } from "~/infra/file-store.server";
import { conflict, notFound } from "~/infra/errors.server";
import { newId, newSecretToken, sha256 } from "~/infra/ids.server";
import { announceJobs } from "~/infra/jobs/job-queue.server";
import { queueMail, queueMailWithinRecipientLimit } from "~/features/mail/public.server";
import { recordAuditEntry } from "~/features/audit/public.server";
import { findUserById } from "~/features/accounts/public.server";
import {
  hideReportedListings,
  reportableTarget,
  unhideReportedListings,
  withdrawReportedListings,
  type ReportableTarget,
} from "~/features/market/public.server";
import {
  withdrawPublicationsForReport,
  type PublicationLeftUp,
} from "~/features/publishing/public.server";
import { setUserStatus } from "~/features/admin/public.server";
import { isSuperAdmin } from "~/lib/accounts";
import {
  REPORT_DUE_HOURS,
  REPORT_RECEIVED,
  type ReportDecisionId,
  type ReportInput,
  type ReportJson,
  type ReportTargetView,
} from "./report-types";
import {
  renderListingRemovedMail,
  renderReportConfirmMail,
  renderReportDecisionMail,
} from "./report-mail.server";

/**
 * Reports of a listing or a storefront, from anyone (no account), and the
 * admin's decisions on them (docs/decisions/084-reports-and-takedown.md).
 *
 * A report is stored `unconfirmed` and its reporter mailed a link; the link's
 * page posts the confirmation (a mail scanner following the link changes
 * nothing), which opens the report, due for a decision REPORT_DUE_HOURS
 * later; an `intimate` report hides its target from every public page and
 * API at once (the market's publiclyListed), pending the decision. The admin
 * removes (the target is withdrawn everywhere it is published, the creator
 * and the reporter are told) or dismisses (the reporter is told; what the
 * report hid shows again unless another open report hides it). Every
 * decision, and the suspension of a creator with too many upheld reports,
 * goes to the audit log.
 */

/** An unconfirmed report's link works this long. */
export const REPORT_LINK_DAYS = 7;
const REPORT_LINK_MS = REPORT_LINK_DAYS * 24 * 60 * 60 * 1000;
const DUE_MS = REPORT_DUE_HOURS * 60 * 60 * 1000;

export const UNKNOWN_TARGET = "This listing or storefront is not on the marketplace.";
export const INVALID_LINK = "This confirmation link is not valid or has expired.";

/** What a report targets, in words ("the listing “Sunset”", "the storefront @ada"). */
function targetLabel(target: {
  listingId: string | null;
  handle: string | null;
  title?: string | null;
}) {
  if (target.listingId) return target.title ? `the listing “${target.title}”` : "a listing";
  return `the storefront @${target.handle ?? ""}`;
}

/** What the report page shows it is reporting, or 404 for an unknown or withdrawn listing or storefront. */
export async function reportTargetView(
  db: DB,
  target: { listingId?: string; handle?: string },
): Promise<ReportTargetView> {
  const found = await reportableTarget(db, target);
  if (!found) throw notFound(UNKNOWN_TARGET);
  return {
    listingId: found.listingId,
    handle: found.listingId ? null : found.handle,
    label: targetLabel(found),
  };
}

/** The confirmation page's address for a token. */
export function reportConfirmLink(origin: string, token: string): string {
  return `${origin}/reports/confirm?token=${encodeURIComponent(token)}`;
}

/**
 * Stores a report and mails its reporter the confirmation link (within the
 * recipient's limit of mail strangers can make us send), or, for a reporter
 * who reported the same target before, keeps that one report: an unconfirmed
 * one gets a new link (the old one stops working), a confirmed one stays as
 * it is. Answers the same either way. 404 for an unknown or withdrawn target.
 * `origin` null (no configured public address) stores the report but mails
 * nothing.
 */
export async function submitReport(
  db: DB,
  args: { input: ReportInput; origin: string | null; now: Date },
): Promise<{ message: string }> {
  const { input, now } = args;
  const target = await reportableTarget(db, {
    listingId: input.listingId,
    handle: input.handle,
  });
  if (!target) throw notFound(UNKNOWN_TARGET);
  const email = input.email.trim();
  const emailKey = email.toLowerCase();
  const token = newSecretToken();
  await db.transaction().execute(async (trx) => {
    const same = await sameReport(trx, emailKey, target);
    if (same && same.status !== "unconfirmed") return;
    if (same) {
      await trx
        .updateTable("reports")
        .set({
          token_hash: sha256(token),
          reason: input.reason,
          details: input.details,
          email,
          created_at: now.toISOString(),
        })
        .where("id", "=", same.id)
        .execute();
    } else {
      await trx
        .insertInto("reports")
        .values({
          id: newId(),
          listing_id: target.listingId,
          creator_id: target.creatorId,
          handle: target.handle,
          reason: input.reason,
          email,
          email_key: emailKey,
          details: input.details,
          token_hash: sha256(token),
          status: "unconfirmed",
          created_at: now.toISOString(),
        })
        .execute();
    }
    if (args.origin) {
      await queueMailWithinRecipientLimit(trx, {
        to: email,
        ...renderReportConfirmMail({
          link: reportConfirmLink(args.origin, token),
          target: targetLabel(target),
        }),
        now,
      });
    }
  });
  announceJobs();
  return { message: REPORT_RECEIVED };
}

/** The reporter's earlier report of the same target (one listing, or one storefront). */
function sameReport(db: DB, emailKey: string, target: ReportableTarget) {
  let query = db
    .selectFrom("reports")
    .select(["id", "status"])
    .where("email_key", "=", emailKey)
    .where("creator_id", "=", target.creatorId);
  query = target.listingId
    ? query.where("listing_id", "=", target.listingId)
    : query.where("listing_id", "is", null);
  return query.executeTakeFirst();
}

/**
 * Confirms a report by its mailed link's token: it opens, due REPORT_DUE_HOURS
 * from now, and an `intimate` one hides its target at once. A link used
 * before answers the report as it stands; an unknown or expired one is a 404.
 */
export async function confirmReport(
  db: DB,
  args: { token: string; now: Date },
): Promise<{ id: string; status: "open" | "closed"; dueAt: string }> {
  const report = await db.transaction().execute(async (trx) => {
    const found = await trx
      .selectFrom("reports")
      .selectAll()
      .where("token_hash", "=", sha256(args.token))
      .executeTakeFirst();
    if (!found) throw notFound(INVALID_LINK);
    if (found.status !== "unconfirmed") return found;
    if (Date.parse(found.created_at) + REPORT_LINK_MS <= args.now.getTime())
      throw notFound(INVALID_LINK);
    // The target may have gone since (withdrawn by its creator, or its creator banned).
    const target = await reportableTarget(trx, {
      listingId: found.listing_id,
      handle: found.listing_id ? null : found.handle,
    });
    if (!target) throw notFound(UNKNOWN_TARGET);
    const hides = found.reason === "intimate";
    if (hides) await hideReportedListings(trx, target, args.now);
    return trx
      .updateTable("reports")
      .set({
        status: "open",
        confirmed_at: args.now.toISOString(),
        due_at: new Date(args.now.getTime() + DUE_MS).toISOString(),
        hid_listings: hides ? 1 : 0,
      })
      .where("id", "=", found.id)
      .returningAll()
      .executeTakeFirstOrThrow();
  });
  return {
    id: report.id,
    status: report.status === "closed" ? "closed" : "open",
    dueAt: report.due_at ?? "",
  };
}

/** Confirmed reports, open (the default) or closed, the oldest due first. */
export async function listReports(
  db: DB,
  status: "open" | "closed" = "open",
): Promise<ReportJson[]> {
  const rows = await db
    .selectFrom("reports as r")
    .leftJoin("listings as l", "l.id", "r.listing_id")
    .selectAll("r")
    .select("l.title")
    .where("r.status", "=", status)
    .orderBy("r.due_at", "asc")
    .orderBy("r.id", "asc")
    .execute();
  return rows.map((row) => reportJson(row, row.title));
}

function reportJson(row: ReportRow, title: string | null): ReportJson {
  return {
    id: row.id,
    listingId: row.listing_id,
    handle: row.handle,
    creatorId: row.creator_id,
    title,
    reason: row.reason,
    details: row.details,
    email: row.email,
    createdAt: row.created_at,
    confirmedAt: row.confirmed_at,
    dueAt: row.due_at,
    status: row.status === "closed" ? "closed" : "open",
    decision: row.decision,
    note: row.note,
    decidedAt: row.decided_at,
    hidden: row.hid_listings === 1,
  };
}

/** The operator's figures: confirmed reports waiting for a decision, and those past due. */
export async function reportCounts(db: DB, now: Date): Promise<{ open: number; overdue: number }> {
  const row = await db
    .selectFrom("reports")
    .select((eb) => [
      eb.fn.countAll<number>().as("open"),
      eb.fn
        .count<number>(eb.case().when("due_at", "<", now.toISOString()).then(1).end())
        .as("overdue"),
    ])
    .where("status", "=", "open")
    .executeTakeFirstOrThrow();
  return { open: Number(row.open), overdue: Number(row.overdue) };
}

export interface DecisionOutcome extends ReportJson {
  /** With `remove`: where it was published and could not be taken down by the product. */
  leftUp: PublicationLeftUp[];
  /** With `remove`: whether this decision suspended the creator (UPHELD_REPORTS_TO_SUSPEND). */
  creatorSuspended: boolean;
}

/**
 * The admin's decision on an open report (404 for an unknown or unconfirmed
 * one, 409 for one decided already). `remove` withdraws the target (one
 * listing, or a storefront's every listing) from the marketplace and the
 * storefront, takes it down from other platforms as far as the product can
 * (withdrawPublicationsForReport answers where it could not), mails the
 * creator and the reporter, and suspends the creator when their upheld
 * reports reach `suspendAt`; `dismiss` shows again what the report hid
 * (unless another open report hides it) and mails the reporter. Both are
 * audited.
 */
export async function decideReport(
  db: DB,
  store: FileStore,
  args: {
    id: string;
    decision: ReportDecisionId;
    note: string;
    adminId: string;
    now: Date;
    suspendAt: number;
    includeTestSales: boolean;
  },
): Promise<DecisionOutcome> {
  const { now } = args;
  const outcome = await db.transaction().execute(async (trx) => {
    const report = await trx
      .selectFrom("reports")
      .selectAll()
      .where("id", "=", args.id)
      .executeTakeFirst();
    if (!report || report.status === "unconfirmed") throw notFound("Report not found");
    if (report.status === "closed") throw conflict("This report was decided already.");
    const title = report.listing_id
      ? ((
          await trx
            .selectFrom("listings")
            .select("title")
            .where("id", "=", report.listing_id)
            .executeTakeFirst()
        )?.title ?? null)
      : null;
    const target = { listingId: report.listing_id, creatorId: report.creator_id };
    const label = targetLabel({ ...report, listingId: report.listing_id, title });
    const leftUp: PublicationLeftUp[] = [];
    if (args.decision === "remove") {
      const withdrawn = await withdrawReportedListings(trx, target, { store, now });
      for (const listing of withdrawn) {
        if (!listing.stylizedImageId) continue;
        leftUp.push(
          ...(await withdrawPublicationsForReport(trx, store, {
            stylizedImageId: listing.stylizedImageId,
            reason: "Removed after a report.",
            now,
          })),
        );
      }
    } else if (report.hid_listings === 1) {
      await showAgain(trx, report);
    }
    const decided = await trx
      .updateTable("reports")
      .set({
        status: "closed",
        decision: args.decision,
        note: args.note,
        decided_by: args.adminId,
        decided_at: now.toISOString(),
        hid_listings: 0,
        token_hash: null,
      })
      .where("id", "=", report.id)
      .returningAll()
      .executeTakeFirstOrThrow();
    await recordAuditEntry(trx, {
      actorId: args.adminId,
      action: args.decision === "remove" ? "report.remove" : "report.dismiss",
      subjectId: report.id,
      detail: {
        creatorId: report.creator_id,
        listingId: report.listing_id,
        handle: report.handle,
        reason: report.reason,
        note: args.note,
        ...(args.decision === "remove"
          ? { notWithdrawnFrom: leftUp.map((place) => place.platform) }
          : {}),
      },
      now,
    });
    await queueMail(trx, {
      to: report.email,
      ...renderReportDecisionMail({ decision: args.decision, target: label, note: args.note }),
      now,
    });
    const upheld = args.decision === "remove" ? await upheldReportsOf(trx, report.creator_id) : 0;
    return { decided, title, label, leftUp, upheld };
  });

  let creatorSuspended = false;
  if (args.decision === "remove") {
    const creator = await findUserById(db, outcome.decided.creator_id);
    if (creator && !creator.erased_at) {
      if (outcome.upheld >= args.suspendAt && creator.banned === 0 && !isSuperAdmin(creator)) {
        // The ban's own transaction: sessions and tokens end, queued work is called off, owed shares are held.
        await setUserStatus(db, {
          actorId: args.adminId,
          userId: creator.id,
          action: "ban",
          now,
          includeTestSales: args.includeTestSales,
        });
        await recordAuditEntry(db, {
          actorId: args.adminId,
          action: "report.suspend",
          subjectId: creator.id,
          detail: { upheldReports: outcome.upheld, threshold: args.suspendAt, reportId: args.id },
          now,
        });
        creatorSuspended = true;
      }
      await queueMail(db, {
        to: creator.email,
        ...renderListingRemovedMail({
          target: outcome.label,
          reason: outcome.decided.reason,
          note: args.note,
          leftUp: outcome.leftUp,
          suspended: creatorSuspended,
        }),
        now,
      });
    }
  }
  announceJobs();
  return {
    ...reportJson(outcome.decided, outcome.title),
    leftUp: outcome.leftUp,
    creatorSuspended,
  };
}

/** How many of a creator's reports were upheld (decided `remove`). */
async function upheldReportsOf(db: DB, creatorId: string): Promise<number> {
  const row = await db
    .selectFrom("reports")
    .select((eb) => eb.fn.countAll<number>().as("count"))
    .where("creator_id", "=", creatorId)
    .where("decision", "=", "remove")
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/**
 * Shows again what a dismissed report hid, but for what another open report
 * still hides: a storefront's other hiding report keeps all its listings
 * hidden; a listing's keeps that listing hidden.
 */
async function showAgain(db: DB, report: ReportRow): Promise<void> {
  const others = await db
    .selectFrom("reports")
    .select(["listing_id"])
    .where("creator_id", "=", report.creator_id)
    .where("status", "=", "open")
    .where("hid_listings", "=", 1)
    .where("id", "!=", report.id)
    .execute();
  if (others.some((other) => other.listing_id === null)) return;
  const keepHidden = others.map((other) => other.listing_id).filter((id): id is string => !!id);
  if (report.listing_id && keepHidden.includes(report.listing_id)) return;
  await unhideReportedListings(db, {
    listingId: report.listing_id,
    creatorId: report.creator_id,
    keepHidden,
  });
}

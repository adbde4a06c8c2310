import { z } from "zod";
import { emailAddressField } from "~/lib/email-field";

/**
 * Reports of a listing or a storefront (issue 44): the reasons, the forms'
 * schemas (the browser's and the server's), and a report as the admin reads it.
 */

export const REPORT_REASONS = ["my-likeness", "intimate", "copyright", "other"] as const;
export type ReportReasonId = (typeof REPORT_REASONS)[number];

/** The reasons as the form and the admin's list say them. */
export const REPORT_REASON_LABELS: Record<ReportReasonId, string> = {
  "my-likeness": "This is me and I did not agree",
  intimate: "Intimate or sexual image",
  copyright: "Copyright",
  other: "Other",
};

/** A confirmed report is due for a decision this many hours after its confirmation. */
export const REPORT_DUE_HOURS = 48;

export const REPORT_DECISIONS = ["remove", "dismiss"] as const;
export type ReportDecisionId = (typeof REPORT_DECISIONS)[number];

export const REPORT_DETAILS_MAX = 2000;
export const REPORT_NOTE_MAX = 2000;

/** What the answer to a report says, whatever happened (a new report, the same one again). */
export const REPORT_RECEIVED =
  "Thank you. We sent a link to your email: your report is taken up once you confirm it there.";

const BAD_EMAIL = "Please enter a valid email address.";
const NO_TARGET = "Say which listing or storefront you report.";

/** An empty text field (a form sends "") is no value. */
const optionalText = (max: number) =>
  z.preprocess(
    (value) => (typeof value === "string" && value.trim() === "" ? undefined : value),
    z.string().trim().max(max, NO_TARGET).optional(),
  );

export const reportSchema = z
  .object({
    listingId: optionalText(100),
    handle: optionalText(100),
    reason: z.enum(REPORT_REASONS, { error: "Choose a reason." }),
    email: emailAddressField({ missing: BAD_EMAIL, invalid: BAD_EMAIL }),
    details: z
      .string()
      .trim()
      .max(REPORT_DETAILS_MAX, `At most ${REPORT_DETAILS_MAX} characters.`)
      .optional()
      .default(""),
  })
  .refine((report) => Boolean(report.listingId) !== Boolean(report.handle), {
    path: ["listingId"],
    message: NO_TARGET,
  });
export type ReportInput = z.infer<typeof reportSchema>;

/** What the report page is opened for: ?listing=<id> or ?handle=<handle>. */
export const reportTargetSchema = z
  .object({ listingId: optionalText(100), handle: optionalText(100) })
  .refine((target) => Boolean(target.listingId) !== Boolean(target.handle), {
    path: ["listingId"],
    message: NO_TARGET,
  });

export const reportConfirmSchema = z.object({
  token: z.string({ error: "This link is not valid." }).trim().min(1).max(200),
});

export const adminReportsSchema = z.object({
  status: z.enum(["open", "closed"], { error: "status is open or closed" }).optional(),
});

export const reportDecisionSchema = z.object({
  id: z.string({ error: "Which report?" }).trim().min(1).max(100),
  decision: z.enum(REPORT_DECISIONS, { error: "Decide remove or dismiss." }),
  note: z
    .string({ error: "Write a note for the decision." })
    .trim()
    .min(1, "Write a note for the decision.")
    .max(REPORT_NOTE_MAX, `At most ${REPORT_NOTE_MAX} characters.`),
});

/** A report as the admin reads it (GET /api/admin/reports). */
export interface ReportJson {
  id: string;
  listingId: string | null;
  handle: string | null;
  creatorId: string;
  /** The listing's title, while it exists. */
  title: string | null;
  reason: ReportReasonId;
  details: string;
  email: string;
  createdAt: string;
  confirmedAt: string | null;
  dueAt: string | null;
  status: "open" | "closed";
  decision: ReportDecisionId | null;
  note: string | null;
  decidedAt: string | null;
  /** Whether this report keeps its target hidden from the public now. */
  hidden: boolean;
}

/** The page a report is made on: what is reported, in words. */
export interface ReportTargetView {
  listingId: string | null;
  handle: string | null;
  /** "the listing “Sunset”", "the storefront @ada". */
  label: string;
}

/** "2 h 5 min left", "overdue by 3 h": a due time as the admin's list says it. */
export function timeLeftText(dueAt: string, now: Date): { text: string; overdue: boolean } {
  const ms = Date.parse(dueAt) - now.getTime();
  const minutes = Math.floor(Math.abs(ms) / 60_000);
  const hours = Math.floor(minutes / 60);
  const span = hours > 0 ? `${hours} h ${minutes % 60} min` : `${minutes} min`;
  return ms >= 0
    ? { text: `${span} left`, overdue: false }
    : { text: `overdue by ${span}`, overdue: true };
}

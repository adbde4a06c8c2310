import type { ApiRoute } from "~/infra/api-entry.server";
import {
  adminAuditLog,
  adminImages,
  adminListingsAwaitingConsent,
  adminStats,
} from "~/features/admin/procedures/stats-and-audit.server";
import { adminCreateUser, adminUser, adminUsers } from "~/features/admin/procedures/users.server";
import { changeUserStatus } from "~/features/admin/procedures/bans.server";
import { adminCancelJob, adminJobs, adminRetryJob } from "~/features/admin/procedures/jobs.server";

/**
 * The /api endpoints of admin: stats, users, bans, images, the audit log and jobs (super admin
 * only). The table (app/routes/api+/api-route-table.server.ts) puts every feature's entries
 * together, in a fixed order of features; the router answers from it and the OpenAPI document
 * describes it.
 */
export const ADMIN_API: readonly ApiRoute[] = [
  {
    method: "GET",
    path: "/api/admin/stats",
    summary: "Platform numbers (super admin only).",
    procedure: adminStats,
    auth: "bearer-or-cookie",
    input: "query",
    status: 200,
  },
  {
    method: "GET",
    path: "/api/admin/users",
    summary: "Every user, or those matching `q` (super admin only).",
    procedure: adminUsers,
    auth: "bearer-or-cookie",
    input: "query",
    status: 200,
  },
  {
    method: "POST",
    path: "/api/admin/users",
    summary: "Create a user (super admin only).",
    procedure: adminCreateUser,
    auth: "bearer-or-cookie",
    input: "json",
    status: 201,
    errors: [409, 503],
  },
  {
    method: "GET",
    path: "/api/admin/users/{userId}",
    summary: "One user (super admin only).",
    procedure: adminUser,
    auth: "bearer-or-cookie",
    input: "query",
    status: 200,
    errors: [404],
  },
  {
    method: "POST",
    path: "/api/admin/users/{userId}/{action}",
    summary:
      "Ban or unban a user; a ban ends their sessions and tokens (super admin only). 409 for an erased account.",
    procedure: changeUserStatus,
    auth: "bearer-or-cookie",
    input: "none",
    status: 200,
    errors: [404, 409],
  },
  {
    method: "GET",
    path: "/api/admin/images",
    summary: "Every uploaded original with its owner (super admin only).",
    procedure: adminImages,
    auth: "bearer-or-cookie",
    input: "query",
    status: 200,
  },
  {
    method: "GET",
    path: "/api/admin/listings-awaiting-consent",
    summary:
      "Active listings that would be refused today because only faces that agreed are sold (super admin only): `{count, listings}`, newest first (at most 200), each with its reason, `unverified` (the creator's face was not compared) or `other` (another person's face, no model release). They stay up until the admin acts.",
    procedure: adminListingsAwaitingConsent,
    auth: "bearer-or-cookie",
    input: "query",
    status: 200,
  },
  {
    method: "GET",
    path: "/api/admin/audit",
    summary:
      "The audit log, newest first (super admin only): bans, unbans, created users, erasures, refunds, job retries and cancels, waitlist invitations, and users' own password and email changes and ended sessions, each with who, what, to whom and when; `nextCursor` pages to older entries.",
    procedure: adminAuditLog,
    auth: "bearer-or-cookie",
    input: "query",
    status: 200,
  },
  {
    method: "GET",
    path: "/api/admin/jobs",
    summary:
      "The background jobs to look at, newest first (super admin only): failed ones and stuck ones (running past their lease, or queued for more than 15 minutes), each with its kind, attempts, last error and the request id that queued it.",
    procedure: adminJobs,
    auth: "bearer-or-cookie",
    input: "query",
    status: 200,
  },
  {
    method: "POST",
    path: "/api/admin/jobs/{jobId}/retry",
    summary:
      "Queue a failed job again, due now, with fresh attempts (super admin only); 409 for a job that is not failed.",
    procedure: adminRetryJob,
    auth: "bearer-or-cookie",
    input: "none",
    status: 200,
    errors: [404, 409],
  },
  {
    method: "POST",
    path: "/api/admin/jobs/{jobId}/cancel",
    summary:
      'Call off a queued or failed job: it ends failed, "Cancelled by the admin", and is never run (super admin only); 409 for a job a worker is running or one that finished.',
    procedure: adminCancelJob,
    auth: "bearer-or-cookie",
    input: "none",
    status: 200,
    errors: [404, 409],
  },
];

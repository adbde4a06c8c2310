import type { ApiRoute } from "~/infra/api-entry.server";
import { downloading, shaping } from "~/infra/api-entry.server";
import { createApiToken } from "~/features/accounts/sessions/sessions.server";
import { toPublicUser } from "~/features/accounts/users.server";
import {
  accountExport,
  accountExportDownload,
  requestAccountExport,
} from "~/features/accounts/exports/procedures.server";
import {
  account,
  confirmEmailChange,
  requestEmailChange,
  updateAccount,
  uploadAvatar,
} from "~/features/accounts/profile/procedures.server";
import {
  currentUser,
  endTokenSession,
  register,
  signIn,
} from "~/features/accounts/sessions/procedures.server";
import {
  requestPasswordReset,
  resetPassword,
} from "~/features/accounts/passwords/procedures.server";
import {
  changePassword,
  mySessions,
  revokeSession,
} from "~/features/accounts/sessions/security.procedures.server";

/**
 * The /api endpoints of accounts: sign-in, registration and password reset, the password change
 * and the sessions and API tokens, the profile, photo and email change, and the data export. The
 * table (app/routes/api+/api-route-table.server.ts) puts every feature's entries together, in a
 * fixed order of features; the router answers from it and the OpenAPI document describes it.
 */
export const ACCOUNTS_API: readonly ApiRoute[] = [
  shaping({
    method: "POST",
    path: "/api/token-login",
    summary: "Sign in with email and password; answers a bearer token and the user.",
    procedure: signIn,
    auth: "bearer-or-cookie",
    input: "json",
    status: 200,
    errors: [429, 503],
    shape: async (user, _caller, ctx) => {
      const { token } = await createApiToken(
        ctx.db,
        user.id,
        ctx.config.TOKEN_DAYS,
        ctx.now,
        ctx.userAgent,
      );
      return { token, user: toPublicUser(user) };
    },
  }),
  {
    method: "POST",
    path: "/api/register",
    summary:
      "Register (while registration is open); always 202 with the same answer: a new email is mailed a link that creates the account (valid 24 hours), an email in use is mailed a notice. Nobody is signed in; sign in with POST /api/token-login once the account exists.",
    procedure: register,
    auth: "bearer-or-cookie",
    input: "json",
    status: 202,
    errors: [429, 503],
  },
  {
    method: "POST",
    path: "/api/forgot-password",
    summary:
      "Ask for a password reset link by email; always 202 with the same answer, and a known account that is not banned is mailed a single-use link valid for 60 minutes.",
    procedure: requestPasswordReset,
    auth: "bearer-or-cookie",
    input: "json",
    status: 202,
    errors: [429],
  },
  {
    method: "POST",
    path: "/api/reset-password",
    summary:
      "Set a new password with a reset link's token; every session and API token of the account ends and the link stops working.",
    procedure: resetPassword,
    auth: "bearer-or-cookie",
    input: "json",
    status: 204,
    errors: [503],
  },
  {
    method: "POST",
    path: "/api/token-logout",
    summary: "End the bearer token the call is made with.",
    procedure: endTokenSession,
    auth: "bearer-or-cookie",
    input: "none",
    status: 204,
  },
  {
    method: "GET",
    path: "/api/token-user",
    summary: "The signed-in user.",
    procedure: currentUser,
    auth: "bearer-or-cookie",
    input: "query",
    status: 200,
  },
  {
    method: "POST",
    path: "/api/account/password",
    summary:
      "Change the password with the current one; every other web session and API token of the user ends, the one making the call keeps working. 400 for a wrong current password or a short or common new one.",
    procedure: changePassword,
    auth: "bearer-or-cookie",
    input: "json",
    status: 204,
    errors: [429, 503],
  },
  {
    method: "GET",
    path: "/api/account/sessions",
    summary:
      "The user's web sessions and API tokens that still work: kind, when made and last used, the User-Agent it was made from, and whether it is the one making the call.",
    procedure: mySessions,
    auth: "bearer-or-cookie",
    input: "none",
    status: 200,
  },
  {
    method: "DELETE",
    path: "/api/account/sessions/{id}",
    summary:
      "End one of the user's web sessions or API tokens (by the id the list shows): it answers 401 from its next request. 404 for an id that is not the user's.",
    procedure: revokeSession,
    auth: "bearer-or-cookie",
    input: "none",
    status: 204,
    errors: [404],
  },
  {
    method: "GET",
    path: "/api/account",
    summary:
      "The caller's own account: names, email, profile photo, public handle and bio, an email change waiting for its link (`pendingEmail`), the face-processing consent, and how many people follow the creator (`followers`, confirmed follows only, never their addresses).",
    procedure: account,
    auth: "bearer-or-cookie",
    input: "query",
    status: 200,
  },
  {
    method: "PATCH",
    path: "/api/account",
    summary:
      "Change any of `firstName`, `lastName`, `handle` and `bio` (the others stay; an empty or null handle or bio clears it). A handle is 3–30 characters of a–z, 0–9 and `-`, lower-cased, and not reserved; 409 when another account has it. Answers the account.",
    procedure: updateAccount,
    auth: "bearer-or-cookie",
    input: "json",
    status: 200,
    errors: [409],
  },
  {
    method: "POST",
    path: "/api/account/avatar",
    summary:
      "Set the profile photo (multipart, one file field `image`, at most 10 MB): stored square (256×256, cropped on its most interesting part), without metadata, at a public URL. Answers the account with its new `profileImageUrl`.",
    procedure: uploadAvatar,
    auth: "bearer-or-cookie",
    input: "multipart",
    status: 200,
    errors: [415],
  },
  {
    method: "POST",
    path: "/api/account/email",
    summary:
      "Ask to change the email, with the current password (400 when wrong; a wrong one counts toward the sign-in limits, 429 past them; 429 past 5 requests an hour from one account): 202, a single-use link valid for 24 hours goes to the new address and a notice to the old one. An address another account has gets the same answer, and a notice that someone tried instead of the link. The email changes only when the link is used.",
    procedure: requestEmailChange,
    auth: "bearer-or-cookie",
    input: "json",
    status: 202,
    errors: [429],
  },
  {
    method: "POST",
    path: "/api/account/email/confirm",
    summary:
      "Use an email change link's `token` (the signed-in owner's, unused, within 24 hours; 400 otherwise): the email changes and the account is answered. Sessions and tokens keep working.",
    procedure: confirmEmailChange,
    auth: "bearer-or-cookie",
    input: "json",
    status: 200,
    errors: [409],
  },
  {
    method: "POST",
    path: "/api/account/export",
    summary:
      "Ask for a zip of your own data (account.json, every image file of yours byte for byte, listings.json, sales.json, payouts.json); answers the export `{id, status, url, expiresAt}` at once while a job builds it, and mails you its link when ready. While one is pending, asking again answers the same export; one export an hour (429 with Retry-After).",
    procedure: requestAccountExport,
    auth: "bearer-or-cookie",
    input: "none",
    status: 202,
    errors: [429],
  },
  {
    method: "GET",
    path: "/api/account/export/{id}",
    summary:
      "One of your exports: `status` pending, ready or failed; when ready, `url` downloads the zip until `expiresAt` (24 hours), then it is deleted and `url` is null. The `url` needs your session or API token, as every call here. 404 for an id that is not yours.",
    procedure: accountExport,
    auth: "bearer-or-cookie",
    input: "query",
    status: 200,
    errors: [404],
  },
  downloading({
    method: "GET",
    path: "/api/account/export/{id}/download",
    summary:
      "The zip of one of your exports (`url` of the export), with your session or API token only: a link alone opens nothing. 404 for another's, one not ready, or one past its 24 hours.",
    procedure: accountExportDownload,
    auth: "bearer-or-cookie",
    input: "query",
    status: 200,
    answer: "zip",
    errors: [404],
  }),
];

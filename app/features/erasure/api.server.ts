import type { ApiRoute } from "~/infra/api-entry.server";
import { eraseMyAccount, eraseUser } from "~/features/erasure/procedures/erasure.server";

/**
 * The /api endpoints of erasure: erasing an account: the caller's own or, by the super admin, a
 * user's. The table (app/routes/api+/api-route-table.server.ts) puts every feature's entries
 * together, in a fixed order of features; the router answers from it and the OpenAPI document
 * describes it.
 */
export const ERASURE_API: readonly ApiRoute[] = [
  {
    method: "DELETE",
    path: "/api/account",
    summary:
      "Erase the caller's account, with their password. At once every session and token of the user answers 401 and their listings leave the marketplace; then their files that no buyer paid for are deleted and their personal data removed. Buyers' downloads and licenses of what they bought keep working; the email can register again. 400 for a wrong password (nothing changes); a wrong password counts toward the sign-in limits of the account's email, and past them the answer is 429 with Retry-After.",
    procedure: eraseMyAccount,
    auth: "bearer-or-cookie",
    input: "json",
    status: 202,
    errors: [429],
  },
  {
    method: "DELETE",
    path: "/api/admin/users/{userId}",
    summary:
      "Erase a user's account, as DELETE /api/account does (super admin only; 400 for the super admin's own account).",
    procedure: eraseUser,
    auth: "bearer-or-cookie",
    input: "none",
    status: 202,
    errors: [404],
  },
];

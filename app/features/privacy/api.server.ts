import type { ApiRoute } from "~/infra/api-entry.server";
import {
  giveFaceConsent,
  withdrawFaceConsentProcedure,
} from "~/features/privacy/procedures/face-consent.server";

/**
 * The /api endpoints of privacy: the consent to face processing. The table
 * (app/routes/api+/api-route-table.server.ts) puts every feature's entries together, in a fixed
 * order of features; the router answers from it and the OpenAPI document describes it.
 */
export const PRIVACY_API: readonly ApiRoute[] = [
  {
    method: "POST",
    path: "/api/account/consent",
    summary:
      "Agree to face processing (`{faceProcessing: true}`): records the time and the version of the text shown; answers the account.",
    procedure: giveFaceConsent,
    auth: "bearer-or-cookie",
    input: "json",
    status: 200,
  },
  {
    method: "DELETE",
    path: "/api/account/consent",
    summary:
      "Withdraw the consent to face processing: new styling stops and the caller's waiting styles are cancelled; answers the account.",
    procedure: withdrawFaceConsentProcedure,
    auth: "bearer-or-cookie",
    input: "none",
    status: 200,
  },
];

import type { ApiRoute } from "~/infra/api-entry.server";
import {
  giveFaceConsent,
  withdrawFaceConsentProcedure,
} from "~/features/privacy/procedures/face-consent.server";
import { removeVerifiedFace, verifyFace } from "~/features/privacy/procedures/verified-face.server";

/**
 * The /api endpoints of privacy: the consent to face processing and the verified face. The table
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
      "Withdraw the consent to face processing: new styling stops, the caller's waiting styles are cancelled and their verified face (its descriptor) is deleted; answers the account.",
    procedure: withdrawFaceConsentProcedure,
    auth: "bearer-or-cookie",
    input: "none",
    status: 200,
  },
  {
    method: "POST",
    path: "/api/account/face",
    summary:
      "Verify your face (after the consent to face processing; 409 without it): multipart, file field `image`, a selfie of you alone (at most 10 MB; a file that is not an image: 415). Answers `{face: {verified: true, at}}`; 400 `{message}` when the photo holds no face, several faces, or a face too small. What is kept is a face descriptor (biometric data), never the photo; each upload's `likeness` is then computed against it. A face already verified on another account is accepted and flagged to the admin.",
    procedure: verifyFace,
    auth: "bearer-or-cookie",
    input: "multipart",
    status: 200,
    errors: [400, 409, 415],
  },
  {
    method: "DELETE",
    path: "/api/account/face",
    summary:
      'Delete your verified face (its face descriptor): uploads show `likeness: "unverified"` again. Answers `{face: {verified: false, at: null}}`.',
    procedure: removeVerifiedFace,
    auth: "bearer-or-cookie",
    input: "none",
    status: 200,
  },
];

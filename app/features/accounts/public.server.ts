// What other features (and the HTTP edge) use of accounts: plain service calls on its tables, not operations.
export {
  createUser,
  findUserById,
  isAccountErased,
  setFaceConsent,
  setUserBanned,
  toPublicUser,
} from "~/features/accounts/users.server";
export {
  createApiToken,
  endAllSessionsAndTokens,
  revokeAllCredentials,
} from "~/features/accounts/sessions/sessions.server";
export { accountOf } from "~/features/accounts/account.server";
export { avatarKeyOf } from "~/features/accounts/profile/avatar.server";
export { eraseAccountExportsOf } from "~/features/accounts/exports/account-exports.server";
export {
  assertOwnPassword,
  closeAccountForErasure,
  erasedEmail,
  ERASED_FIRST_NAME,
  ERASED_LAST_NAME,
  SUPER_ADMIN_NOT_ERASABLE,
  WRONG_PASSWORD,
  type ClosedAccount,
} from "~/features/accounts/account-erasure.server";
export {
  deleteVerifiedFace,
  faceVerifiedAt,
  findVerifiedFace,
  otherVerifiedFaces,
  sameFaceFlags,
  saveVerifiedFace,
  type VerifiedFace,
} from "~/features/accounts/verified-faces.server";

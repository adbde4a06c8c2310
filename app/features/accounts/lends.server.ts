/** What accounts lends other features: plain service calls on its tables, not operations of their own. */

export { findUserById, isAccountErased, setFaceConsent, setUserBanned } from "~/features/accounts/users.server";
export { eraseAccountExportsOf } from "~/features/accounts/account-exports.server";

// What other features use of admin: suspending a user as a ban does (reports suspend a creator with too many upheld reports).
export { setUserStatus } from "~/features/admin/user-status.server";

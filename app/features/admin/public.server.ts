// What other features use of admin: recording an entry in the audit log.
export { recordAuditEntry, STRIPE_ACTOR, type AuditAction } from "~/features/admin/audit.server";

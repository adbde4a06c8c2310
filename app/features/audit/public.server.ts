// What other features use of the audit log: recording an entry (accounts, market, admin), and
// reading it a page at a time (the admin's Audit log).
export {
  AUDIT_MAX_LIMIT,
  AUDIT_PAGE_SIZE,
  listAuditEntries,
  recordAuditEntry,
  STRIPE_ACTOR,
  type AuditAction,
} from "~/features/audit/audit-log.server";

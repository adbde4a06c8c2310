// What reports hand others: the operator's figures (open and overdue reports) for /metrics.
export { reportCounts } from "~/features/reports/reports.server";

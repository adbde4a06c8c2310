import type { AdminOrderStatus } from "~/features/admin/sales-types";
import { ORDER_STATUS_LABELS } from "~/features/admin/sales-types";

const COLOURS: Record<AdminOrderStatus, { badge: string; dot: string }> = {
  pending: { badge: "bg-amber-100 text-amber-900", dot: "bg-amber-500" },
  paid: { badge: "bg-emerald-100 text-emerald-800", dot: "bg-emerald-600" },
  refunded: { badge: "bg-slate-200 text-slate-800", dot: "bg-slate-500" },
  disputed: { badge: "bg-orange-100 text-orange-900", dot: "bg-orange-600" },
  failed: { badge: "bg-red-100 text-red-800", dot: "bg-red-600" },
  expired: { badge: "bg-slate-100 text-slate-700", dot: "bg-slate-400" },
};

/** An order's status as a coloured pill: Paid, Refunded, Disputed... */
export function OrderStatusBadge({ status }: { status: AdminOrderStatus }) {
  const colours = COLOURS[status] ?? COLOURS.expired;
  return (
    <span
      className={`inline-flex items-center gap-1 rounded-full px-2.5 py-0.5 text-xs font-semibold ${colours.badge}`}
      data-testid="order-status"
    >
      <span aria-hidden="true" className={`h-1.5 w-1.5 rounded-full ${colours.dot}`} />
      {ORDER_STATUS_LABELS[status] ?? status}
    </span>
  );
}

/** Marks an order paid in the built-in test checkout (no money moved). */
export function TestModeBadge() {
  return (
    <span
      className="inline-flex items-center rounded bg-amber-100 px-1.5 py-0.5 text-[0.65rem] font-bold tracking-wide text-amber-900 uppercase"
      title="Paid in the built-in test checkout; no money moved"
      data-testid="test-badge"
    >
      Test
    </span>
  );
}

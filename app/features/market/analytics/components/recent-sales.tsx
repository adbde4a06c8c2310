import type { CreatorSale, CreatorSaleState } from "~/features/market/types";
import { formatMoney } from "~/lib/money";
import { styleName } from "~/lib/styles";
import { stackedTable as t } from "~/ui/stacked-table";
import { HeaderCells } from "~/ui/data-table";

const STATE_CLASS: Record<CreatorSaleState, string> = {
  paid: "bg-emerald-100 text-emerald-800",
  "partly refunded": "bg-amber-100 text-amber-900",
  refunded: "bg-slate-200 text-slate-800",
  disputed: "bg-red-100 text-red-800",
};

const STATE_LABEL: Record<CreatorSaleState, string> = {
  paid: "Paid",
  "partly refunded": "Partly refunded",
  refunded: "Refunded",
  disputed: "Disputed",
};

/**
 * The payment monitor for a creator: their latest sales and each payment's
 * state. A buyer's checkout session is the buyer's own; a creator follows
 * their sales here instead.
 */
export function RecentSales({ sales }: { sales: CreatorSale[] }) {
  return (
    <section
      className="card mt-6 min-w-0 p-6"
      aria-labelledby="recent-sales-title"
      data-testid="recent-sales"
    >
      <h2 id="recent-sales-title" className="text-lg font-semibold text-slate-900">
        Your recent sales
      </h2>
      <p className="mt-1 text-sm text-slate-600">
        The payments for your images, newest first. A refund or a dispute shows here as soon as the
        payment provider reports it.
      </p>
      {sales.length === 0 ? (
        <p className="mt-4 text-sm text-slate-600">
          No sales yet. When a buyer pays for one of your images, it shows here.
        </p>
      ) : (
        <div className={`mt-4 ${t.region}`}>
          <table className={t.table("sm:min-w-[36rem]")}>
            <thead className={t.head}>
              <tr>
                <HeaderCells
                  className="px-4 py-2 text-left text-xs font-semibold text-slate-600"
                  columns={["Image", "Paid", "Price", "Payment"]}
                />
              </tr>
            </thead>
            <tbody className={t.body}>
              {sales.map((sale) => (
                <tr key={sale.id} className={t.row} data-testid="recent-sale">
                  <td className={`${t.lead} wrap-anywhere`}>
                    {sale.title} <span className="text-slate-500">({styleName(sale.style)})</span>
                  </td>
                  <td className={t.cell} data-label="Paid">
                    {sale.paidAt.slice(0, 10)}
                  </td>
                  <td className={`${t.cell} tabular-nums`} data-label="Price">
                    {formatMoney(sale.priceCents, sale.currency)}
                  </td>
                  <td className={t.cell} data-label="Payment">
                    <span>
                      <span
                        className={`rounded-full px-2 py-0.5 text-xs font-medium ${STATE_CLASS[sale.state]}`}
                        data-testid="sale-state"
                      >
                        {STATE_LABEL[sale.state]}
                      </span>
                      {sale.testCheckout ? (
                        <span className="ml-2 text-xs text-slate-500">
                          test checkout, no money moved
                        </span>
                      ) : null}
                    </span>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

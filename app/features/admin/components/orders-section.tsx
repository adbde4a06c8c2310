import { Form, Link, useLocation } from "@remix-run/react";
import type { AdminOrder } from "~/features/admin/sales-types";
import {
  ADMIN_ORDER_STATUSES,
  formatDollarString,
  ORDER_SEARCH_MAX,
  ORDER_SEARCH_PARAM,
  ORDER_STATUS_LABELS,
  ORDER_STATUS_PARAM,
  REFUND_PARAM,
} from "~/features/admin/sales-types";
import { adminHref } from "~/features/admin/components/admin-links";
import { LocalDate } from "~/features/admin/components/local-date";
import { OrderStatusBadge, TestModeBadge } from "~/features/admin/components/order-status-badge";
import { stackedTable as t } from "~/ui/stacked-table";
import { right, StackedTable } from "~/ui/data-table";

const CELL = `${t.cell} sm:align-top`;

/** The parameters of the rest of the page that a new order search keeps (the user search). */
const KEPT_PARAMS = ["q"];

/**
 * The Admin Portal's Orders section: a GET search form (email or order id,
 * and a status) and the matching orders, newest first. A paid order has a
 * Refund… link that opens the confirmation (?refund=<id>), so the whole
 * flow works without JavaScript.
 */
export function OrdersSection({
  orders,
  orderSearch,
  orderStatus,
}: {
  orders: AdminOrder[];
  orderSearch: string;
  orderStatus: string;
}) {
  const location = useLocation();
  const current = new URLSearchParams(location.search);
  const filtered = Boolean(orderSearch || orderStatus);
  return (
    <section
      id="orders"
      aria-labelledby="orders-heading"
      className="card mt-8 overflow-hidden"
      data-testid="orders-section"
    >
      <div className="flex flex-col gap-4 border-b border-slate-200 p-5 lg:flex-row lg:items-end lg:justify-between">
        <div>
          <h2 id="orders-heading" className="text-lg font-semibold text-slate-900">
            Orders
          </h2>
          <p className="text-sm text-slate-600" data-testid="order-count">
            {orders.length === 1 ? "1 order" : `${orders.length} orders`}
            {filtered ? " match" : ""}, newest first
          </p>
          <p className="text-sm">
            <a
              href="/admin/tax.csv"
              className="font-medium text-brand-700 underline"
              data-testid="tax-csv-link"
              download
            >
              Download sales and tax per country and month (CSV)
            </a>
          </p>
        </div>
        <Form
          method="get"
          action="/admin"
          role="search"
          aria-label="Search orders"
          className="flex w-full flex-col gap-2 sm:flex-row lg:w-auto"
          preventScrollReset
        >
          {KEPT_PARAMS.map((name) => {
            const value = current.get(name);
            return value ? <input key={name} type="hidden" name={name} value={value} /> : null;
          })}
          <label htmlFor="admin-order-search" className="sr-only">
            Buyer email or order ID
          </label>
          <input
            id="admin-order-search"
            type="search"
            name={ORDER_SEARCH_PARAM}
            defaultValue={orderSearch}
            placeholder="Buyer email or order ID"
            maxLength={ORDER_SEARCH_MAX}
            autoComplete="off"
            className="field-input mt-0 sm:w-64"
          />
          <label htmlFor="admin-order-status" className="sr-only">
            Order status
          </label>
          <select
            id="admin-order-status"
            name={ORDER_STATUS_PARAM}
            defaultValue={orderStatus}
            className="field-input mt-0 sm:w-40"
          >
            <option value="">All statuses</option>
            {ADMIN_ORDER_STATUSES.map((status) => (
              <option key={status} value={status}>
                {ORDER_STATUS_LABELS[status]}
              </option>
            ))}
          </select>
          <button type="submit" className="btn-secondary">
            Search orders
          </button>
          {filtered ? (
            <Link
              to={adminHref(location.search, {
                [ORDER_SEARCH_PARAM]: null,
                [ORDER_STATUS_PARAM]: null,
                [REFUND_PARAM]: null,
              })}
              className="btn-ghost"
              preventScrollReset
            >
              Clear
            </Link>
          ) : null}
        </Form>
      </div>
      {orders.length === 0 ? (
        <p className="px-4 py-10 text-center text-sm text-slate-600" data-testid="no-orders">
          {filtered ? "No orders match this search." : "No orders yet."}
        </p>
      ) : (
        // Phones: one card per order (every column labelled); wider: a table scrolling sideways until it fits.
        <StackedTable
          label="Orders table"
          minWidth="sm:min-w-[64rem]"
          caption="Orders, newest first"
          columns={[
            "Order",
            "Buyer",
            "Status",
            right("Total"),
            right("Refunded"),
            "Items",
            right("Actions"),
          ]}
          hintUntil="xl"
        >
          {orders.map((order) => (
            <tr key={order.id} data-testid="order-row" data-order-id={order.id} className={t.row}>
              <td className={`${t.lead} sm:align-top`}>
                <p className="font-mono text-xs break-all text-slate-900">{order.id}</p>
                <p className="mt-1 text-xs text-slate-500">
                  <LocalDate iso={order.createdAt} />
                </p>
              </td>
              <td className={`${CELL} sm:max-w-[16rem]`} data-label="Buyer">
                <div className="min-w-0 text-right sm:text-left">
                  <p className="truncate font-medium text-slate-900">{order.customerName}</p>
                  <p className="truncate text-xs text-slate-600" title={order.customerEmail}>
                    {order.customerEmail}
                  </p>
                </div>
              </td>
              <td className={CELL} data-label="Status">
                <div className="flex flex-wrap items-center justify-end gap-1.5 sm:justify-start">
                  <OrderStatusBadge status={order.status} />
                  {order.provider === "test" ? (
                    <TestModeBadge />
                  ) : (
                    <span className="text-xs text-slate-500">
                      {order.provider === "shopify" ? "Shopify store" : "Stripe"}
                    </span>
                  )}
                </div>
              </td>
              <td className={`${CELL} sm:text-right tabular-nums`} data-label="Total">
                {formatDollarString(order.total)}
              </td>
              <td className={`${CELL} sm:text-right tabular-nums`} data-label="Refunded">
                {Number(order.refunded) > 0 ? formatDollarString(order.refunded) : "—"}
              </td>
              <td className={CELL} data-label="Items">
                <ul className="min-w-0 space-y-1 text-right sm:text-left">
                  {order.items.map((item) => (
                    <li key={item.listingId} className="text-xs">
                      <span className="font-medium text-slate-900">{item.title}</span>{" "}
                      <span className="tabular-nums text-slate-700">
                        {formatDollarString(item.price)}
                      </span>
                      <span
                        className="block [overflow-wrap:anywhere] text-slate-600"
                        data-testid="order-item-creator"
                        data-creator-id={item.creatorId}
                      >
                        Creator: {item.creatorName}
                      </span>
                    </li>
                  ))}
                </ul>
              </td>
              <td
                className={`${order.status === "paid" ? t.actions : "hidden sm:table-cell sm:px-4 sm:py-3"} sm:text-right sm:align-top`}
              >
                {order.status === "paid" && order.provider !== "shopify" ? (
                  <Link
                    to={adminHref(location.search, { [REFUND_PARAM]: order.id })}
                    preventScrollReset
                    className="btn border border-red-300 bg-white px-3 py-1.5 whitespace-nowrap text-red-700 hover:bg-red-50"
                    aria-label={`Refund order ${order.id}`}
                    data-testid="refund-link"
                  >
                    Refund…
                  </Link>
                ) : null}
              </td>
            </tr>
          ))}
        </StackedTable>
      )}
    </section>
  );
}

import type { ReactNode } from "react";
import { useSearchParams } from "@remix-run/react";
import { renderWithRemix } from "#tests/setup/render-route";
import type { AdminOrder } from "~/features/admin/sales-types";
import type { AdminUser } from "~/features/admin/types";

/** Test-only fixtures and renderers shared by the admin screens' component tests. */

/** Cora, a creator as the Admin Portal lists her; `fields` changes what a test needs. */
export function adminUser(fields: Partial<AdminUser> = {}): AdminUser {
  return {
    id: "u1",
    email: "cora@example.com",
    firstName: "Cora",
    lastName: "Creator",
    profileImageUrl: null,
    createdAt: "2026-03-04T12:00:00.000Z",
    banned: false,
    imageCount: 0,
    earnings: 0,
    ...fields,
  };
}

/** One line of an order: Cora's Sunset Portrait at $25 unless `fields` says otherwise. */
export function adminOrderItem(
  fields: Partial<AdminOrder["items"][number]> = {},
): AdminOrder["items"][number] {
  return {
    saleReference: "sale-l1",
    listingId: "l1",
    title: "Sunset Portrait",
    creatorId: "creator-1",
    creatorName: "Cora Creator",
    price: "25",
    ...fields,
  };
}

/** Bea's paid test-mode order of one Sunset Portrait; `fields` changes what a test needs. */
export function adminOrder(fields: Partial<AdminOrder> = {}): AdminOrder {
  return {
    id: "ord_123",
    status: "paid",
    provider: "test",
    customerEmail: "bea@example.com",
    customerName: "Bea Buyer",
    total: "25",
    refunded: "0",
    createdAt: "2026-03-04T12:00:00.000Z",
    paidAt: null,
    refundedAt: null,
    refundReason: null,
    disputeStatus: null,
    items: [adminOrderItem()],
    ...fields,
  };
}

export interface AdminDialogStub {
  /** The URL the stub starts at (the dialog's query parameter set). */
  url: string;
  /** The line the page under the dialog shows, from its search parameters. */
  page: (params: URLSearchParams) => string;
  /** The dialog, when the search parameters ask for it (else nothing). */
  dialog: (params: URLSearchParams) => ReactNode;
  /** The /admin route's action (forms posting to it). */
  action?: (args: { request: Request }) => Promise<unknown>;
}

/**
 * Renders an admin dialog over a stand-in /admin page at `url`: the page shows
 * one line from the search parameters (so a test sees where closing went) and
 * the dialog while its query parameter is there.
 */
export function renderAdminDialog({
  url,
  page,
  dialog,
  action = async () => null,
}: AdminDialogStub) {
  return renderWithRemix(
    [
      {
        path: "/admin",
        action,
        Component: function AdminStub() {
          const [params] = useSearchParams();
          return (
            <>
              <p>{page(params)}</p>
              {dialog(params)}
            </>
          );
        },
      },
    ],
    { url },
  );
}

// @vitest-environment jsdom
import { afterEach, describe, expect, it } from "vitest";
import { cleanup, render, screen } from "@testing-library/react";
import { createRemixStub } from "@remix-run/testing";
import { json } from "@remix-run/node";
import AdminPortal from "~/routes/_admin+/admin";
import { adminOrder, adminOrderItem, adminUser } from "~/features/admin/components/test-support";
import { WAITING_REFUND_REQUEST } from "#tests/setup/admin-refund-request";

afterEach(cleanup);

const USER = adminUser({ imageCount: 3, earnings: 12.5 });

const ORDER = adminOrder({ id: "ord_1", items: [adminOrderItem({ creatorId: "u1" })] });

const zero = { earned: "0", owed: "0", transferred: "0", held: "0", reversed: "0" };

/** The Admin Portal with a row in every table, so every section draws its table. */
function renderPortal() {
  const Stub = createRemixStub([
    {
      path: "/admin",
      Component: AdminPortal,
      loader: () =>
        json({
          stats: { totalUsers: 1, activeUsers: 1, totalImages: 3, platformRevenue: 3.75 },
          users: [USER],
          q: "",
          viewUser: null,
          undelivered: [
            {
              id: 1,
              to: "cora@example.com",
              subject: "Welcome",
              error: "refused",
              createdAt: "2026-03-04T12:00:00.000Z",
            },
          ],
          orders: [ORDER],
          orderSearch: "",
          orderStatus: "",
          payouts: [
            {
              userId: "u1",
              email: USER.email,
              firstName: "Cora",
              lastName: "Creator",
              account: { status: "active" },
              ...zero,
            },
          ],
          audit: {
            entries: [
              {
                id: 1,
                actorId: "admin",
                actorEmail: "root@example.com",
                action: "user.ban",
                subjectId: "u1",
                detail: null,
                createdAt: "2026-03-04T12:00:00.000Z",
              },
            ],
            nextCursor: "1",
          },
          refundRequests: [WAITING_REFUND_REQUEST],
          refundTarget: null,
          banTarget: null,
          eraseTarget: null,
          reportsView: "open",
          now: "2026-03-05T12:00:00.000Z",
          reports: [
            {
              id: "r1",
              listingId: "l1",
              handle: null,
              creatorId: "u1",
              title: "Beach",
              reason: "intimate",
              details: "That is me.",
              email: "reporter@example.com",
              createdAt: "2026-03-04T11:00:00.000Z",
              confirmedAt: "2026-03-04T12:00:00.000Z",
              dueAt: "2026-03-06T12:00:00.000Z",
              status: "open",
              decision: null,
              note: null,
              decidedAt: null,
              hidden: true,
            },
          ],
          awaitingConsent: {
            count: 1,
            listings: [
              {
                listingId: "l1",
                title: "Beach",
                creatorId: "u1",
                reason: "unverified",
                createdAt: "2026-03-04T12:00:00.000Z",
              },
            ],
          },
          waitlist: {
            entries: [
              {
                id: "w1",
                email: "wait@example.com",
                joinedAt: "2026-03-04T12:00:00.000Z",
                state: "waiting",
                invitedAt: null,
                inviteExpiresAt: null,
              },
            ],
            spots: { total: 10, left: 9 },
          },
        }),
    },
  ]);
  render(<Stub initialEntries={["/admin"]} />);
}

describe("Admin Portal landmarks", () => {
  it("gives every landmark of a role its own name (axe landmark-unique)", async () => {
    renderPortal();
    await screen.findByTestId("audit-section");
    for (const role of ["region", "navigation", "search", "form", "banner"] as const) {
      const names = screen.queryAllByRole(role).map((landmark) => {
        const labelledBy = landmark.getAttribute("aria-labelledby");
        return labelledBy
          ? document.getElementById(labelledBy)?.textContent?.trim()
          : landmark.getAttribute("aria-label");
      });
      expect(new Set(names).size, `${role}: ${names.join(" | ")}`).toBe(names.length);
    }
    // The sections are named by their headings; the scrolling tables inside them say they are tables.
    expect(screen.getByRole("region", { name: "Orders" })).toContainElement(
      screen.getByRole("region", { name: "Orders table" }),
    );
    expect(screen.getByRole("region", { name: "Payouts" })).toContainElement(
      screen.getByRole("region", { name: "Payouts table" }),
    );
    expect(screen.getByRole("region", { name: "Audit log" })).toContainElement(
      screen.getByRole("region", { name: "Audit log table" }),
    );
    expect(screen.getByRole("region", { name: "User Management" })).toContainElement(
      screen.getByRole("region", { name: "Users table" }),
    );
    expect(screen.getByRole("region", { name: "Refund requests" })).toHaveTextContent(
      "Not what the preview showed.",
    );
    expect(screen.getByRole("search", { name: "Search users" })).toBeInTheDocument();
    expect(screen.getByRole("search", { name: "Search orders" })).toBeInTheDocument();
  });

  it("keeps the Payment Monitor (an operator's tool, out of the creator's navigation) one click away", async () => {
    renderPortal();
    await screen.findByTestId("audit-section");
    expect(screen.getByRole("link", { name: "Payment Monitor" })).toHaveAttribute(
      "href",
      "/payment-monitor",
    );
  });
});

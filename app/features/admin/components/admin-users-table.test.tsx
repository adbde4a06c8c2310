// @vitest-environment jsdom
import "@testing-library/jest-dom/vitest";
import { afterEach, describe, expect, it } from "vitest";
import { cleanup, screen, within } from "@testing-library/react";
import { renderWithRemix } from "#tests/setup/render-route";
import userEvent from "@testing-library/user-event";
import { AdminUsersTable } from "~/features/admin/components/admin-users-table";
import type { AdminUser } from "~/features/admin/types";

afterEach(cleanup);

const base: Omit<AdminUser, "id" | "email" | "firstName" | "lastName"> = {
  profileImageUrl: null,
  createdAt: "2026-03-04T12:00:00.000Z",
  banned: false,
  imageCount: 0,
  earnings: 0,
};
const USERS: AdminUser[] = [
  { ...base, id: "super-admin", email: "root@example.com", firstName: "Super", lastName: "Admin" },
  {
    ...base,
    id: "u1",
    email: "cora@example.com",
    firstName: "Cora",
    lastName: "Creator",
    imageCount: 3,
    earnings: 1234.5,
    profileImageUrl: "/media/avatars/cora.jpg",
  },
  {
    ...base,
    id: "u2",
    email: "bad@example.com",
    firstName: "Bad",
    lastName: "Actor",
    banned: true,
    createdAt: "not a date",
  },
  {
    ...base,
    id: "u3",
    email: "erased-u3@deleted.invalid",
    firstName: "Deleted",
    lastName: "user",
    erasedAt: "2026-11-20T10:00:00.000Z",
  },
];

function renderTable(action?: (args: { request: Request }) => Promise<unknown>) {
  return renderWithRemix(
    [
      {
        path: "/admin",
        Component: () => <AdminUsersTable users={USERS} q="" />,
        action: action ?? (() => null),
      },
    ],
    { url: "/admin" },
  );
}

const row = (id: string) => document.querySelector(`[data-user-id="${id}"]`) as HTMLElement;

describe("AdminUsersTable", () => {
  it("wraps a long email inside its cell instead of running it under the Joined column", () => {
    renderTable();
    const email = within(row("u1")).getByText("cora@example.com");
    const cell = email.closest("td")!;
    // Nothing between the text and its cell keeps it on one line (truncate's nowrap overflowed the cell).
    for (
      let node: HTMLElement | null = email;
      node && node !== cell.parentElement;
      node = node.parentElement
    ) {
      expect(node.className).not.toMatch(/\b(truncate|whitespace-nowrap|text-nowrap)\b/);
    }
    expect(email.className).toMatch(/\[overflow-wrap:anywhere\]|break-all/);
    // Every character of the email stays readable: no ellipsis, so no title tooltip is needed.
    expect(email).toHaveTextContent("cora@example.com");
  });

  it("shows every column: avatar or placeholder, name, ID, crown, email, joined or N/A, images, earnings, status", () => {
    renderTable();
    const headers = screen.getAllByRole("columnheader").map((th) => th.textContent);
    expect(headers).toEqual(["User", "Email", "Joined", "Images", "Earnings", "Status", "Actions"]);

    const root = within(row("super-admin"));
    expect(root.getByText("Super Admin")).toBeInTheDocument();
    expect(root.getByText("ID: super-admin")).toBeInTheDocument();
    expect(root.getByRole("img", { name: "Super admin" })).toBeInTheDocument();
    expect(root.getByTestId("avatar-placeholder")).toBeInTheDocument();
    expect(root.getByText("Active")).toBeInTheDocument();

    const cora = within(row("u1"));
    expect(cora.queryByRole("img", { name: "Super admin" })).toBeNull();
    expect(row("u1").querySelector("img")?.getAttribute("src")).toBe("/media/avatars/cora.jpg");
    expect(cora.getByText("cora@example.com")).toBeInTheDocument();
    expect(cora.getByText("3")).toBeInTheDocument();
    expect(cora.getByText("$1,234.50")).toBeInTheDocument();
    expect(row("u1").querySelector("time")?.getAttribute("datetime")).toBe(
      "2026-03-04T12:00:00.000Z",
    );

    const bad = within(row("u2"));
    expect(bad.getByText("Banned")).toBeInTheDocument();
    expect(bad.getByText("N/A")).toBeInTheDocument();
    expect(bad.getByText("$0.00")).toBeInTheDocument();
  });

  it("hides the ban toggle for the super admin and offers Ban (asking first) / Unban to others", () => {
    renderTable();
    expect(within(row("super-admin")).queryByTestId("user-status-toggle")).toBeNull();
    expect(
      within(row("super-admin")).getByRole("link", { name: "View Super Admin" }),
    ).toHaveAttribute("href", "/admin?view=super-admin");
    // Ban opens the confirmation (?ban=<id>); it does not post by itself.
    const ban = within(row("u1")).getByRole("link", { name: "Ban Cora Creator" });
    expect(ban).toHaveTextContent("Ban");
    expect(ban).toHaveAttribute("href", "/admin?ban=u1");
    expect(within(row("u2")).getByRole("button", { name: "Unban Bad Actor" })).toHaveTextContent(
      "Unban",
    );
    // An erased account has neither: it says so.
    expect(within(row("u3")).queryByTestId("user-status-toggle")).toBeNull();
    expect(within(row("u3")).getByText("Erased")).toBeInTheDocument();
    expect(screen.getAllByTestId("user-status-toggle")).toHaveLength(2);
  });

  it("posts Unban as a form in one click and disables it while the request is pending", async () => {
    let release: () => void = () => {};
    let received: FormData | undefined;
    renderTable(async ({ request }) => {
      received = await request.formData();
      await new Promise<void>((resolve) => (release = resolve));
      return null;
    });
    const button = within(row("u2")).getByRole("button", { name: "Unban Bad Actor" });
    const form = button.closest("form")!;
    expect(form.getAttribute("method")).toBe("post");
    expect(form.getAttribute("action")).toBe("/admin");
    await userEvent.click(button);
    expect(
      await within(row("u2")).findByRole("button", { name: "Unban Bad Actor" }),
    ).toBeDisabled();
    expect(within(row("u2")).getByTestId("user-status-toggle")).toHaveTextContent("Unbanning...");
    // Other rows stay usable.
    expect(within(row("u1")).getByRole("link", { name: "Ban Cora Creator" })).toBeInTheDocument();
    expect(received?.get("userId")).toBe("u2");
    expect(received?.get("intent")).toBe("unban");
    release();
    expect(await within(row("u2")).findByText("Unban")).toBeInTheDocument();
    expect(within(row("u2")).getByRole("button", { name: "Unban Bad Actor" })).toBeEnabled();
  });

  it("stacks into labelled cards on phones: every cell but the name carries its column's label; Status and the actions stay in each row", () => {
    renderTable();
    const table = screen.getByRole("table");
    expect(table.className).toMatch(/(^| )block( |$)/);
    expect(table.className).toContain("sm:table");
    for (const tr of document.querySelectorAll<HTMLElement>("[data-testid=user-row]")) {
      const cells = Array.from(tr.querySelectorAll("td"));
      expect(cells.slice(1, -1).map((td) => td.getAttribute("data-label"))).toEqual([
        "Email",
        "Joined",
        "Images",
        "Earnings",
        "Status",
      ]);
      expect(within(tr).getByTestId("view-user")).toBeInTheDocument();
    }
  });

  it("says so when no user matches the search", () => {
    renderWithRemix([{ path: "/admin", Component: () => <AdminUsersTable users={[]} q="zzz" /> }], {
      url: "/admin?q=zzz",
    });
    expect(screen.getByTestId("no-users")).toHaveTextContent('No users match "zzz".');
  });
});

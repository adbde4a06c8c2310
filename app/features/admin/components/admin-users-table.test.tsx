// @vitest-environment jsdom
import "@testing-library/jest-dom/vitest";
import { afterEach, describe, expect, it } from "vitest";
import { cleanup, render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { createRemixStub } from "@remix-run/testing";
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
  { ...base, id: "u1", email: "cora@example.com", firstName: "Cora", lastName: "Creator", imageCount: 3, earnings: 1234.5, profileImageUrl: "/media/avatars/cora.jpg" },
  { ...base, id: "u2", email: "bad@example.com", firstName: "Bad", lastName: "Actor", banned: true, createdAt: "not a date" },
];

function renderTable(action?: (args: { request: Request }) => Promise<unknown>) {
  const Stub = createRemixStub([
    { path: "/admin", Component: () => <AdminUsersTable users={USERS} q="" />, action: action ?? (() => null) },
  ]);
  return render(<Stub initialEntries={["/admin"]} />);
}

const row = (id: string) => document.querySelector(`[data-user-id="${id}"]`) as HTMLElement;

describe("AdminUsersTable", () => {
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
    expect(row("u1").querySelector("time")?.getAttribute("datetime")).toBe("2026-03-04T12:00:00.000Z");

    const bad = within(row("u2"));
    expect(bad.getByText("Banned")).toBeInTheDocument();
    expect(bad.getByText("N/A")).toBeInTheDocument();
    expect(bad.getByText("$0.00")).toBeInTheDocument();
  });

  it("hides the ban toggle for the super admin and offers Ban / Unban to others", () => {
    renderTable();
    expect(within(row("super-admin")).queryByTestId("user-status-toggle")).toBeNull();
    expect(within(row("super-admin")).getByRole("link", { name: "View Super Admin" })).toHaveAttribute("href", "/admin?view=super-admin");
    expect(within(row("u1")).getByRole("button", { name: "Ban Cora Creator" })).toHaveTextContent("Ban");
    expect(within(row("u2")).getByRole("button", { name: "Unban Bad Actor" })).toHaveTextContent("Unban");
    expect(screen.getAllByTestId("user-status-toggle")).toHaveLength(2);
  });

  it("posts the toggle as a form and disables it while the request is pending", async () => {
    let release: () => void = () => {};
    let received: FormData | undefined;
    renderTable(async ({ request }) => {
      received = await request.formData();
      await new Promise<void>((resolve) => (release = resolve));
      return null;
    });
    const button = within(row("u1")).getByRole("button", { name: "Ban Cora Creator" });
    const form = button.closest("form")!;
    expect(form.getAttribute("method")).toBe("post");
    expect(form.getAttribute("action")).toBe("/admin");
    await userEvent.click(button);
    expect(await within(row("u1")).findByRole("button", { name: "Ban Cora Creator" })).toBeDisabled();
    expect(within(row("u1")).getByTestId("user-status-toggle")).toHaveTextContent("Banning...");
    // Other rows stay usable.
    expect(within(row("u2")).getByRole("button", { name: "Unban Bad Actor" })).toBeEnabled();
    expect(received?.get("userId")).toBe("u1");
    expect(received?.get("intent")).toBe("ban");
    release();
    expect(await within(row("u1")).findByText("Ban")).toBeInTheDocument();
    expect(within(row("u1")).getByRole("button", { name: "Ban Cora Creator" })).toBeEnabled();
  });

  it("says so when no user matches the search", () => {
    const Stub = createRemixStub([{ path: "/admin", Component: () => <AdminUsersTable users={[]} q="zzz" /> }]);
    render(<Stub initialEntries={["/admin?q=zzz"]} />);
    expect(screen.getByTestId("no-users")).toHaveTextContent('No users match "zzz".');
  });
});

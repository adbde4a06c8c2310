// @vitest-environment jsdom
import "@testing-library/jest-dom/vitest";
import { afterEach, describe, expect, it, vi } from "vitest";
import { act, cleanup, screen } from "@testing-library/react";
import { renderWithRemix } from "#tests/setup/render-route";
import userEvent from "@testing-library/user-event";
import { AccessDenied } from "~/features/admin/components/access-denied";
import { UserDetailsDialog } from "~/features/admin/components/user-details-dialog";
import { adminUser, renderAdminDialog } from "~/features/admin/components/test-support";

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

const CORA = adminUser({ banned: true, imageCount: 7, earnings: 42.5 });

describe("UserDetailsDialog", () => {
  function renderDialog() {
    return renderAdminDialog({
      url: "/admin?q=cora&view=u1",
      page: (params) => `Admin page, search ${params.get("q")}`,
      dialog: (params) =>
        params.get("view") === "u1" ? (
          <UserDetailsDialog user={CORA} closeHref="/admin?q=cora" />
        ) : null,
    });
  }

  it("shows the User Details fields in an accessible dialog", async () => {
    renderDialog();
    const dialog = await screen.findByRole("dialog", { name: "User Details" });
    expect(dialog).toHaveTextContent("Cora Creator");
    expect(dialog).toHaveTextContent("cora@example.com");
    expect(dialog).toHaveTextContent("Banned");
    expect(dialog).toHaveTextContent("User ID");
    expect(dialog).toHaveTextContent("u1");
    expect(dialog).toHaveTextContent("Joined Date");
    expect(dialog).toHaveTextContent("Total Images");
    expect(dialog).toHaveTextContent("7");
    expect(dialog).toHaveTextContent("Total Earnings");
    expect(dialog).toHaveTextContent("$42.50");
  });

  it("closes with Escape by going to the close URL", async () => {
    renderDialog();
    await screen.findByRole("dialog", { name: "User Details" });
    await userEvent.keyboard("{Escape}");
    await vi.waitFor(() => expect(screen.queryByRole("dialog")).toBeNull(), { timeout: 2000 });
    expect(screen.getByText("Admin page, search cora")).toBeInTheDocument();
  });

  it("closes with the Close button", async () => {
    renderDialog();
    await screen.findByRole("dialog", { name: "User Details" });
    await userEvent.click(screen.getByRole("button", { name: "Close" }));
    await vi.waitFor(() => expect(screen.queryByRole("dialog")).toBeNull(), { timeout: 2000 });
  });
});

describe("AccessDenied", () => {
  it("shows Access Denied and sends the visitor to / after 1000 ms", async () => {
    vi.useFakeTimers();
    renderWithRemix(
      [
        { path: "/admin", Component: AccessDenied },
        { path: "/", Component: () => <p>Home page</p> },
      ],
      { url: "/admin" },
    );
    expect(screen.getByRole("heading", { name: "Access Denied" })).toBeInTheDocument();
    expect(screen.getByText("You don't have permission to view this page.")).toBeInTheDocument();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(999);
    });
    expect(screen.queryByText("Home page")).toBeNull();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(1);
    });
    expect(screen.getByText("Home page")).toBeInTheDocument();
  });
});

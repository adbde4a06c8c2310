// @vitest-environment jsdom
import "@testing-library/jest-dom/vitest";
import { afterEach, describe, expect, it } from "vitest";
import { cleanup, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { BanConfirmation } from "~/features/admin/components/ban-confirmation";
import { adminUser, renderAdminDialog } from "~/features/admin/components/test-support";

afterEach(cleanup);

const CORA = adminUser();

function renderConfirmation(action?: (args: { request: Request }) => Promise<unknown>) {
  return renderAdminDialog({
    url: "/admin?q=cora&ban=u1",
    page: (params) => `Users, search ${params.get("q")}`,
    dialog: (params) =>
      params.get("ban") === CORA.id ? (
        <BanConfirmation user={CORA} closeHref="/admin?q=cora" />
      ) : null,
    action,
  });
}

describe("BanConfirmation", () => {
  it("asks first, saying what a ban does", async () => {
    renderConfirmation();
    const dialog = await screen.findByRole("dialog", { name: "Ban Cora Creator?" });
    expect(dialog).toHaveTextContent("cora@example.com");
    expect(dialog).toHaveTextContent("signed out everywhere");
  });

  it("Cancel closes it without posting", async () => {
    let posted = false;
    renderConfirmation(async () => {
      posted = true;
      return null;
    });
    await userEvent.click(await screen.findByRole("button", { name: "Cancel" }));
    expect(screen.queryByRole("dialog")).toBeNull();
    expect(posted).toBe(false);
  });

  it("confirming posts the ban intent for that user", async () => {
    let received: FormData | undefined;
    renderConfirmation(async ({ request }) => {
      received = await request.formData();
      return null;
    });
    await userEvent.click(await screen.findByRole("button", { name: "Ban user" }));
    await screen.findByText(/Users, search/);
    expect(received?.get("intent")).toBe("ban");
    expect(received?.get("userId")).toBe("u1");
  });
});

// @vitest-environment jsdom
import "@testing-library/jest-dom/vitest";
import { afterEach, describe, expect, it } from "vitest";
import { cleanup, screen } from "@testing-library/react";
import { renderWithRemix } from "#tests/setup/render-route";
import userEvent from "@testing-library/user-event";
import { useSearchParams } from "@remix-run/react";
import { BanConfirmation } from "~/features/admin/components/ban-confirmation";
import type { AdminUser } from "~/features/admin/types";

afterEach(cleanup);

const CORA: AdminUser = {
  id: "u1",
  email: "cora@example.com",
  firstName: "Cora",
  lastName: "Creator",
  profileImageUrl: null,
  createdAt: "2026-03-04T12:00:00.000Z",
  banned: false,
  imageCount: 0,
  earnings: 0,
};

function renderConfirmation(
  action: (args: { request: Request }) => Promise<unknown> = async () => null,
) {
  return renderWithRemix(
    [
      {
        path: "/admin",
        action,
        Component: function AdminStub() {
          const [params] = useSearchParams();
          return (
            <>
              <p>Users, search {params.get("q")}</p>
              {params.get("ban") === CORA.id ? (
                <BanConfirmation user={CORA} closeHref="/admin?q=cora" />
              ) : null}
            </>
          );
        },
      },
    ],
    { url: "/admin?q=cora&ban=u1" },
  );
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

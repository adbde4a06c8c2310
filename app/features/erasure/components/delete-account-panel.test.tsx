// @vitest-environment jsdom
import "@testing-library/jest-dom/vitest";
import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, screen } from "@testing-library/react";
import { renderWithRemix } from "#tests/setup/render-route";
import userEvent from "@testing-library/user-event";
import { useActionData, useSearchParams } from "@remix-run/react";
import { DeleteAccountPanel } from "~/features/erasure/components/delete-account-panel";

afterEach(cleanup);

function renderPanel(
  action: (args: { request: Request }) => Promise<unknown> = async () => null,
  entry = "/settings/delete",
) {
  return renderWithRemix(
    [
      {
        path: "/settings/delete",
        action,
        Component: function DeleteStub() {
          const [params] = useSearchParams();
          const lastResult = useActionData() as never;
          return (
            <DeleteAccountPanel
              email="cora@example.com"
              confirmOpen={params.get("confirm") === "1" || Boolean(lastResult)}
              lastResult={lastResult}
            />
          );
        },
      },
    ],
    { url: entry },
  );
}

describe("DeleteAccountPanel", () => {
  it("says what is deleted and what is kept before anything is asked", async () => {
    renderPanel();
    const panel = await screen.findByTestId("delete-account");
    expect(panel).toHaveTextContent("cora@example.com");
    expect(panel).toHaveTextContent("Buyers keep what they paid for");
    expect(panel).toHaveTextContent("Backups taken before the deletion");
    expect(screen.queryByRole("dialog")).toBeNull();
  });

  it("opens the confirmation, and posts the password and the ticked box", async () => {
    let posted: Record<string, string> | null = null;
    renderPanel(async ({ request }) => {
      posted = Object.fromEntries((await request.formData()).entries()) as Record<string, string>;
      return null;
    });
    await userEvent.click(await screen.findByRole("link", { name: "Delete my account…" }));
    const dialog = await screen.findByRole("dialog", { name: "Delete your account?" });
    expect(dialog).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText("Password"), "correct-horse");
    await userEvent.click(screen.getByRole("checkbox", { name: /I understand/ }));
    await userEvent.click(screen.getByRole("button", { name: "Delete my account" }));
    await vi.waitFor(() => expect(posted).toEqual({ password: "correct-horse", confirm: "on" }));
  });

  it("shows the server's refusal of a wrong password in the open confirmation", async () => {
    renderPanel(
      async () => ({
        status: "error",
        initialValue: {},
        error: { password: ["The password is not correct"] },
      }),
      "/settings/delete?confirm=1",
    );
    await userEvent.type(await screen.findByLabelText("Password"), "wrong-password");
    await userEvent.click(screen.getByRole("checkbox", { name: /I understand/ }));
    await userEvent.click(screen.getByRole("button", { name: "Delete my account" }));
    expect(await screen.findByText("The password is not correct")).toBeInTheDocument();
    expect(screen.getByRole("dialog", { name: "Delete your account?" })).toBeInTheDocument();
  });
});

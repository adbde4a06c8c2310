// @vitest-environment jsdom
import "@testing-library/jest-dom/vitest";
import { afterEach, describe, expect, it } from "vitest";
import { cleanup, screen, within } from "@testing-library/react";
import { renderWithRemix } from "#tests/setup/render-route";
import userEvent from "@testing-library/user-event";
import { useLoaderData, useSearchParams } from "@remix-run/react";
import { SecurityTab } from "~/features/accounts/sessions/components/security-tab";
import type { SessionView } from "~/features/accounts/sessions/session-types";

afterEach(cleanup);

const SESSIONS: SessionView[] = [
  {
    id: "this-one",
    kind: "web",
    createdAt: "2026-11-20T09:00:00.000Z",
    lastUsedAt: "2026-11-26T10:00:00.000Z",
    userAgent:
      "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36",
    current: true,
  },
  {
    id: "phone",
    kind: "web",
    createdAt: "2026-11-21T09:00:00.000Z",
    lastUsedAt: "2026-11-25T10:00:00.000Z",
    userAgent:
      "Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Mobile/15E148 Safari/604.1",
    current: false,
  },
  {
    id: "script",
    kind: "token",
    createdAt: "2026-11-22T09:00:00.000Z",
    lastUsedAt: null,
    userAgent: "curl/8.4.0",
    current: false,
  },
];

function renderTab(
  action: (args: { request: Request }) => Promise<unknown> = async () => null,
  entry = "/settings/security",
) {
  return renderWithRemix(
    [
      {
        path: "/settings/security",
        loader: () => ({ sessions: SESSIONS }),
        action,
        Component: function SecurityStub() {
          const { sessions } = useLoaderData() as { sessions: SessionView[] };
          const [params] = useSearchParams();
          return <SecurityTab sessions={sessions} confirming={params.get("revoke")} />;
        },
      },
    ],
    { url: entry },
  );
}

describe("SecurityTab", () => {
  it("lists each session and token with its browser, kind and use, and marks this browser", async () => {
    renderTab();
    const rows = await screen.findAllByTestId("session-row");
    expect(rows).toHaveLength(3);
    expect(rows[0]).toHaveTextContent("Chrome on Linux");
    expect(within(rows[0]).getByTestId("current-session")).toHaveTextContent("This browser");
    expect(rows[1]).toHaveTextContent("Safari on iOS");
    expect(rows[1]).toHaveTextContent("Web session");
    expect(rows[2]).toHaveTextContent("curl");
    expect(rows[2]).toHaveTextContent("API token");
    expect(rows[2]).toHaveTextContent("last used never");
    expect(within(rows[1]).queryByTestId("current-session")).toBeNull();
  });

  it("Revoke asks first, and Cancel posts nothing", async () => {
    let posted = false;
    renderTab(async () => {
      posted = true;
      return null;
    });
    await userEvent.click(
      await screen.findByRole("button", { name: "Revoke Safari on iOS (web session)" }),
    );
    const dialog = await screen.findByRole("dialog", {
      name: "Revoke Safari on iOS (web session)?",
    });
    expect(dialog).toHaveTextContent("signed out at its next request");
    await userEvent.click(within(dialog).getByRole("button", { name: "Cancel" }));
    expect(screen.queryByRole("dialog")).toBeNull();
    expect(posted).toBe(false);
  });

  it("confirming a Revoke posts its intent and id, and the dialog closes", async () => {
    let received: FormData | undefined;
    renderTab(async ({ request }) => {
      received = await request.formData();
      return null;
    });
    await userEvent.click(await screen.findByRole("button", { name: "Revoke curl (api token)" }));
    const dialog = await screen.findByRole("dialog");
    await userEvent.click(within(dialog).getByRole("button", { name: "Revoke" }));
    await screen.findAllByTestId("session-row");
    expect(received?.get("intent")).toBe("revoke");
    expect(received?.get("id")).toBe("script");
    expect(screen.queryByRole("dialog")).toBeNull();
  });

  it("revoking this browser says it signs out here; Sign out everywhere else posts its own intent", async () => {
    let received: FormData | undefined;
    renderTab(async ({ request }) => {
      received = await request.formData();
      return null;
    });
    await userEvent.click(
      await screen.findByRole("button", { name: "Revoke Chrome on Linux (web session)" }),
    );
    expect(await screen.findByRole("dialog")).toHaveTextContent("you will be signed out here");
    await userEvent.click(screen.getByRole("button", { name: "Cancel" }));

    await userEvent.click(screen.getByRole("button", { name: "Sign out everywhere else" }));
    const dialog = await screen.findByRole("dialog", { name: "Sign out everywhere else?" });
    await userEvent.click(within(dialog).getByRole("button", { name: "Sign out everywhere else" }));
    await screen.findAllByTestId("session-row");
    expect(received?.get("intent")).toBe("sign-out-others");
  });

  it("opens the confirmation the address asks for (?revoke=<id>), as a page without JavaScript would", async () => {
    renderTab(undefined, "/settings/security?revoke=phone");
    expect(
      await screen.findByRole("dialog", { name: "Revoke Safari on iOS (web session)?" }),
    ).toBeInTheDocument();
  });

  it("the password form has the current and the new password, and says what a change does", async () => {
    let received: FormData | undefined;
    renderTab(async ({ request }) => {
      received = await request.formData();
      return null;
    });
    const form = await screen.findByTestId("password-form");
    expect(screen.getByText(/signs out every other browser/)).toBeInTheDocument();
    await userEvent.type(within(form).getByLabelText("Current password"), "correct-horse");
    await userEvent.type(within(form).getByLabelText("New password"), "a-brand-new-secret");
    await userEvent.click(within(form).getByRole("button", { name: "Change password" }));
    await screen.findAllByTestId("session-row");
    await expect.poll(() => received?.get("intent")).toBe("change-password");
    expect(received?.get("currentPassword")).toBe("correct-horse");
    expect(received?.get("newPassword")).toBe("a-brand-new-secret");
  });
});

// @vitest-environment jsdom
import "@testing-library/jest-dom/vitest";
import { afterEach, describe, expect, it } from "vitest";
import { cleanup, screen } from "@testing-library/react";
import { renderWithRemix } from "#tests/setup/render-route";
import { formOf } from "#tests/setup/form-of";
import { DataExportPanel } from "~/features/accounts/exports/components/data-export-panel";
import type { AccountExportView } from "~/features/accounts/exports/account-export-types";

afterEach(cleanup);

const READY: AccountExportView = {
  id: "export-1",
  status: "ready",
  url: "http://localhost:3000/media/exports/abcdefgh12.zip?exp=1&sig=x",
  expiresAt: "2026-11-27T12:00:00.000Z",
  createdAt: "2026-11-26T11:58:00.000Z",
  bytes: 3 * 1024 * 1024,
  error: null,
};

function renderPanel(props: Parameters<typeof DataExportPanel>[0]) {
  renderWithRemix(<DataExportPanel {...props} />, { url: "/settings/export" });
}

describe("DataExportPanel", () => {
  it("says what an export holds and asks for one with a plain form post", () => {
    renderPanel({ latest: null, nextAllowedAt: null });
    expect(screen.getByRole("heading", { name: "Download your data" })).toBeInTheDocument();
    expect(screen.getByTestId("data-export-panel")).toHaveTextContent("account.json");
    expect(screen.getByTestId("data-export-panel")).toHaveTextContent("never a key");
    expect(screen.getByTestId("data-export-state")).toHaveTextContent(
      "You have not asked for an export yet.",
    );
    const ask = screen.getByRole("button", { name: "Ask for an export" });
    expect(formOf(ask)).toEqual({
      method: "post",
      action: "/settings/export",
      fields: { intent: "export" },
    });
  });

  it("shows a pending export without a button, and refreshes the page without JavaScript", () => {
    renderPanel({
      latest: { ...READY, status: "pending", url: null, expiresAt: null, bytes: null },
      nextAllowedAt: null,
    });
    expect(screen.getByTestId("data-export-state")).toHaveTextContent(
      "Your export is being prepared.",
    );
    expect(screen.queryByRole("button")).not.toBeInTheDocument();
    expect(document.querySelector("noscript")).not.toBeNull();
  });

  it("offers the download while the link works, and says when the next export may be asked for", () => {
    renderPanel({ latest: READY, nextAllowedAt: "2026-11-26T12:58:00.000Z" });
    const link = screen.getByRole("link", { name: "Download your data (zip)" });
    expect(link).toHaveAttribute("href", READY.url);
    expect(screen.getByTestId("data-export-state")).toHaveTextContent(
      "Your export is ready (3.0 MB)",
    );
    expect(screen.getByTestId("data-export-state")).toHaveTextContent(
      "The link works until 27 Nov 2026, 12:00 UTC.",
    );
    expect(screen.getByTestId("data-export-wait")).toHaveTextContent(
      "the next one from 26 Nov 2026, 12:58 UTC",
    );
    expect(screen.queryByRole("button")).not.toBeInTheDocument();
  });

  it("says an expired or failed export is gone, and offers a new one", () => {
    renderPanel({ latest: { ...READY, url: null }, nextAllowedAt: null });
    expect(screen.getByTestId("data-export-state")).toHaveTextContent(
      "Your latest export has expired",
    );
    expect(screen.queryByRole("link", { name: /Download/ })).not.toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Ask for a new export" })).toBeInTheDocument();
    cleanup();
    renderPanel({
      latest: {
        ...READY,
        status: "failed",
        url: null,
        error: "The export could not be built. Please ask for it again.",
      },
      nextAllowedAt: null,
    });
    expect(screen.getByTestId("data-export-state")).toHaveTextContent(
      "Your export failed. The export could not be built.",
    );
  });
});

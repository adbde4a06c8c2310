// @vitest-environment jsdom
import "@testing-library/jest-dom/vitest";
import { afterEach, describe, expect, it } from "vitest";
import { cleanup, screen } from "@testing-library/react";
import { UNSAFE_ErrorResponseImpl as ErrorResponse } from "@remix-run/router";
import { renderWithRemix } from "#tests/setup/render-route";
import { ErrorPage } from "~/ui/error-panel";

afterEach(cleanup);

function show(error: unknown) {
  renderWithRemix(<ErrorPage error={error} />, { url: "/somewhere" });
}

describe("ErrorPage", () => {
  it("says a missing page is missing", async () => {
    show(new ErrorResponse(404, "Not Found", null));
    expect(await screen.findByRole("heading", { name: "Page Not Found" })).toBeInTheDocument();
    expect(
      screen.getByText("The page you are looking for does not exist or has moved."),
    ).toBeInTheDocument();
  });

  it("says a refused page is refused", async () => {
    show(new ErrorResponse(403, "Forbidden", null));
    expect(await screen.findByRole("heading", { name: "Access Denied" })).toBeInTheDocument();
    expect(screen.getByText("You don't have permission to view this page.")).toBeInTheDocument();
  });

  it("gives another status with the message its answer carries, or the general sentence", async () => {
    show(new ErrorResponse(409, "Conflict", { message: "That listing was just sold." }));
    expect(await screen.findByRole("heading", { name: "409 Conflict" })).toBeInTheDocument();
    expect(screen.getByText("That listing was just sold.")).toBeInTheDocument();
    cleanup();
    show(new ErrorResponse(503, "", "down"));
    expect(await screen.findByRole("heading", { name: "503 Error" })).toBeInTheDocument();
    expect(screen.getByText("An unexpected error occurred. Please try again.")).toBeInTheDocument();
  });

  it("shows a thrown failure as one, never its message", async () => {
    show(new Error("SQLITE_BUSY: database is locked"));
    expect(
      await screen.findByRole("heading", { name: "Something went wrong" }),
    ).toBeInTheDocument();
    expect(screen.queryByText(/SQLITE_BUSY/)).toBeNull();
  });
});

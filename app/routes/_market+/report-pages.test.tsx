// @vitest-environment jsdom
import { render, screen } from "@testing-library/react";
import { createRemixStub } from "@remix-run/testing";
import { json } from "@remix-run/node";
import { describe, expect, it } from "vitest";
import ReportPage from "~/routes/_market+/report";
import ConfirmReport from "~/routes/_market+/reports.confirm";
import { ReportLink } from "~/features/reports/components/report-link";
import { ReportsSection } from "~/features/reports/components/reports-section";
import type { ReportJson } from "~/features/reports/report-types";

function renderAt(url: string, Component: () => JSX.Element, data: unknown) {
  const path = new URL(url, "http://localhost").pathname;
  const Stub = createRemixStub([{ path, Component, loader: () => json(data) }]);
  render(<Stub initialEntries={[url]} />);
}

describe("the report pages", () => {
  it("/report: a plain form (no JavaScript needed) with the reasons, the email, the details and Send report", async () => {
    renderAt("/report?listing=l1", ReportPage, {
      sent: false,
      target: { listingId: "l1", handle: null, label: "the listing “Beach”" },
    });
    const button = await screen.findByRole("button", { name: "Send report" });
    const form = button.closest("form")!;
    expect(form).toHaveAttribute("method", "post");
    expect(form.getAttribute("action")).toBe("/report");
    expect(form.querySelector('input[type="hidden"][name="listingId"]')).toHaveValue("l1");
    expect(screen.getByRole("group", { name: "Reason" })).toBeInTheDocument();
    for (const [label, value] of [
      ["This is me and I did not agree", "my-likeness"],
      ["Intimate or sexual image", "intimate"],
      ["Copyright", "copyright"],
      ["Other", "other"],
    ]) {
      const radio = screen.getByRole("radio", { name: label });
      expect(radio).toHaveAttribute("name", "reason");
      expect(radio).toHaveAttribute("value", value);
    }
    expect(screen.getByLabelText("Email")).toHaveAttribute("type", "email");
    expect(screen.getByLabelText("Details").tagName).toBe("TEXTAREA");
    expect(screen.getByTestId("report-target")).toHaveTextContent("the listing “Beach”");
  });

  it("/report for a storefront posts its handle", async () => {
    renderAt("/report?handle=ada", ReportPage, {
      sent: false,
      target: { listingId: null, handle: "ada", label: "the storefront @ada" },
    });
    const button = await screen.findByRole("button", { name: "Send report" });
    expect(button.closest("form")!.querySelector('input[name="handle"]')).toHaveValue("ada");
  });

  it("/report?sent=1: the mailed link is announced", async () => {
    renderAt("/report?sent=1", ReportPage, { sent: true, target: null });
    expect(await screen.findByRole("status")).toHaveTextContent("We sent a link to your email");
    expect(screen.queryByRole("button")).toBeNull();
  });

  it("/reports/confirm?token=…: opening it shows a Confirm report button that posts the token", async () => {
    renderAt("/reports/confirm?token=abc", ConfirmReport, { token: "abc", confirmed: false });
    const button = await screen.findByRole("button", { name: "Confirm report" });
    const form = button.closest("form")!;
    expect(form).toHaveAttribute("method", "post");
    expect(form.querySelector('input[type="hidden"][name="token"]')).toHaveValue("abc");
  });

  it("/reports/confirm?confirmed=1: the report is confirmed", async () => {
    renderAt("/reports/confirm?confirmed=1", ConfirmReport, { token: "", confirmed: true });
    expect(await screen.findByRole("status")).toHaveTextContent("Your report is confirmed");
  });

  it("the Report link of a listing page and of a storefront", async () => {
    const Stub = createRemixStub([
      {
        path: "/",
        Component: () => (
          <>
            <ReportLink target={{ listingId: "l 1" }} what="this image" />
            <ReportLink target={{ handle: "ada" }} what="this storefront" />
          </>
        ),
      },
    ]);
    render(<Stub initialEntries={["/"]} />);
    expect(await screen.findByRole("link", { name: "Report this image" })).toHaveAttribute(
      "href",
      "/report?listing=l%201",
    );
    expect(screen.getByRole("link", { name: "Report this storefront" })).toHaveAttribute(
      "href",
      "/report?handle=ada",
    );
  });

  it("the admin's Reports section: the oldest due first with the time left, overdue in red, Remove and Dismiss with a note", async () => {
    const report = (id: string, dueAt: string): ReportJson => ({
      id,
      listingId: `listing-${id}`,
      handle: null,
      creatorId: "u1",
      title: `Image ${id}`,
      reason: "copyright",
      details: "",
      email: "reporter@example.com",
      createdAt: "2026-03-01T10:00:00.000Z",
      confirmedAt: "2026-03-01T10:00:00.000Z",
      dueAt,
      status: "open",
      decision: null,
      note: null,
      decidedAt: null,
      hidden: false,
    });
    const Stub = createRemixStub([
      {
        path: "/admin",
        Component: () => (
          <ReportsSection
            reports={[
              report("a", "2026-03-03T10:00:00.000Z"),
              report("b", "2026-03-03T14:30:00.000Z"),
            ]}
            view="open"
            now="2026-03-03T12:00:00.000Z"
            closedHref="/admin?reports=closed"
            openHref="/admin"
          />
        ),
      },
    ]);
    render(<Stub initialEntries={["/admin"]} />);
    const times = await screen.findAllByTestId("report-time-left");
    expect(times.map((time) => time.getAttribute("data-overdue"))).toEqual(["true", "false"]);
    expect(times[0]).toHaveTextContent("overdue by 2 h 0 min");
    expect(times[0]).toHaveClass("text-red-700");
    expect(times[1]).toHaveTextContent("2 h 30 min left");
    expect(screen.getByTestId("reports-summary")).toHaveTextContent("2 open, 1 overdue");
    const remove = screen.getByRole("button", { name: "Remove Image a" });
    expect(remove).toHaveAttribute("name", "decision");
    expect(remove).toHaveAttribute("value", "remove");
    const form = remove.closest("form")!;
    expect(form).toHaveAttribute("method", "post");
    expect(form.querySelector('input[name="intent"]')).toHaveValue("decide-report");
    expect(form.querySelector('input[name="id"]')).toHaveValue("a");
    expect(screen.getAllByLabelText("Note")[0].tagName).toBe("TEXTAREA");
    expect(screen.getByRole("button", { name: "Dismiss the report of Image a" })).toHaveAttribute(
      "value",
      "dismiss",
    );
  });
});

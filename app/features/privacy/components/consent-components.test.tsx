// @vitest-environment jsdom
import { afterEach, describe, expect, it } from "vitest";
import { cleanup, screen, within } from "@testing-library/react";
import { renderWithRemix } from "#tests/setup/render-route";
import type { ReactNode } from "react";
import { ToastProvider } from "~/ui/toaster";
import { StyleGenerator } from "~/features/studio/styles/components/style-generator";
import { PrivacySettings } from "~/features/privacy/components/privacy-settings";
import { PrivacyPage } from "~/features/privacy/components/privacy-page";
import { faceConsentText } from "~/features/privacy/face-consent";
import { TEST_IMAGE } from "#tests/setup/studio-json";

afterEach(cleanup);

const IMAGE = TEST_IMAGE;

function renderAt(path: string, element: ReactNode) {
  renderWithRemix(
    [
      {
        path: path.split("?")[0],
        Component: () => <ToastProvider flash={null}>{element}</ToastProvider>,
      },
    ],
    { url: path },
  );
}

describe("the Style step without consent", () => {
  it("shows the consent form, with the text and a link to the privacy page, instead of Generate", () => {
    const paragraphs = faceConsentText({ kind: "local" });
    renderAt(
      "/dashboard",
      <StyleGenerator image={IMAGE} pending={null} consent={{ given: false, paragraphs }} />,
    );
    const form = screen.getByTestId("face-consent-form");
    expect(within(form).getByText(/468 points/)).toBeInTheDocument();
    expect(within(form).getByRole("link", { name: "privacy page" })).toHaveAttribute(
      "href",
      "/privacy",
    );
    const agree = within(form).getByRole("button", { name: /I agree/ });
    const post = agree.closest("form")!;
    expect(post).toHaveAttribute("action", "/dashboard");
    expect(post).toHaveAttribute("method", "post");
    expect(new FormData(post).get("intent")).toBe("give-consent");
    expect(new FormData(post).get("back")).toBe("/dashboard?image=img1&step=style");
    expect(screen.queryByRole("button", { name: /Generate/ })).toBeNull();
  });

  it("says the consent was to an earlier text when the text changed (fal.ai set up), with the new text to agree to", () => {
    const paragraphs = faceConsentText({ kind: "fal", photoExpirySeconds: 180 });
    renderAt(
      "/dashboard",
      <StyleGenerator
        image={IMAGE}
        pending={null}
        consent={{ given: false, outdated: true, paragraphs }}
      />,
    );
    const form = screen.getByTestId("face-consent-form");
    expect(within(form).getByTestId("consent-outdated")).toHaveTextContent(
      "You agreed to an earlier version of this text",
    );
    expect(within(form).getByText(/sent to fal\.ai/)).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: /Generate/ })).toBeNull();
  });

  it("shows no such sentence to a creator who never agreed", () => {
    renderAt(
      "/dashboard",
      <StyleGenerator
        image={IMAGE}
        pending={null}
        consent={{ given: false, outdated: false, paragraphs: faceConsentText({ kind: "local" }) }}
      />,
    );
    expect(screen.queryByTestId("consent-outdated")).toBeNull();
  });

  it("shows Generate once consent is given, and says when the upload will be removed", () => {
    renderAt(
      "/dashboard",
      <StyleGenerator
        image={{ ...IMAGE, removesAt: "2026-12-22T10:00:00.000Z" }}
        pending={null}
        consent={{ given: true, paragraphs: [] }}
      />,
    );
    expect(screen.queryByTestId("face-consent-form")).toBeNull();
    expect(screen.getByRole("button", { name: /Generate/ })).toBeInTheDocument();
    expect(screen.getByTestId("original-removal")).toHaveTextContent(
      "This upload is removed on 22 December 2026",
    );
  });

  it("names fal.ai and its expiry when fal.ai styles", () => {
    const paragraphs = faceConsentText({ kind: "fal", photoExpirySeconds: 180 });
    renderAt(
      "/dashboard",
      <StyleGenerator image={IMAGE} pending={null} consent={{ given: false, paragraphs }} />,
    );
    expect(screen.getByText(/sent to fal\.ai/)).toBeInTheDocument();
    expect(screen.getByText(/expiry of 180 seconds/)).toBeInTheDocument();
  });
});

describe("Settings, Privacy", () => {
  it("shows when the consent was given and offers Withdraw", () => {
    renderAt(
      "/settings/privacy",
      <PrivacySettings
        screen={{
          given: true,
          outdated: false,
          record: { given: true, at: "2026-11-26T09:30:00.000Z", version: "v1" },
          paragraphs: ["Text."],
        }}
      />,
    );
    expect(screen.getByTestId("consent-state")).toHaveTextContent(
      "You agreed to face processing on 26 November 2026 at 09:30 UTC (text version v1).",
    );
    const withdraw = screen.getByRole("button", { name: "Withdraw consent" }).closest("form")!;
    expect(new FormData(withdraw).get("intent")).toBe("withdraw-consent");
  });

  it("asks again when the text changed", () => {
    renderAt(
      "/settings/privacy",
      <PrivacySettings
        screen={{
          given: false,
          outdated: true,
          record: { given: false, at: null, version: null },
          paragraphs: ["Text."],
        }}
      />,
    );
    expect(screen.getByTestId("consent-state")).toHaveTextContent("has changed since you agreed");
    expect(screen.getByRole("button", { name: /I agree/ }).closest("form")).toHaveAttribute(
      "action",
      "/settings/privacy",
    );
  });
});

describe("the privacy page", () => {
  it("renders every section and links fal.ai's retention when it is used", () => {
    renderAt(
      "/privacy",
      <PrivacyPage
        facts={{
          sections: [{ id: "styling", title: "Styling: fal.ai", paragraphs: ["Sent to fal.ai."] }],
          consentVersion: "v1",
          vendorRetentionUrl: "https://docs.fal.ai/documentation/model-apis/media-expiration",
        }}
      />,
    );
    expect(screen.getByRole("heading", { name: "Styling: fal.ai" })).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "fal.ai data retention" })).toHaveAttribute(
      "href",
      expect.stringContaining("docs.fal.ai"),
    );
  });
});

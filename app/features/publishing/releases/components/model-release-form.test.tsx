// @vitest-environment jsdom
import "@testing-library/jest-dom/vitest";
import { afterEach, describe, expect, it } from "vitest";
import { cleanup, screen } from "@testing-library/react";
import { renderWithRemix } from "#tests/setup/render-route";
import { ModelReleasePanel } from "~/features/publishing/releases/components/model-release-form";
import type { ModelReleaseState } from "~/features/publishing/releases/components/model-release-form";

afterEach(cleanup);

const state: ModelReleaseState = {
  imageId: "img1",
  ready: true,
  release: null,
  sizeRefusal: null,
  suggestedName: "Ada Lovelace",
  suggestedEmail: "ada@example.com",
  today: "2026-11-29",
};

function renderPanel(panelState: ModelReleaseState) {
  return renderWithRemix(
    [{ path: "/", Component: () => <ModelReleasePanel state={panelState} /> }],
    { url: "/" },
  );
}

describe("the model release page", () => {
  it("asks what Adobe's release form asks, as plain required fields, and ticks the self-portrait by default", async () => {
    renderPanel(state);
    const form = await screen.findByTestId("model-release-sign");
    expect(screen.getByLabelText("Your full name (the person shown)")).toHaveValue("Ada Lovelace");
    expect(screen.getByLabelText("Date of birth")).toHaveAttribute("type", "date");
    expect(screen.getByLabelText("Date of birth")).toBeRequired();
    expect(screen.getByLabelText("Postal address")).toBeRequired();
    expect(screen.getByLabelText("Email")).toHaveValue("ada@example.com");
    expect(screen.getByLabelText("Phone")).toHaveAttribute("type", "tel");
    expect(screen.getByLabelText("Date the photo was taken")).toBeRequired();
    expect(screen.getByLabelText("Where it was taken (optional)")).not.toBeRequired();
    expect(screen.getByLabelText(/I took this photo myself/)).toBeChecked();
    expect(
      screen.getByLabelText("Or the photographer's full name, if someone else took it"),
    ).toHaveAttribute("name", "photographerName");
    // Posted as a plain form (no JavaScript needed) to the release page.
    expect(form).toHaveAttribute("method", "post");
    expect(form).toHaveAttribute("action", "/studio/release?image=img1");
  });

  it("says what personal data the release keeps, where and why, and offers Adobe Sign", async () => {
    renderPanel(state);
    const privacy = await screen.findByTestId("model-release-privacy");
    expect(privacy).toHaveTextContent(
      "Your date of birth, address, email and phone are printed on the release PDF and kept nowhere else",
    );
    expect(privacy).toHaveTextContent("deleted with the image or with your account");
    expect(privacy).toHaveTextContent("Adobe Sign");
  });

  it("shows a release that waits for its photographer's signature", async () => {
    renderPanel({
      ...state,
      release: {
        kind: "signed",
        modelName: "Ada Lovelace",
        signedOn: "2026-11-29",
        drawnSignature: false,
        awaitingPhotographer: true,
        bytes: 40_000,
        createdAt: "2026-11-29T10:00:00Z",
        downloadUrl: "/api/token-stylized-images/img1/model-release",
      },
    });
    expect(await screen.findByTestId("model-release-awaiting-photographer")).toHaveTextContent(
      "have them sign the PDF as photographer",
    );
  });
});

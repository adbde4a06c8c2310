// @vitest-environment jsdom
import "@testing-library/jest-dom/vitest";
import { afterEach, describe, expect, it } from "vitest";
import { cleanup, screen } from "@testing-library/react";
import type { PublicationView } from "~/features/publishing/components/types";
import { PublicationList } from "~/features/publishing/publications/components/publication-status";
import {
  publicationRow,
  renderAt,
  renderIntegrationCard,
} from "~/features/publishing/components/test-support";

afterEach(cleanup);

describe("Adobe Stock on the screens", () => {
  it("asks for the SFTP username and password (the password hidden), with the royalty and what is done there", async () => {
    await renderIntegrationCard("adobestock");
    expect(await screen.findByLabelText("SFTP username")).toHaveAttribute("type", "text");
    expect(screen.getByLabelText("SFTP password")).toHaveAttribute("type", "password");
    expect(screen.getByTestId("integration-fee")).toHaveTextContent("33% royalty to you");
    expect(screen.getByText("Submission over SFTP")).toBeInTheDocument();
  });

  it("shows a saved connection by its username, never part of the password", async () => {
    await renderIntegrationCard("adobestock", {
      isActive: true,
      integration: {
        apiKeyLast4: "",
        method: "apiKey",
        walletAddress: null,
        shopDomain: null,
        accountName: "208412345",
        isActive: true,
        lastError: null,
      },
    });
    expect(await screen.findByTestId("integration-username")).toHaveTextContent(
      "SFTP username: 208412345",
    );
    expect(screen.queryByText(/ending in/)).not.toBeInTheDocument();
  });

  it("says a submission is with the agency for review, with the AI box to tick and what was sent", async () => {
    renderAt(
      <PublicationList
        publications={[
          publicationRow({
            id: "adobestock",
            name: "Adobe Stock",
            status: "submitted",
            note: "Sent selfie-studio-x.jpg, 2000×2000 JPEG (4.0 MP).",
          }),
        ]}
      />,
    );
    expect(await screen.findByTestId("publication-status")).toHaveTextContent(
      "Submitted for review",
    );
    expect(screen.getByTestId("publication-submitted")).toHaveTextContent(
      "Adobe Stock reviews it before it goes on sale",
    );
    expect(screen.getByTestId("publication-submitted")).toHaveTextContent(
      "Created using generative AI tools",
    );
    expect(screen.getByTestId("publication-note")).toHaveTextContent("2000×2000 JPEG (4.0 MP)");
  });

  it("tells how to attach a model release in Adobe's portal, and lists the creator's releases with their PDFs", async () => {
    await renderIntegrationCard("adobestock", {
      modelReleases: [
        {
          stylizedImageId: "img1",
          style: "anime",
          signedOn: "2026-11-26",
          createdAt: "2026-11-26T10:00:00Z",
          downloadUrl: "/api/token-stylized-images/img1/model-release",
        },
      ],
    });
    expect(await screen.findByTestId("adobe-release-steps")).toHaveTextContent(
      "does not take releases over SFTP",
    );
    expect(screen.getByTestId("adobe-release-steps")).toHaveTextContent(
      "Recognizable people or property?",
    );
    expect(
      screen.getByRole("link", { name: "Anime image, signed 2026-11-26 (PDF)" }),
    ).toHaveAttribute("href", "/api/token-stylized-images/img1/model-release");
  });

  it("links a submission's row to its model release, or to the page that makes one", async () => {
    const row = (fields: Pick<PublicationView, "status"> & Partial<PublicationView>) =>
      publicationRow({ id: "adobestock", name: "Adobe Stock", stylizedImageId: "img1", ...fields });
    renderAt(
      <PublicationList
        publications={[
          row({
            status: "submitted",
            modelReleaseUrl: "/api/token-stylized-images/img1/model-release",
          }),
        ]}
      />,
    );
    expect(await screen.findByRole("link", { name: "Model release (PDF)" })).toHaveAttribute(
      "href",
      "/api/token-stylized-images/img1/model-release",
    );
    cleanup();
    renderAt(
      <PublicationList
        publications={[
          row({
            status: "failed",
            error: "Adobe Stock needs a signed model release",
            modelReleaseUrl: null,
          }),
        ]}
      />,
    );
    expect(await screen.findByRole("link", { name: "Add a model release" })).toHaveAttribute(
      "href",
      "/studio/release?image=img1",
    );
  });
});

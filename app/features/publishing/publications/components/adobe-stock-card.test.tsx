// @vitest-environment jsdom
import "@testing-library/jest-dom/vitest";
import { afterEach, describe, expect, it } from "vitest";
import { cleanup, screen } from "@testing-library/react";
import { renderWithRemix } from "#tests/setup/render-route";
import type { ReactNode } from "react";
import { ToastProvider } from "~/ui/toaster";
import { IntegrationCard } from "~/features/publishing/integrations/components/integration-card";
import { PublicationList } from "~/features/publishing/publications/components/publication-status";
import { getPlatform } from "~/features/publishing/platforms";

afterEach(cleanup);

function renderAt(node: ReactNode) {
  return renderWithRemix(
    [{ path: "/", Component: () => <ToastProvider flash={null}>{node}</ToastProvider> }],
    { url: "/" },
  );
}

describe("Adobe Stock on the screens", () => {
  it("asks for the SFTP username and password (the password hidden), with the royalty and what is done there", async () => {
    renderAt(
      <IntegrationCard
        platform={getPlatform("adobestock")}
        isActive={false}
        integration={null}
        oauthAvailable={false}
        connectLink={null}
      />,
    );
    expect(await screen.findByLabelText("SFTP username")).toHaveAttribute("type", "text");
    expect(screen.getByLabelText("SFTP password")).toHaveAttribute("type", "password");
    expect(screen.getByTestId("integration-fee")).toHaveTextContent("33% royalty to you");
    expect(screen.getByText("Submission over SFTP")).toBeInTheDocument();
  });

  it("shows a saved connection by its username, never part of the password", async () => {
    renderAt(
      <IntegrationCard
        platform={getPlatform("adobestock")}
        isActive
        integration={{
          apiKeyLast4: "",
          method: "apiKey",
          walletAddress: null,
          shopDomain: null,
          accountName: "208412345",
          isActive: true,
          lastError: null,
        }}
        oauthAvailable={false}
        connectLink={null}
      />,
    );
    expect(await screen.findByTestId("integration-username")).toHaveTextContent(
      "SFTP username: 208412345",
    );
    expect(screen.queryByText(/ending in/)).not.toBeInTheDocument();
  });

  it("says a submission is with the agency for review, with the AI box to tick and what was sent", async () => {
    renderAt(
      <PublicationList
        publications={[
          {
            id: "adobestock",
            name: "Adobe Stock",
            icon: "",
            url: null,
            status: "submitted",
            error: null,
            downloadUrl: null,
            authUrl: null,
            note: "Sent selfie-studio-x.jpg, 2000×2000 JPEG (4.0 MP).",
          },
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
    renderAt(
      <IntegrationCard
        platform={getPlatform("adobestock")}
        isActive={false}
        integration={null}
        oauthAvailable={false}
        connectLink={null}
        modelReleases={[
          {
            stylizedImageId: "img1",
            style: "anime",
            signedOn: "2026-11-26",
            createdAt: "2026-11-26T10:00:00Z",
            downloadUrl: "/api/token-stylized-images/img1/model-release",
          },
        ]}
      />,
    );
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
    const row = {
      id: "adobestock" as const,
      name: "Adobe Stock",
      icon: "",
      url: null,
      error: null,
      downloadUrl: null,
      authUrl: null,
      stylizedImageId: "img1",
    };
    renderAt(
      <PublicationList
        publications={[
          {
            ...row,
            status: "submitted",
            modelReleaseUrl: "/api/token-stylized-images/img1/model-release",
          },
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
          {
            ...row,
            status: "failed",
            error: "Adobe Stock needs a signed model release",
            modelReleaseUrl: null,
          },
        ]}
      />,
    );
    expect(await screen.findByRole("link", { name: "Add a model release" })).toHaveAttribute(
      "href",
      "/studio/release?image=img1",
    );
  });
});

// @vitest-environment jsdom
import "@testing-library/jest-dom/vitest";
import { afterEach, describe, expect, it } from "vitest";
import { cleanup, render, screen } from "@testing-library/react";
import { createRemixStub } from "@remix-run/testing";
import type { ReactNode } from "react";
import { ToastProvider } from "~/ui/toaster";
import { IntegrationCard } from "~/features/publishing/components/integration-card";
import { PublicationList } from "~/features/publishing/components/publication-status";
import { getPlatform } from "~/features/publishing/platforms";

afterEach(cleanup);

function renderAt(node: ReactNode) {
  const Stub = createRemixStub([
    { path: "/", Component: () => <ToastProvider flash={null}>{node}</ToastProvider> },
  ]);
  return render(<Stub initialEntries={["/"]} />);
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
});

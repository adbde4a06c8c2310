// @vitest-environment jsdom
import "@testing-library/jest-dom/vitest";
import { afterEach, describe, expect, it } from "vitest";
import { cleanup, screen, within } from "@testing-library/react";
import type { SubmissionResult } from "@conform-to/react";
import { renderIntegrationCard } from "~/features/publishing/components/test-support";

afterEach(cleanup);

const WALLET = "0x52908400098527886E0F7030069857D2E4169EE7";

const refused = (error: Record<string, string[]>): SubmissionResult<string[]> => ({
  status: "error",
  initialValue: { intent: "manual", platform: "opensea", walletAddress: "" },
  error,
});

describe("IntegrationCard on a phone", () => {
  it("breaks a saved wallet address instead of widening the page, with the whole address as its title", async () => {
    const card = await renderIntegrationCard("opensea", {
      isActive: true,
      integration: {
        apiKeyLast4: "1234",
        method: "apiKey",
        walletAddress: WALLET,
        shopDomain: null,
        isActive: true,
        lastError: null,
      },
    });
    expect(card.className).toContain("min-w-0");
    const address = within(screen.getByTestId("integration-wallet")).getByText(WALLET);
    expect(address.className).toContain("break-all");
    expect(address).toHaveAttribute("title", WALLET);
  });
});

describe("ManualSetupForm's answers", () => {
  it("shows the server's field errors beside the fields, and no toast over them", async () => {
    const card = await renderIntegrationCard("opensea", {
      lastResult: refused({
        apiKey: ["Please enter your API key"],
        walletAddress: ["Please enter your wallet address"],
      }),
    });
    expect(within(card).getByText("Please enter your API key")).toBeInTheDocument();
    expect(within(card).getByText("Please enter your wallet address")).toBeInTheDocument();
    expect(screen.queryByTestId("toast")).toBeNull();
    expect(screen.queryByText("Failed to create integration.")).toBeNull();
  });

  it("says 'Error' / 'Failed to create integration.' for a refusal no field explains", async () => {
    await renderIntegrationCard("opensea", {
      lastResult: refused({ "": ["Could not save the connection"] }),
    });
    expect(await screen.findByTestId("toast")).toHaveTextContent("Failed to create integration.");
  });
});

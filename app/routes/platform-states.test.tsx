// @vitest-environment jsdom
import "@testing-library/jest-dom/vitest";
import { afterEach, describe, expect, it } from "vitest";
import { cleanup, render, screen, within } from "@testing-library/react";
import { createRemixStub } from "@remix-run/testing";
import { Outlet } from "@remix-run/react";
import Help from "~/routes/_marketing+/help";
import Pricing from "~/routes/_marketing+/pricing";
import { LandingPage } from "~/features/landing/components/landing-page";
import { IntegrationsScreen } from "~/features/publishing/integrations/components/integrations-screen";
import { getPlatform, platformState, SPEC_PLATFORM_IDS } from "~/features/publishing/platforms";
import { renderAt } from "~/features/publishing/components/test-support";

/**
 * One list of platforms: the landing, /pricing, /help and /integrations name
 * the nine platforms the spec names, each with the same real state from the
 * platform registry (Zora and Foundation closed).
 */

afterEach(cleanup);

const EXPECTED = SPEC_PLATFORM_IDS.map((id) => [
  getPlatform(id).name,
  platformState(getPlatform(id)),
]);

function renderInfoPage(path: string, Component: () => JSX.Element) {
  const Stub = createRemixStub([
    {
      id: "root",
      path: "/",
      loader: () => ({ user: null, flash: null, registrationOpen: false }),
      Component: Outlet,
      children: [{ path: path.slice(1), Component, loader: () => null }],
    },
  ]);
  render(<Stub initialEntries={[path]} />);
}

async function infoPagePlatforms(path: string, Component: () => JSX.Element) {
  renderInfoPage(path, Component);
  const items = await screen.findAllByTestId("platform-state-item");
  return items.map((item) => [
    within(item).getByTestId("platform-name").textContent,
    within(item).getByTestId("platform-state").textContent,
  ]);
}

describe("the platforms the public pages name", () => {
  it("are the same nine with the same states on the landing, /pricing, /help and /integrations", async () => {
    render(<LandingPage />);
    const landing = screen
      .getAllByTestId("marketplace-wordmark")
      .map((item) => [
        item.firstChild?.textContent,
        within(item).getByTestId("platform-state").textContent,
      ]);
    cleanup();

    const pricing = await infoPagePlatforms("/pricing", Pricing);
    cleanup();
    const help = await infoPagePlatforms("/help", Help);
    cleanup();

    renderAt(
      <IntegrationsScreen
        data={{
          shopifyOAuth: false,
          shopError: null,
          connectLinks: {},
          platforms: SPEC_PLATFORM_IDS.map((platform) => ({
            platform,
            isActive: false,
            integration: null,
          })),
        }}
      />,
    );
    await screen.findByTestId("integration-card-opensea");
    const integrations = SPEC_PLATFORM_IDS.map((id) => {
      const card = screen.getByTestId(`integration-card-${id}`);
      return [
        within(card).getByRole("heading", { level: 2 }).textContent,
        within(card).getByTestId("platform-state").textContent,
      ];
    });

    for (const page of [landing, pricing, help, integrations]) expect(page).toEqual(EXPECTED);
    expect(EXPECTED).toHaveLength(9);
    // The two that closed say so everywhere.
    expect(EXPECTED.filter(([, state]) => state === "No longer takes listings")).toEqual([
      ["Zora", "No longer takes listings"],
      ["Foundation", "No longer takes listings"],
    ]);
  });
});

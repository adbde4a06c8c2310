// @vitest-environment jsdom
import "@testing-library/jest-dom/vitest";
import { parseWithZod } from "@conform-to/zod/v4";
import { launchSchema } from "~/features/publishing/schemas";
import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { json } from "@remix-run/node";
import { clientValidationLoaded } from "#tests/setup/client-validation";
import { LaunchForm } from "~/features/publishing/publications/components/launch-form";
import { LaunchResult } from "~/features/publishing/publications/components/launch-result";
import { DemoFiguresProvider } from "~/ui/demo-figures";
import type { LaunchResultData } from "~/features/publishing/components/types";
import {
  ListForSale,
  ListForSaleForm,
} from "~/features/publishing/publications/components/list-for-sale";
import type { PlatformOption } from "~/features/publishing/platforms";
import { PLATFORMS } from "~/features/publishing/platforms";
import {
  publicationRow,
  renderAt,
  renderIntegrationCard,
} from "~/features/publishing/components/test-support";
import { CREATOR_SHARE_PERCENT } from "~/features/payouts/types";

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

const OPTIONS: PlatformOption[] = PLATFORMS.map((platform) => ({
  id: platform.id,
  name: platform.name,
  connected: ["marketplace", "eyeem", "opensea"].includes(platform.id),
  closed: Boolean(platform.closed),
}));

const IMAGE = { id: "img1", style: "anime" };
const DEFAULTS = {
  title: "Anime Style Selfie",
  description: "",
  price: "25",
  licensingEnabled: true,
  nftEnabled: false,
};

describe("LaunchForm", () => {
  it("without JavaScript, a refused post shows what was submitted and each field's error", async () => {
    // What the /studio/launch action answers (400) for a post with no title.
    const formData = new FormData();
    formData.set("imageId", "img1");
    formData.set("title", "");
    formData.set("description", "My own words");
    formData.set("price", "42");
    formData.set("tags", "astronaut, portrait,");
    formData.append("platforms", "eyeem");
    formData.append("enableLicensing", "false");
    formData.append("enableNFT", "false");
    formData.append("enableNFT", "true");
    const reply = parseWithZod(formData, { schema: launchSchema }).reply();
    expect(reply.status).toBe("error");
    renderAt(
      <LaunchForm image={IMAGE} defaults={DEFAULTS} platforms={OPTIONS} pageResult={reply} />,
    );
    const title = await screen.findByLabelText("Title");
    expect(title).toHaveValue("");
    expect(title).toHaveAccessibleDescription("Please add a title for your content");
    expect(screen.getByLabelText("Description")).toHaveValue("My own words");
    expect(screen.getByLabelText("Price (USD)")).toHaveValue(42);
    expect(screen.getByLabelText("Tags")).toHaveValue("astronaut, portrait,");
    expect(screen.queryByText("Tags are text")).toBeNull();
    const boxes = within(screen.getByRole("group", { name: "Platforms" })).getAllByRole("checkbox");
    const byValue = Object.fromEntries(boxes.map((box) => [box.getAttribute("value"), box]));
    expect(byValue.marketplace).not.toBeChecked();
    expect(byValue.eyeem).toBeChecked();
    expect(screen.getByRole("switch", { name: "Enable licensing" })).not.toBeChecked();
    expect(screen.getByRole("switch", { name: "Enable NFT" })).toBeChecked();
  });

  it("without JavaScript, a refused price says the allowed range and takes the focus", async () => {
    const formData = new FormData();
    formData.set("imageId", "img1");
    formData.set("title", "My portrait");
    formData.set("price", "20000");
    formData.append("platforms", "marketplace");
    const reply = parseWithZod(formData, { schema: launchSchema }).reply();
    expect(reply.status).toBe("error");
    renderAt(
      <LaunchForm image={IMAGE} defaults={DEFAULTS} platforms={OPTIONS} pageResult={reply} />,
    );
    const price = await screen.findByLabelText("Price (USD)");
    expect(price).toHaveAccessibleDescription("Enter a price between $0.01 and $10,000.00.");
    expect(price).toHaveFocus();
    expect(screen.getByLabelText("Title")).not.toHaveFocus();
  });

  it("has every field labelled, offers only connected platforms, and checks the own marketplace by default", async () => {
    renderAt(<LaunchForm image={IMAGE} defaults={DEFAULTS} platforms={OPTIONS} />);
    expect(await screen.findByLabelText("Title")).toHaveValue("Anime Style Selfie");
    expect(screen.getByLabelText("Description")).toBeInTheDocument();
    expect(screen.getByLabelText("Price (USD)")).toHaveAttribute("type", "number");
    expect(screen.getByLabelText("Tags")).toBeInTheDocument();
    expect(screen.getByRole("switch", { name: "Enable licensing" })).toBeChecked();
    expect(screen.getByRole("switch", { name: "Enable NFT" })).not.toBeChecked();
    const platforms = screen.getByRole("group", { name: "Platforms" });
    const boxes = within(platforms).getAllByRole("checkbox");
    const byValue = Object.fromEntries(boxes.map((box) => [box.getAttribute("value"), box]));
    expect(byValue.marketplace).toBeChecked();
    expect(byValue.eyeem).toBeEnabled();
    expect(byValue.shopify).toBeDisabled();
    // Platforms that no longer take listings are not offered.
    expect(byValue.foundation).toBeUndefined();
    expect(byValue.zora).toBeUndefined();
    // Connecting a platform opens /integrations in a new tab, so this form keeps what was typed.
    const connect = within(platforms).getAllByRole("link", {
      name: /^Connect\s*\(opens in a new tab\)$/,
    });
    expect(connect.length).toBeGreaterThan(0);
    expect(connect[0]).toHaveAttribute("target", "_blank");
    expect(connect[0]).toHaveAttribute("rel", "noopener");
    expect(connect[0].getAttribute("href")).toMatch(/^\/integrations\?connect=/);
  });

  it("shows the messages 'Title required' and 'Select platforms'", async () => {
    const user = userEvent.setup();
    renderAt(
      <LaunchForm image={IMAGE} defaults={{ ...DEFAULTS, title: "" }} platforms={OPTIONS} />,
    );
    const launch = await screen.findByRole("button", { name: "Launch Marketing" });
    await clientValidationLoaded();
    await user.click(launch);
    const toast = await screen.findByTestId("toast");
    expect(toast).toHaveTextContent("Title required");
    expect(toast).toHaveTextContent("Please add a title for your content");
    expect(
      screen.getByText("Please add a title for your content", { selector: "p.field-error" }),
    ).toBeInTheDocument();

    await user.type(screen.getByLabelText("Title"), "Me");
    await user.click(
      within(screen.getByRole("group", { name: "Platforms" })).getByRole("checkbox", {
        name: /Selfie Studio/,
      }),
    );
    await user.click(screen.getByRole("button", { name: "Launch Marketing" }));
    await waitFor(() => expect(screen.getByTestId("toast")).toHaveTextContent("Select platforms"));
    expect(screen.getByTestId("toast")).toHaveTextContent(
      "Choose at least one platform to launch on",
    );
  });

  it("says a too-long title is too long, not missing", async () => {
    const user = userEvent.setup();
    renderAt(
      <LaunchForm
        image={IMAGE}
        defaults={{ ...DEFAULTS, title: "T".repeat(121) }}
        platforms={OPTIONS}
      />,
    );
    const launch = await screen.findByRole("button", { name: "Launch Marketing" });
    await clientValidationLoaded();
    await user.click(launch);
    const toast = await screen.findByTestId("toast");
    expect(toast).toHaveTextContent("Check the title");
    expect(toast).toHaveTextContent("Please use at most 120 characters");
    expect(toast).not.toHaveTextContent("Title required");
  });

  it("posts in place and replaces the form with the result view ('Marketing campaign launched!')", async () => {
    const user = userEvent.setup();
    let posted: FormData | null = null;
    renderAt(<LaunchForm image={IMAGE} defaults={DEFAULTS} platforms={OPTIONS} />, {
      "/studio/launch": async ({ request }) => {
        posted = await request.formData();
        return json({
          ok: true,
          result: {
            imageId: "img1",
            platformsLaunched: 1,
            viewsGenerated: 150000,
            estimatedEarnings: 375,
            price: "25",
            platforms: [
              publicationRow({
                id: "marketplace",
                name: "Selfie Studio",
                url: "http://x/marketplace?listing=L",
                status: "live",
              }),
              publicationRow({
                id: "eyeem",
                name: "EyeEm",
                status: "queued",
              }),
            ],
          },
        });
      },
    });
    await user.type(await screen.findByLabelText("Tags"), "a, b");
    await user.click(screen.getByRole("button", { name: "Launch Marketing" }));
    const result = await screen.findByTestId("launch-result");
    expect(posted!.get("_js")).toBe("1");
    expect(posted!.getAll("platforms")).toEqual(["marketplace"]);
    expect(posted!.getAll("enableLicensing")).toEqual(["false", "true"]);
    expect(screen.queryByTestId("launch-form")).not.toBeInTheDocument();
    expect(screen.getByTestId("toast")).toHaveTextContent("Marketing campaign launched!");
    // DEMO_FIGURES off (no provider): what happened, and no invented reach.
    expect(within(result).getByTestId("platforms-launched")).toHaveTextContent("1 of 2");
    expect(within(result).queryByText("Estimated views")).toBeNull();
    expect(within(result).queryByText("Estimated earnings")).toBeNull();
    expect(within(result).getByTestId("publication-marketplace")).toHaveAttribute(
      "data-status",
      "live",
    );
    expect(within(result).getByTestId("publication-eyeem")).toHaveAttribute(
      "data-status",
      "queued",
    );
    expect(within(result).getByRole("link", { name: "View listing" })).toHaveAttribute(
      "href",
      "http://x/marketplace?listing=L",
    );
  });
});

const LAUNCHED: LaunchResultData = {
  imageId: "img1",
  platformsLaunched: 2,
  viewsGenerated: 300000,
  estimatedEarnings: 1500,
  price: "50",
  platforms: [
    publicationRow({
      id: "opensea",
      name: "OpenSea",
      url: "/dl",
      status: "ready_to_mint",
      downloadUrl: "/dl",
    }),
    publicationRow({
      id: "rarible",
      name: "Rarible",
      status: "needs_auth",
      error: "Connect Rarible first.",
      authUrl: "/integrations?connect=rarible#rarible",
    }),
    publicationRow({
      id: "foap",
      name: "Foap",
      url: "/pkg",
      status: "export_ready",
      downloadUrl: "/pkg",
    }),
  ],
};

describe("LaunchResult", () => {
  it("with DEMO_FIGURES on, counts only what was really done and labels the spec's figures as estimates", async () => {
    renderAt(
      <DemoFiguresProvider on>
        <LaunchResult result={LAUNCHED} />
      </DemoFiguresProvider>,
    );
    expect(await screen.findByTestId("platforms-launched")).toHaveTextContent("2 of 3");
    expect(screen.getByTestId("views-generated")).toHaveTextContent("300,000");
    expect(screen.getByTestId("estimated-earnings")).toHaveTextContent("$1,500.00");
    // Each estimate is labelled beside its figure, not only in a note below.
    for (const id of ["views-generated", "estimated-earnings"]) {
      expect(
        screen.getByTestId(id).closest("div")!.querySelector("[data-testid=illustrative]"),
      ).toHaveTextContent("Illustrative estimate");
    }
    expect(screen.getByTestId("launch-estimate-note")).toHaveTextContent(
      "150,000 potential viewers",
    );
    expect(screen.getByRole("link", { name: "Download mint kit" })).toHaveAttribute("href", "/dl");
    expect(screen.getByRole("link", { name: "Download export package" })).toHaveAttribute(
      "href",
      "/pkg",
    );
    expect(screen.getByRole("link", { name: "Connect" })).toHaveAttribute(
      "href",
      "/integrations?connect=rarible#rarible",
    );
    expect(screen.queryByText("Live")).not.toBeInTheDocument();
  });

  it("with DEMO_FIGURES off (a live store), shows where the image is listed and no invented reach", async () => {
    renderAt(<LaunchResult result={LAUNCHED} />);
    const result = await screen.findByTestId("launch-result");
    expect(screen.getByTestId("platforms-launched")).toHaveTextContent("2 of 3");
    for (const id of ["publication-opensea", "publication-rarible", "publication-foap"])
      expect(within(result).getByTestId(id)).toBeInTheDocument();
    for (const id of [
      "views-generated",
      "estimated-earnings",
      "launch-estimate-note",
      "illustrative",
    ])
      expect(screen.queryByTestId(id)).toBeNull();
    expect(result).not.toHaveTextContent(/Estimated|viewers|300,000|1,500/);
  });
});

describe("List for sale", () => {
  it("offers only connected platforms, defaults the title and description, and bounds the price", async () => {
    renderAt(
      <ListForSaleForm image={{ id: "img1", style: "fantasy", price: "60" }} platforms={OPTIONS} />,
    );
    const group = await screen.findByRole("group", { name: "Platforms" });
    expect(
      within(group)
        .getAllByRole("checkbox")
        .map((box) => box.getAttribute("value")),
    ).toEqual(["marketplace", "opensea", "eyeem"]);
    expect(screen.getByLabelText("Title")).toHaveValue("Fantasy Style Selfie");
    expect(screen.getByLabelText("Description")).toHaveValue(
      "An AI-stylized selfie in the fantasy style.",
    );
    const price = screen.getByLabelText("Price (USD)");
    expect(price).toHaveAttribute("min", "0.01");
    expect(price).toHaveAttribute("step", "0.01");
    expect(price).toHaveValue(60);
    const manage = screen.getByRole("link", {
      name: /^Manage integrations\s*\(opens in a new tab\)$/,
    });
    expect(manage).toHaveAttribute("href", "/integrations");
    expect(manage).toHaveAttribute("target", "_blank");
    expect(manage).toHaveAttribute("rel", "noopener");
  });

  it("starts the Extended and Exclusive prices from the live listing's, so updating it keeps them", async () => {
    renderAt(
      <ListForSaleForm
        image={{
          id: "img1",
          style: "anime",
          price: "25",
          extendedPrice: "80",
          exclusivePrice: null,
        }}
        platforms={OPTIONS}
      />,
    );
    expect(await screen.findByLabelText("Extended license price (USD, optional)")).toHaveValue(80);
    expect(screen.getByLabelText("Exclusive license price (USD, optional)")).toHaveValue(null);
  });

  it("states the own marketplace's fee as the ledger's split: 15% when the creator keeps 85%", async () => {
    renderAt(
      <ListForSaleForm image={{ id: "img1", style: "fantasy", price: "60" }} platforms={OPTIONS} />,
    );
    const own = (await screen.findByRole("checkbox", { name: /Selfie Studio/ })).closest("label")!;
    expect(own).toHaveTextContent(`Fee ${100 - CREATOR_SHARE_PERCENT}%`);
    expect(own).toHaveTextContent("Fee 15%");
  });

  it("links to /integrations when nothing else is connected", async () => {
    const onlyOwn = OPTIONS.map((option) => ({
      ...option,
      connected: option.id === "marketplace",
    }));
    renderAt(
      <ListForSaleForm image={{ id: "img1", style: "anime", price: "25" }} platforms={onlyOwn} />,
    );
    const connect = await screen.findByRole("link", {
      name: /^Connect platforms on the Integrations page\s*\(opens in a new tab\)$/,
    });
    expect(connect).toHaveAttribute("href", "/integrations");
    expect(connect).toHaveAttribute("target", "_blank");
  });

  it("says 'Error' / 'Please select at least one platform', then 'Enter a price between $0.01 and $10,000.00.'", async () => {
    const user = userEvent.setup();
    renderAt(
      <ListForSaleForm image={{ id: "img1", style: "anime", price: "25" }} platforms={OPTIONS} />,
    );
    // The own marketplace starts ticked; untick it to submit with no platform.
    const own = await screen.findByRole("checkbox", { name: /Selfie Studio/ });
    expect(own).toBeChecked();
    await user.click(own);
    await user.click(await screen.findByRole("button", { name: "List for Sale" }));
    const toast = await screen.findByTestId("toast");
    expect(toast).toHaveTextContent("Error");
    expect(toast).toHaveTextContent("Please select at least one platform");

    await user.click(screen.getByRole("checkbox", { name: /Selfie Studio/ }));
    const price = screen.getByLabelText("Price (USD)");
    await user.clear(price);
    await user.type(price, "0");
    await user.click(screen.getByRole("button", { name: "List for Sale" }));
    await waitFor(() =>
      expect(screen.getByTestId("toast")).toHaveTextContent(
        "Enter a price between $0.01 and $10,000.00.",
      ),
    );
  });

  it("with JavaScript, a refused post's toast says the server's sentence (a face that did not agree)", async () => {
    const user = userEvent.setup();
    const sentence =
      "This image shows a face that is not yours, and only faces that agreed are sold: add the model release.";
    renderAt(
      <ListForSale image={{ id: "img1", style: "anime", price: "25" }} platforms={OPTIONS} />,
      {
        "/studio/list": () =>
          json({ status: "error", initialValue: {}, error: { "": [sentence] } }, { status: 409 }),
      },
    );
    await user.click(await screen.findByTestId("list-for-sale-button"));
    const dialog = await screen.findByRole("dialog", { name: "List for Sale" });
    // The own marketplace is checked by default.
    await user.click(within(dialog).getByRole("button", { name: "List for Sale" }));
    await waitFor(() => expect(screen.getByTestId("toast")).toHaveTextContent(sentence));
    expect(screen.getByTestId("toast")).not.toHaveTextContent("Failed to create listings.");
  });

  it("opens as a dialog with JavaScript and reports 'Marketplace Posting Complete' with the successes out of the total", async () => {
    const user = userEvent.setup();
    renderAt(
      <ListForSale image={{ id: "img1", style: "anime", price: "25" }} platforms={OPTIONS} />,
      {
        "/studio/list": () =>
          json({
            ok: true,
            results: [
              {
                success: true,
                platform: "marketplace",
                name: "Selfie Studio",
                status: "live",
                url: "http://x/m",
              },
              {
                success: false,
                platform: "opensea",
                name: "OpenSea",
                status: "needs_auth",
                authUrl: "http://x/integrations?connect=opensea#opensea",
                error: "Connect OpenSea first.",
              },
            ],
          }),
      },
    );
    const trigger = await screen.findByTestId("list-for-sale-button");
    expect(trigger).toHaveAttribute("href", "/studio/list?image=img1");
    await user.click(trigger);
    const dialog = await screen.findByRole("dialog", { name: "List for Sale" });
    await user.click(within(dialog).getByRole("checkbox", { name: /Selfie Studio/ }));
    await user.click(within(dialog).getByRole("checkbox", { name: /OpenSea/ }));
    await user.click(within(dialog).getByRole("button", { name: "List for Sale" }));
    await waitFor(() =>
      expect(screen.getByTestId("toast")).toHaveTextContent("Marketplace Posting Complete"),
    );
    expect(screen.getByTestId("toast")).toHaveTextContent(
      "Successfully posted to 1 of 2 platforms.",
    );
    expect(within(dialog).getByRole("link", { name: "Connect" })).toHaveAttribute(
      "href",
      "http://x/integrations?connect=opensea#opensea",
    );
  });
});

describe("IntegrationCard", () => {
  it("shows the fee and the manual setup fields; a malformed wallet is refused beside the field only (no toast over it)", async () => {
    const user = userEvent.setup();
    const card = await renderIntegrationCard("opensea");
    expect(within(card).getByTestId("integration-fee")).toHaveTextContent("2.5%");
    expect(within(card).getByText("Mint kit")).toBeInTheDocument();
    await user.type(within(card).getByLabelText("API key"), "my-key");
    await user.type(within(card).getByLabelText("Wallet address"), "0x1234");
    await user.click(within(card).getByRole("button", { name: "Save connection" }));
    expect(
      await within(card).findByText(
        "Please enter a valid wallet address (0x followed by 40 hexadecimal characters)",
      ),
    ).toBeInTheDocument();
    expect(screen.queryByTestId("toast")).toBeNull();
  });

  it("says so when a platform no longer takes listings, and offers no setup", async () => {
    const card = await renderIntegrationCard("foundation");
    expect(within(card).getByTestId("integration-fee")).toHaveTextContent("15%");
    expect(within(card).getByTestId("integration-closed")).toHaveTextContent(
      "no longer takes listings",
    );
    expect(within(card).queryByRole("button", { name: "Save connection" })).not.toBeInTheDocument();
  });

  it("for Shopify: a plain link to the provider when one is ready; the stores's token form otherwise", async () => {
    const card = await renderIntegrationCard("shopify", {
      oauthAvailable: true,
      connectLink: "https://s.myshopify.com/admin/oauth/authorize?state=x",
    });
    expect(within(card).getByTestId("connect-link-shopify")).toHaveAttribute(
      "href",
      "https://s.myshopify.com/admin/oauth/authorize?state=x",
    );
    expect(within(card).getByLabelText("Store domain")).toBeInTheDocument();
    expect(within(card).getByLabelText("Shop domain")).toBeInTheDocument();
    expect(within(card).getByLabelText("Admin API access token")).toHaveAttribute(
      "type",
      "password",
    );
  });

  it("for Shopify: says beside the token form that stores can no longer make custom apps (since 1 January 2026)", async () => {
    const card = await renderIntegrationCard("shopify", { oauthAvailable: true });
    expect(within(card).getByTestId("shopify-custom-app-note")).toHaveTextContent(
      "Since 1 January 2026 Shopify no longer lets stores create custom apps in their admin",
    );
    cleanup();

    // Without the server's Shopify app, the token is the only way: the note says what that means.
    const manualOnly = await renderIntegrationCard("shopify");
    expect(within(manualOnly).getByTestId("shopify-custom-app-note")).toHaveTextContent(
      /only a custom app's Admin API access token works below\. Since 1 January 2026 Shopify no longer lets stores create custom apps/,
    );
  });

  it("opens the OAuth popup at 600x700 from the Connect form", async () => {
    const user = userEvent.setup();
    const popup = { closed: false, close: vi.fn(), location: { href: "" } };
    const open = vi.spyOn(window, "open").mockReturnValue(popup as unknown as Window);
    vi.spyOn(globalThis, "fetch").mockResolvedValue(
      new Response(
        JSON.stringify({ authUrl: "https://s.myshopify.com/admin/oauth/authorize?state=y" }),
        {
          headers: { "Content-Type": "application/json" },
        },
      ),
    );
    const { IntegrationsScreen } =
      await import("~/features/publishing/integrations/components/integrations-screen");
    renderAt(
      <IntegrationsScreen
        data={{
          shopifyOAuth: true,
          shopError: null,
          connectLinks: {},
          platforms: [{ platform: "shopify", isActive: false, integration: null }],
        }}
      />,
    );
    const card = await screen.findByTestId("integration-card-shopify");
    await user.type(within(card).getByLabelText("Store domain"), "s");
    await user.click(within(card).getByTestId("connect-shopify"));
    await waitFor(() =>
      expect(popup.location.href).toBe("https://s.myshopify.com/admin/oauth/authorize?state=y"),
    );
    expect(open).toHaveBeenCalledWith(
      "about:blank",
      "oauth-shopify",
      expect.stringMatching(/^width=600,height=700,/),
    );
    expect(vi.mocked(fetch).mock.calls[0][0]).toBe(
      "/api/oauth/shopify/authorize?shop=s&display=popup",
    );
  });
});

// @vitest-environment jsdom
import "@testing-library/jest-dom/vitest";
import { afterEach, describe, expect, it } from "vitest";
import { cleanup, render, screen, within } from "@testing-library/react";
import { createRemixStub } from "@remix-run/testing";
import { Outlet } from "@remix-run/react";
import type { MetaDescriptor, MetaFunction } from "@remix-run/node";
import Terms, { meta as termsMeta } from "~/routes/_marketing+/terms";
import Contact, { meta as contactMeta } from "~/routes/_marketing+/contact";
import Help, { meta as helpMeta } from "~/routes/_marketing+/help";
import CreatorGuide, { meta as guideMeta } from "~/routes/_marketing+/creator-guide";
import Pricing, { meta as pricingMeta } from "~/routes/_marketing+/pricing";
import { CREATOR_SHARE_PERCENT } from "~/features/payouts/types";
import { FOOTER_COLUMNS } from "~/ui/site-footer";
import { RefundPolicyProvider } from "~/features/market/checkout/components/refund-policy";

/** The footer's information pages: public, their key copy and links to the real screens (the site footer itself: app/ui/site-shell.test.tsx). */

afterEach(cleanup);

/** The page under a root route whose data says who is signed in, as in the app. */
function renderPage(
  path: string,
  Component: () => JSX.Element,
  options: { user?: { id: string } | null; data?: unknown; refundDays?: number } = {},
) {
  const Stub = createRemixStub([
    {
      id: "root",
      path: "/",
      loader: () => ({ user: options.user ?? null, flash: null, registrationOpen: false }),
      Component: Outlet,
      children: [{ path: path.slice(1), Component, loader: () => options.data ?? null }],
    },
  ]);
  const page = <Stub initialEntries={[path]} />;
  // The root's REFUND_WINDOW_DAYS, as the app's layout provides it (14, the default, without one).
  render(
    options.refundDays === undefined ? (
      page
    ) : (
      <RefundPolicyProvider days={options.refundDays}>{page}</RefundPolicyProvider>
    ),
  );
}

function metaOf(meta: MetaFunction): { title?: string; description?: string } {
  const tags = (meta as unknown as () => MetaDescriptor[])();
  const title = tags.find((tag) => "title" in tag) as { title: string } | undefined;
  const description = tags.find((tag) => "name" in tag && tag.name === "description") as
    { content: string } | undefined;
  return { title: title?.title, description: description?.content };
}

const PAGES = [
  { path: "/terms", Component: Terms, meta: termsMeta, heading: "Terms of Service" },
  {
    path: "/contact",
    Component: Contact,
    meta: contactMeta,
    heading: "Contact us",
    data: { email: "help@studio.example" },
  },
  { path: "/help", Component: Help, meta: helpMeta, heading: "Help Center" },
  {
    path: "/creator-guide",
    Component: CreatorGuide,
    meta: guideMeta,
    heading: "From selfie to sale",
  },
  { path: "/pricing", Component: Pricing, meta: pricingMeta, heading: "Pricing" },
];

describe("the footer's information pages", () => {
  for (const page of PAGES) {
    it(`${page.path}: a title, a description, its heading, and Back to Home for a visitor`, async () => {
      const { title, description } = metaOf(page.meta);
      expect(title).toMatch(/\| Selfie Studio$/);
      expect(description?.length).toBeGreaterThan(30);
      renderPage(page.path, page.Component, { data: page.data });
      expect(
        await screen.findByRole("heading", { level: 1, name: page.heading }),
      ).toBeInTheDocument();
      expect(screen.getByRole("link", { name: "Back to Home" })).toHaveAttribute("href", "/");
    });
  }

  it("every page the footer links to has a page here (or elsewhere: privacy, marketplace, license)", () => {
    const here = new Set(PAGES.map((page) => page.path));
    const hrefs = FOOTER_COLUMNS.flatMap((column) => column.links.map((link) => link.to));
    for (const href of hrefs) {
      const path = href.split("#")[0];
      expect(here.has(path) || ["/privacy", "/marketplace", "/license"].includes(path), href).toBe(
        true,
      );
    }
  });

  it("the footer's Refunds leads to the terms' refunds section", async () => {
    const refunds = FOOTER_COLUMNS.flatMap((column) => column.links).find(
      (link) => link.label === "Refunds",
    );
    expect(refunds?.to).toBe("/terms#refunds");
    renderPage("/terms", Terms);
    expect(await screen.findByTestId("section-refunds")).toHaveAttribute("id", "refunds");
  });

  it("offers a signed-in creator Back to Dashboard", async () => {
    renderPage("/help", Help, { user: { id: "u1" } });
    expect(await screen.findByRole("link", { name: "Back to Dashboard" })).toHaveAttribute(
      "href",
      "/dashboard",
    );
  });
});

describe("/terms", () => {
  it("states the upload rules, the license with a link to it, refunds, and the split from CREATOR_SHARE_PERCENT", async () => {
    renderPage("/terms", Terms);
    const uploads = await screen.findByTestId("section-uploads");
    expect(uploads).toHaveTextContent("your own face");
    expect(uploads).toHaveTextContent("the right to use");
    expect(uploads).toHaveTextContent("No impersonation");
    const license = screen.getByTestId("section-license");
    expect(license).toHaveTextContent("Standard Commercial License");
    expect(
      within(license).getByRole("link", { name: "Read the full Standard Commercial License" }),
    ).toHaveAttribute("href", "/license");
    const refunds = screen.getByTestId("section-refunds");
    expect(screen.getByTestId("terms-refund-policy")).toHaveTextContent(
      /^Refunds within 14 days on request\. Within 14 days of paying, a buyer may ask/,
    );
    expect(refunds).toHaveTextContent("the admin refunds the paid order in full or declines");
    expect(refunds).toHaveTextContent("its download links stop working and its license is revoked");
    expect(refunds).toHaveTextContent("fraudulent, the order is refunded at once");
    expect(screen.getByTestId("terms-split")).toHaveTextContent(
      `the creator keeps ${CREATOR_SHARE_PERCENT}% and Selfie Studio keeps ${100 - CREATOR_SHARE_PERCENT}%`,
    );
    expect(metaOf(termsMeta).description).toContain(
      `${CREATOR_SHARE_PERCENT}/${100 - CREATOR_SHARE_PERCENT}`,
    );
  });
});

describe("/terms with REFUND_WINDOW_DAYS=30", () => {
  it("states the setting's window", async () => {
    renderPage("/terms", Terms, { refundDays: 30 });
    expect(await screen.findByTestId("terms-refund-policy")).toHaveTextContent(
      /^Refunds within 30 days on request\. Within 30 days of paying/,
    );
  });
});

describe("/contact", () => {
  it("shows the loader's support address as a mailto link", async () => {
    renderPage("/contact", Contact, { data: { email: "help@studio.example" } });
    const link = await screen.findByTestId("support-email");
    expect(link).toHaveTextContent("help@studio.example");
    expect(link).toHaveAttribute("href", "mailto:help@studio.example");
    expect(
      within(screen.getByTestId("section-first")).getByRole("link", { name: "Help Center" }),
    ).toHaveAttribute("href", "/help");
  });
});

describe("/help", () => {
  it("answers a buyer's and a creator's first questions, linking to the screens", async () => {
    renderPage("/help", Help);
    const buyers = within(await screen.findByTestId("section-buyers"));
    for (const question of [
      "How do I buy an image?",
      "Where are my downloads?",
      "What may I do with an image I bought?",
      "Can I get a refund?",
    ]) {
      expect(buyers.getByRole("heading", { level: 3, name: question })).toBeInTheDocument();
    }
    expect(buyers.getByRole("link", { name: "library" })).toHaveAttribute("href", "/library");
    expect(buyers.getByRole("link", { name: "Standard Commercial License" })).toHaveAttribute(
      "href",
      "/license",
    );
    expect(buyers.getByRole("link", { name: "terms" })).toHaveAttribute("href", "/terms#refunds");
    const creators = within(screen.getByTestId("section-creators"));
    for (const question of [
      "How do I upload a selfie?",
      "Which styles are there?",
      "How do I list an image for sale?",
      "How do I get paid?",
    ]) {
      expect(creators.getByRole("heading", { level: 3, name: question })).toBeInTheDocument();
    }
    expect(screen.getByTestId("section-creators")).toHaveTextContent(
      "Professional, Cartoon, Anime, Fantasy",
    );
    expect(screen.getByTestId("section-creators")).toHaveTextContent(
      `You keep ${CREATOR_SHARE_PERCENT}% of every sale`,
    );
    expect(creators.getByRole("link", { name: "Payouts" })).toHaveAttribute("href", "/payouts");
    expect(creators.getByRole("link", { name: "listings" })).toHaveAttribute("href", "/listings");
  });
});

describe("/creator-guide", () => {
  it("walks from selfie to sale in five steps, each linking to its screen", async () => {
    renderPage("/creator-guide", CreatorGuide);
    const guide = within(await screen.findByTestId("creator-guide-page"));
    expect(
      guide.getAllByRole("heading", { level: 2 }).map((heading) => heading.textContent),
    ).toEqual(["Upload a selfie", "Choose a style", "Optimize", "List it for sale", "Get paid"]);
    const steps = ["upload", "style", "optimize", "list", "payouts"].map((id) =>
      screen.getByTestId(`step-${id}`),
    );
    expect(within(steps[0]).getByRole("link", { name: "dashboard" })).toHaveAttribute(
      "href",
      "/dashboard",
    );
    expect(within(steps[1]).getByRole("link", { name: "Settings" })).toHaveAttribute(
      "href",
      "/settings/privacy",
    );
    expect(steps[3]).toHaveTextContent("professional $75");
    expect(within(steps[3]).getByRole("link", { name: "Integrations" })).toHaveAttribute(
      "href",
      "/integrations",
    );
    expect(within(steps[4]).getByRole("link", { name: "Payouts" })).toHaveAttribute(
      "href",
      "/payouts",
    );
    expect(steps[4]).toHaveTextContent(`You keep ${CREATOR_SHARE_PERCENT}% of every sale`);
  });
});

describe("/pricing", () => {
  it("shows the three plans: the beta free and keeping CREATOR_SHARE_PERCENT, the others coming soon", async () => {
    renderPage("/pricing", Pricing);
    expect(
      await screen.findByRole("heading", { level: 2, name: "Beta Access" }),
    ).toBeInTheDocument();
    const beta = screen.getByTestId("plan-beta");
    expect(beta).toHaveTextContent("Free");
    expect(beta).toHaveTextContent(`Keep ${CREATOR_SHARE_PERCENT}% of every sale`);
    for (const id of ["plan-regular", "plan-premium"])
      expect(screen.getByTestId(id)).toHaveTextContent("Coming Soon");
    expect(screen.getByTestId("section-sale")).toHaveTextContent(
      `the creator keeps ${CREATOR_SHARE_PERCENT}%`,
    );
  });
});

// @vitest-environment jsdom
import "@testing-library/jest-dom/vitest";
import { afterEach, describe, expect, it } from "vitest";
import { cleanup, render, screen, within } from "@testing-library/react";
import type { ComponentProps } from "react";
import { LandingPage } from "~/features/landing/components/landing-page";
import { DemoFiguresProvider } from "~/ui/demo-figures";

afterEach(cleanup);

/** The landing page as the demo serves it (DEMO_FIGURES on). */
function DemoLanding(props: ComponentProps<typeof LandingPage>) {
  return (
    <DemoFiguresProvider on>
      <LandingPage {...props} />
    </DemoFiguresProvider>
  );
}

describe("<LandingPage>", () => {
  it("has its sections in order, the site footer (the seventh) coming from the layout (DEMO_FIGURES on)", () => {
    render(<DemoLanding />);
    const order = [
      "landing-hero",
      "landing-marketplaces",
      "landing-testimonials",
      "landing-how-it-works",
      "landing-beta",
      "landing-pricing",
    ];
    const sections = order.map((id) => screen.getByTestId(id));
    for (let i = 1; i < sections.length; i++) {
      expect(
        sections[i - 1].compareDocumentPosition(sections[i]) & Node.DOCUMENT_POSITION_FOLLOWING,
      ).toBeTruthy();
    }
    expect(screen.getAllByRole("heading", { level: 1 })).toHaveLength(1);
    // No footer of its own: the layout's is the page's one contentinfo landmark.
    expect(document.querySelector("footer")).toBeNull();
  });

  it("lets a tile's style name wrap (never cut), its earnings chip stacking under it below sm", () => {
    render(<LandingPage />);
    const name = within(screen.getByTestId("hero-sample-professional")).getByTestId(
      "hero-sample-name",
    );
    expect(name).toHaveTextContent("Professional");
    expect(name).not.toHaveClass("truncate");
    expect(name.parentElement).toHaveClass("flex-col", "sm:flex-row");
  });

  it("shows the four style tiles, and the engine's samples once they exist", () => {
    render(<LandingPage />);
    for (const id of ["professional", "cartoon", "anime", "fantasy"]) {
      expect(within(screen.getByTestId(`hero-sample-${id}`)).queryByRole("img")).toBeNull();
    }
    cleanup();
    render(
      <LandingPage
        samples={{
          urls: {
            professional: "/media/samples/professional.jpg",
            cartoon: "/media/samples/cartoon.jpg",
            anime: "/media/samples/anime.jpg",
            fantasy: "/media/samples/fantasy.jpg",
          },
          credit: "Sample portrait: someone (public domain).",
        }}
      />,
    );
    expect(
      screen.getByRole("img", { name: "The sample portrait in the Anime style" }),
    ).toHaveAttribute("src", "/media/samples/anime.jpg");
    expect(screen.getAllByRole("img", { name: /The sample portrait in the/ })).toHaveLength(4);
    expect(screen.getByTestId("hero-sample-credit")).toHaveTextContent(
      "Sample portrait: someone (public domain).",
    );
  });

  it("offers each sample as AVIF and WebP with a JPEG fallback, sized for its tile and no wider than the sample", () => {
    const urls = {
      professional: "/media/samples/professional_sample_v3.jpg",
      cartoon: "/media/samples/cartoon_sample_v3.jpg",
      anime: "/media/samples/anime_sample_v3.jpg",
      fantasy: "/media/samples/fantasy_sample_v3.jpg",
    };
    render(<LandingPage samples={{ urls, credit: "Credit.", width: 512 }} />);
    const image = screen.getByRole("img", { name: "The sample portrait in the Anime style" });
    const picture = image.parentElement!;
    expect(picture.tagName).toBe("PICTURE");
    const types = [...picture.querySelectorAll("source")].map((source) =>
      source.getAttribute("type"),
    );
    expect(types).toEqual(["image/avif", "image/webp"]);
    const avif = picture.querySelector('source[type="image/avif"]')!;
    expect(avif.getAttribute("srcset")).toBe(
      `${urls.anime}?w=320&fmt=avif 320w, ${urls.anime}?w=480&fmt=avif 480w, ${urls.anime}?w=640&fmt=avif 512w`,
    );
    expect(image).toHaveAttribute(
      "srcset",
      `${urls.anime}?w=320&fmt=jpg 320w, ${urls.anime}?w=480&fmt=jpg 480w, ${urls.anime} 512w`,
    );
    expect(image.getAttribute("sizes")).toMatch(/^\(min-width: 1280px\) 292px, /);
    expect(image).toHaveAttribute("width", "512");
    expect(image).toHaveAttribute("height", "640");
    // On a phone the samples sit below the hero's text (the largest paint): none holds up the first screen.
    for (const name of ["Professional", "Fantasy"]) {
      const img = screen.getByRole("img", { name: `The sample portrait in the ${name} style` });
      expect(img).toHaveAttribute("loading", "lazy");
      expect(img).toHaveAttribute("decoding", "async");
    }
  });

  it("lists the nine external marketplaces as text, with no external images", () => {
    const { container } = render(<LandingPage />);
    const names = screen
      .getAllByTestId("marketplace-wordmark")
      .map((li) => li.firstChild?.textContent);
    expect(names).toEqual([
      "OpenSea",
      "Zora",
      "Foundation",
      "Foap",
      "EyeEm",
      "ClickASnap",
      "Rarible",
      "Mintable",
      "Shopify",
    ]);
    for (const img of container.querySelectorAll("img")) {
      expect(img.getAttribute("src")).toMatch(/^\//);
    }
  });

  it("shows the static earnings claims (DEMO_FIGURES on) and the three steps", () => {
    render(<DemoLanding />);
    expect(screen.getByTestId("earnings-box-average")).toHaveTextContent("$347Illustrative figure");
    expect(
      screen.getByText("average earnings per month (illustrative, not live data)"),
    ).toBeInTheDocument();
    const steps = within(screen.getByTestId("landing-how-it-works")).getAllByRole("heading", {
      level: 3,
    });
    expect(steps.map((h) => h.textContent)).toEqual([
      "Upload Selfie",
      "Choose AI Style",
      "Monetize & Share",
    ]);
  });

  it("prices three plans: the beta free, Regular and Premium coming soon", () => {
    render(<LandingPage />);
    const beta = within(screen.getByTestId("plan-beta"));
    expect(beta.getByText("Free")).toBeInTheDocument();
    expect(beta.getByText("$29")).toHaveClass("line-through");
    expect(beta.getByText("Keep 85% of earnings")).toBeInTheDocument();
    expect(beta.getByText("Keep 85% of every sale")).toBeInTheDocument();
    for (const feature of [
      "Unlimited selfies",
      "All four AI styles",
      "Marketplace listing",
      "Priority beta support",
    ]) {
      expect(beta.getByText(feature)).toBeInTheDocument();
    }
    expect(beta.queryByText("Coming Soon")).toBeNull();

    const regular = within(screen.getByTestId("plan-regular"));
    expect(regular.getByText("$29")).toBeInTheDocument();
    expect(regular.getByText("/month")).toBeInTheDocument();
    expect(regular.getByText("10 selfies per month")).toBeInTheDocument();
    expect(regular.getByText("3 AI styles")).toBeInTheDocument();
    expect(regular.getByText("Keep 70% of earnings")).toBeInTheDocument();
    expect(regular.getByText("Coming Soon")).toBeInTheDocument();

    const premium = within(screen.getByTestId("plan-premium"));
    expect(premium.getByText("$79")).toBeInTheDocument();
    expect(premium.getByText("Unlimited selfies")).toBeInTheDocument();
    expect(premium.getByText("Keep 90% of earnings")).toBeInTheDocument();
    expect(premium.getByText("NFT minting")).toBeInTheDocument();
    expect(premium.getByText("Coming Soon")).toBeInTheDocument();
  });

  it("sends every call to action to /api/login as a full-page link while registration is open, else to the waitlist", () => {
    for (const [open, href] of [
      [true, "/api/login"],
      [false, "/auth?tab=register#waitlist"],
    ] as const) {
      render(<LandingPage registrationOpen={open} />);
      for (const name of ["Start Earning Today", "Claim Your Beta Spot", "Claim Beta Spot"]) {
        expect(screen.getByRole("link", { name })).toHaveAttribute("href", href);
      }
      for (const id of ["plan-beta", "plan-regular", "plan-premium"]) {
        expect(within(screen.getByTestId(id)).getByRole("link")).toHaveAttribute("href", href);
      }
      cleanup();
    }
  });

  it("with DEMO_FIGURES on, labels every figure that is not a fact beside it: the average earnings, the testimonials, the countdown and the spots", () => {
    render(<DemoLanding renderedAt="2026-11-26T12:00:00.000Z" />);
    expect(screen.getByTestId("hero-average-earnings")).toHaveTextContent(
      "$347/moIllustrative figure",
    );
    const testimonials = within(screen.getByTestId("landing-testimonials"));
    expect(screen.getByTestId("testimonials-note")).toHaveTextContent(
      "not real creators or real earnings",
    );
    for (const name of ["Maya R.", "Jordan T.", "Priya K."]) {
      expect(testimonials.getByText(name)).toHaveTextContent(`${name}Illustrative example`);
    }
    expect(testimonials.getAllByText("(illustrative)")).toHaveLength(3);
    const beta = within(screen.getByTestId("landing-beta"));
    expect(beta.getAllByTestId("illustrative")).toHaveLength(2);
    cleanup();
    // Real figures (BETA_SPOTS, BETA_ENDS_AT) carry no such label.
    render(
      <LandingPage
        renderedAt="2026-11-26T12:00:00.000Z"
        beta={{ spots: { total: 50, left: 49 }, endsAt: "2027-01-31" }}
      />,
    );
    expect(
      within(screen.getByTestId("landing-beta")).queryAllByTestId("illustrative"),
    ).toHaveLength(0);
  });

  it("with DEMO_FIGURES off (a live store), shows no invented figures: no average earnings, testimonials, earning ranges or midnight countdown; the real spots left", () => {
    render(
      <LandingPage
        renderedAt="2026-11-26T12:00:00.000Z"
        beta={{ spots: { total: 200, left: 188 }, endsAt: null }}
      />,
    );
    const page = screen.getByTestId("landing-page");
    expect(screen.queryByTestId("landing-testimonials")).toBeNull();
    expect(screen.queryByTestId("earnings-box")).toBeNull();
    expect(screen.queryByTestId("hero-average-earnings")).toBeNull();
    expect(screen.queryByText("Average earnings")).toBeNull();
    expect(page).not.toHaveTextContent(/\$347|\$50-150|\$25-75|\$30-100|\$40-120|last month/);
    expect(screen.queryByRole("timer")).toBeNull();
    expect(page).not.toHaveTextContent(/Offer ends|closes soon|127/);
    expect(screen.getByTestId("beta-spots")).toHaveTextContent("188 of 200");
    expect(screen.queryAllByTestId("illustrative")).toHaveLength(0);
    // The other sections stay, in order.
    for (const id of [
      "landing-hero",
      "landing-marketplaces",
      "landing-how-it-works",
      "landing-beta",
      "landing-pricing",
    ])
      expect(screen.getByTestId(id)).toBeInTheDocument();
  });

  it("says registration is closed only while it is", () => {
    render(
      <LandingPage
        renderedAt="2026-11-26T12:00:00.000Z"
        beta={{ spots: null, endsAt: "2027-03-01T00:00:00.000Z" }}
      />,
    );
    expect(screen.getByTestId("beta-registration")).toHaveTextContent(
      "Public registration is closed until 2027: join the waitlist for an invitation.",
    );
    cleanup();
    render(<LandingPage registrationOpen />);
    expect(screen.getByTestId("beta-registration")).toHaveTextContent("Registration is open");
    expect(screen.getByTestId("landing-page")).not.toHaveTextContent(/registration is closed/i);
  });
});

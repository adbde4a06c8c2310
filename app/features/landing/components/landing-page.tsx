import { BetaSection } from "~/features/landing/components/beta-section";
import type { BetaFigures } from "~/features/landing/components/beta-counters";
import { HeroSection } from "~/features/landing/components/hero-section";
import type { HeroSamples } from "~/features/landing/components/hero-section";
import { HowItWorksSection } from "~/features/landing/components/how-it-works-section";
import { MarketplaceStrip } from "~/features/landing/components/marketplace-strip";
import { PricingSection } from "~/features/landing/components/pricing-section";
import { TestimonialsSection } from "~/features/landing/components/testimonials-section";
import { useDemoFigures } from "~/ui/demo-figures";

/**
 * The landing page: its sections, hero first and pricing last (the seventh,
 * the footer, is the site footer every page has: app/ui/site-footer.tsx). With
 * DEMO_FIGURES off (a live store) the invented figures go: no average earnings,
 * no testimonials section, no countdown without BETA_ENDS_AT; the spots left
 * are the real ones.
 */
export function LandingPage({
  samples = null,
  registrationOpen = false,
  beta,
  renderedAt,
}: {
  samples?: HeroSamples | null;
  /** The deployment's setting: the copy says registration is open or closed to match it, and the buttons lead to the waitlist while closed. */
  registrationOpen?: boolean;
  /** The spots left (BETA_SPOTS) and BETA_ENDS_AT as the server knows them (DEMO_FIGURES on: the spec's figures, labelled). */
  beta?: BetaFigures;
  /** When the server rendered the page (ISO), so the browser's first render matches it. */
  renderedAt?: string;
}) {
  const demo = useDemoFigures();
  return (
    <div data-testid="landing-page">
      <HeroSection samples={samples} registrationOpen={registrationOpen} demo={demo} />
      <MarketplaceStrip />
      {demo ? <TestimonialsSection /> : null}
      <HowItWorksSection />
      <BetaSection
        registrationOpen={registrationOpen}
        figures={beta}
        demo={demo}
        renderedAt={renderedAt ?? new Date().toISOString()}
      />
      <PricingSection registrationOpen={registrationOpen} />
    </div>
  );
}

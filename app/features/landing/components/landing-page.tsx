import { BetaSection } from "~/features/landing/components/beta-section";
import { HeroSection } from "~/features/landing/components/hero-section";
import type { HeroSamples } from "~/features/landing/components/hero-section";
import { HowItWorksSection } from "~/features/landing/components/how-it-works-section";
import { LandingFooter } from "~/features/landing/components/landing-footer";
import { MarketplaceStrip } from "~/features/landing/components/marketplace-strip";
import { PricingSection } from "~/features/landing/components/pricing-section";
import { TestimonialsSection } from "~/features/landing/components/testimonials-section";

/** The landing page: its seven sections, hero first and footer last. */
export function LandingPage({
  samples = null,
  registrationOpen = false,
}: {
  samples?: HeroSamples | null;
  /** The deployment's setting: the copy says registration is open or closed to match it. */
  registrationOpen?: boolean;
}) {
  return (
    <div data-testid="landing-page">
      <HeroSection samples={samples} />
      <MarketplaceStrip />
      <TestimonialsSection />
      <HowItWorksSection />
      <BetaSection registrationOpen={registrationOpen} />
      <PricingSection />
      <LandingFooter />
    </div>
  );
}

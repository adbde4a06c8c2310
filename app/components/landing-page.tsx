import { BetaSection } from "./landing/beta-section";
import { HeroSection } from "./landing/hero-section";
import type { HeroSamples } from "./landing/hero-section";
import { HowItWorksSection } from "./landing/how-it-works-section";
import { LandingFooter } from "./landing/landing-footer";
import { MarketplaceStrip } from "./landing/marketplace-strip";
import { PricingSection } from "./landing/pricing-section";
import { TestimonialsSection } from "./landing/testimonials-section";

/** The landing page: its seven sections, hero first and footer last. */
export function LandingPage({ samples = null }: { samples?: HeroSamples | null }) {
  return (
    <div data-testid="landing-page">
      <HeroSection samples={samples} />
      <MarketplaceStrip />
      <TestimonialsSection />
      <HowItWorksSection />
      <BetaSection />
      <PricingSection />
      <LandingFooter />
    </div>
  );
}

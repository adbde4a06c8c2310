import { PRICING_PLANS } from "~/features/landing/pricing-plans";
import { WAITLIST_HREF } from "~/lib/accounts";
import { LineIcon } from "~/ui/line-icon";
import { LandingSection } from "~/features/landing/components/landing-section";

/** 6. Pricing with three plans (app/features/landing/pricing-plans.ts); Regular and Premium are coming soon. */
export function PricingSection({ registrationOpen = false }: { registrationOpen?: boolean }) {
  return (
    <LandingSection
      headingId="pricing-heading"
      testId="landing-pricing"
      background="bg-slate-50"
      title="Simple pricing"
      intro="Join free during the beta. Paid plans arrive later."
    >
      <PricingPlanList registrationOpen={registrationOpen} />
    </LandingSection>
  );
}

/**
 * The three plans' cards, on the landing page (plan names as h3 under its
 * pricing heading) and on /pricing (as h2 under the page's title).
 */
export function PricingPlanList({
  planHeadingLevel = "h3",
  registrationOpen = false,
}: {
  planHeadingLevel?: "h2" | "h3";
  /** Closed: the buttons lead to the waitlist rather than to a sign-in that cannot make an account. */
  registrationOpen?: boolean;
}) {
  const PlanHeading = planHeadingLevel;
  return (
    <ul className="mt-12 grid gap-6 lg:grid-cols-3">
      {PRICING_PLANS.map((plan) => (
        <li
          key={plan.id}
          data-testid={`plan-${plan.id}`}
          className={`relative flex flex-col rounded-2xl bg-white p-7 shadow-sm ${
            plan.popular
              ? "ring-2 ring-brand-600 lg:-my-3 lg:py-10 shadow-xl"
              : "ring-1 ring-slate-200"
          }`}
        >
          {plan.popular ? (
            <span className="absolute -top-3 left-1/2 -translate-x-1/2 rounded-full bg-brand-600 px-3 py-1 text-xs font-bold text-white">
              Most Popular
            </span>
          ) : null}
          <div className="flex items-center justify-between gap-2">
            <PlanHeading className="text-lg font-semibold text-slate-900">{plan.name}</PlanHeading>
            {plan.comingSoon ? (
              <span className="rounded-full bg-slate-100 px-2.5 py-0.5 text-xs font-semibold text-slate-700">
                Coming Soon
              </span>
            ) : null}
          </div>
          <p className="mt-2 text-sm text-slate-600">{plan.description}</p>
          <p className="mt-6 flex items-baseline gap-2">
            <span className="text-4xl font-extrabold tracking-tight text-slate-900">
              {plan.price}
            </span>
            {plan.period ? <span className="text-slate-600">{plan.period}</span> : null}
            {plan.originalPrice ? (
              <span className="text-lg text-slate-500 line-through">
                <span className="sr-only">was </span>
                {plan.originalPrice}
              </span>
            ) : null}
          </p>
          {plan.savings ? (
            <p className="mt-1 text-sm font-semibold text-emerald-700">{plan.savings}</p>
          ) : null}
          <p className="mt-4 inline-flex w-fit rounded-lg bg-brand-50 px-3 py-1 text-sm font-semibold text-brand-700">
            {plan.earnings} of every sale
          </p>
          <ul className="mt-6 flex-1 space-y-3 text-sm text-slate-700">
            {plan.features.map((feature) => (
              <li key={feature} className="flex gap-2">
                <LineIcon className="mt-0.5 h-4 w-4 shrink-0 text-emerald-600" strokeWidth="2.2">
                  <path d="M4 10.5l4 4 8-9" strokeLinecap="round" strokeLinejoin="round" />
                </LineIcon>
                {feature}
              </li>
            ))}
          </ul>
          <a
            href={registrationOpen ? "/api/login" : WAITLIST_HREF}
            className={`mt-8 w-full ${plan.comingSoon ? "btn-secondary" : "btn-primary"} py-3`}
          >
            {plan.buttonText}
          </a>
        </li>
      ))}
    </ul>
  );
}

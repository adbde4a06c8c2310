import { AVERAGE_MONTHLY_EARNINGS, BETA_SPOTS_TOTAL } from "~/features/landing/pricing-plans";
import { Illustrative } from "~/ui/illustrative";
import { LandingSection } from "~/features/landing/components/landing-section";

/** Static marketing claims, not server data and not real creators: the section says so beside each. */
const TESTIMONIALS = [
  {
    quote: "My professional headshots sell every week. It paid for my camera within two months.",
    name: "Maya R.",
    role: "Beta creator, professional style",
    earned: "$412 last month",
  },
  {
    quote:
      "I turned one selfie into a cartoon series, and buyers license them for their blogs and thumbnails.",
    name: "Jordan T.",
    role: "Beta creator, cartoon style",
    earned: "$289 last month",
  },
  {
    quote:
      "The fantasy portraits are my bestsellers. Listing them everywhere takes a couple of minutes.",
    name: "Priya K.",
    role: "Beta creator, fantasy style",
    earned: "$356 last month",
  },
];

/** 3. Testimonials with the earnings box. */
export function TestimonialsSection() {
  return (
    <LandingSection
      headingId="testimonials-heading"
      testId="landing-testimonials"
      background="bg-slate-50"
      title="Creators are already earning"
      intro="Illustrative examples of what creators can do with their selfies: sample quotes and figures, not real creators or real earnings."
      introTestId="testimonials-note"
    >
      <div className="mt-12 grid gap-6 lg:grid-cols-4">
        {TESTIMONIALS.map((testimonial) => (
          <figure key={testimonial.name} className="card flex flex-col p-6">
            <div className="flex gap-0.5 text-amber-400" aria-label="5 out of 5 stars" role="img">
              {Array.from({ length: 5 }, (_, i) => (
                <svg
                  key={i}
                  viewBox="0 0 20 20"
                  className="h-4 w-4"
                  fill="currentColor"
                  aria-hidden="true"
                >
                  <path d="M10 1.5l2.6 5.3 5.9.9-4.3 4.1 1 5.8L10 14.8l-5.2 2.8 1-5.8L1.5 7.7l5.9-.9z" />
                </svg>
              ))}
            </div>
            <blockquote className="mt-4 flex-1 text-slate-700">“{testimonial.quote}”</blockquote>
            <figcaption className="mt-6 border-t border-slate-100 pt-4">
              <p className="font-semibold text-slate-900">
                {testimonial.name}
                <Illustrative text="Illustrative example" />
              </p>
              <p className="text-sm text-slate-500">{testimonial.role}</p>
              <p className="mt-1 text-sm font-semibold text-emerald-700">
                {testimonial.earned}{" "}
                <span className="font-normal text-slate-600">(illustrative)</span>
              </p>
            </figcaption>
          </figure>
        ))}
        <aside
          aria-labelledby="earnings-box-heading"
          className="flex flex-col rounded-2xl bg-gradient-to-br from-brand-600 to-pink-600 p-6 text-white shadow-lg"
          data-testid="earnings-box"
        >
          <h3
            id="earnings-box-heading"
            className="text-sm font-semibold tracking-wide text-white/90 uppercase"
          >
            Creator earnings
          </h3>
          <p className="mt-4 text-5xl font-extrabold" data-testid="earnings-box-average">
            ${AVERAGE_MONTHLY_EARNINGS}
            <Illustrative tone="dark" text="Illustrative figure" />
          </p>
          <p className="text-white/90">average earnings per month (illustrative, not live data)</p>
          <dl className="mt-6 space-y-3 text-sm">
            <div className="flex justify-between gap-4 border-t border-white/20 pt-3">
              <dt className="text-white/90">Top style</dt>
              <dd className="font-semibold">Professional</dd>
            </div>
            <div className="flex justify-between gap-4 border-t border-white/20 pt-3">
              <dt className="text-white/90">Creator share</dt>
              <dd className="font-semibold">85% in beta</dd>
            </div>
            <div className="flex justify-between gap-4 border-t border-white/20 pt-3">
              <dt className="text-white/90">Beta spots</dt>
              <dd className="font-semibold">{BETA_SPOTS_TOTAL} in total</dd>
            </div>
          </dl>
          <p className="mt-auto pt-6 text-sm text-white/90">Illustrative figures, not live data.</p>
        </aside>
      </div>
    </LandingSection>
  );
}

import type { StyleId } from "~/lib/styles";
import { STYLES } from "~/lib/styles";
import { TAGLINE } from "~/lib/product";
import { AVERAGE_MONTHLY_EARNINGS } from "~/features/landing/pricing-plans";
import { ResponsivePicture } from "~/ui/responsive-picture";
import { Illustrative } from "~/ui/illustrative";
import { WAITLIST_HREF } from "~/lib/accounts";

/**
 * How wide a sample tile is shown: two tiles a row in the hero's right column
 * (max-w-7xl with px-4; two columns with gap-12 from lg; tiles gap-3, gap-4 from sm).
 */
export const HERO_SAMPLE_SIZES =
  "(min-width: 1280px) 292px, (min-width: 1024px) calc(25vw - 28px), (min-width: 640px) calc(50vw - 24px), calc(50vw - 22px)";

const TILE_TINTS: Record<StyleId, string> = {
  professional: "from-slate-700 to-slate-900",
  cartoon: "from-amber-400 to-orange-500",
  anime: "from-sky-400 to-indigo-500",
  fantasy: "from-fuchsia-500 to-purple-700",
};

/** The local engine's four sample images, by style, and the portrait's credit line. */
export interface HeroSamples {
  urls: Record<StyleId, string>;
  credit: string;
  /** The samples' own width in pixels, when known: their srcset offers nothing wider. */
  width?: number | null;
}

/**
 * 1. Hero with the four style samples: real outputs of the local style engine
 * made from one bundled public-domain portrait. Until they exist the tiles
 * show each style's name (and, with DEMO_FIGURES on, its earning range) instead of a picture.
 */
export function HeroSection({
  samples,
  registrationOpen = false,
  demo = false,
}: {
  samples: HeroSamples | null;
  registrationOpen?: boolean;
  /** DEMO_FIGURES: the spec's average earnings and earning ranges, labelled illustrative; off, neither. */
  demo?: boolean;
}) {
  return (
    <section
      aria-labelledby="hero-heading"
      className="relative overflow-hidden bg-gradient-to-br from-brand-50 via-white to-pink-50"
      data-testid="landing-hero"
    >
      <div
        aria-hidden="true"
        className="absolute -top-32 -right-32 h-96 w-96 rounded-full bg-brand-200/50 blur-3xl"
      />
      <div
        aria-hidden="true"
        className="absolute -bottom-40 -left-24 h-96 w-96 rounded-full bg-pink-200/40 blur-3xl"
      />
      <div className="relative mx-auto grid max-w-7xl items-center gap-12 px-4 py-16 sm:py-20 lg:grid-cols-2 lg:py-24">
        <div>
          <p className="inline-flex items-center gap-2 rounded-full bg-white px-3 py-1 text-sm font-semibold text-brand-700 shadow-sm ring-1 ring-brand-100">
            <span aria-hidden="true" className="h-2 w-2 rounded-full bg-pink-500" />
            Free beta access
          </p>
          <h1
            id="hero-heading"
            className="mt-5 text-4xl font-extrabold tracking-tight text-slate-900 sm:text-5xl lg:text-6xl"
          >
            {TAGLINE}
          </h1>
          <p className="mt-5 max-w-xl text-lg text-slate-600">
            Upload one selfie, turn it into professional, cartoon, anime or fantasy art with AI, and
            sell or license it on our marketplace and more platforms. Beta creators keep 85% of
            every sale.
          </p>
          <div className="mt-8 flex flex-col gap-3 sm:flex-row">
            <a
              href={registrationOpen ? "/api/login" : WAITLIST_HREF}
              className="btn-primary px-6 py-3 text-base shadow-lg shadow-brand-600/20"
            >
              Start Earning Today
            </a>
            <a href="/marketplace" className="btn-secondary px-6 py-3 text-base">
              Browse the Marketplace
            </a>
          </div>
          <dl className="mt-10 grid max-w-md grid-cols-3 gap-4">
            {demo ? (
              <HeroFigure
                label="Average earnings"
                value={`$${AVERAGE_MONTHLY_EARNINGS}/mo`}
                illustrative
              />
            ) : null}
            <HeroFigure label="AI styles" value="4" />
            <HeroFigure label="You keep" value="85%" />
          </dl>
        </div>

        <div>
          <ul className="grid grid-cols-2 gap-3 sm:gap-4" aria-label="Style samples">
            {STYLES.map((style, index) => (
              <li
                key={style.id}
                className={`relative overflow-hidden rounded-2xl shadow-lg ring-1 ring-slate-900/5 ${index % 2 === 1 ? "translate-y-6" : ""}`}
                data-testid={`hero-sample-${style.id}`}
              >
                {samples ? (
                  <ResponsivePicture
                    src={samples.urls[style.id]}
                    sourceWidth={samples.width}
                    sizes={HERO_SAMPLE_SIZES}
                    width={512}
                    height={640}
                    alt={`The sample portrait in the ${style.name} style`}
                    className="aspect-[4/5] w-full object-cover"
                    loading="lazy"
                  />
                ) : (
                  <div
                    className={`flex aspect-[4/5] w-full items-center justify-center bg-gradient-to-br ${TILE_TINTS[style.id]}`}
                  >
                    <StyleGlyph />
                  </div>
                )}
                {/* Below sm the tile is too narrow for both on one line: the earnings chip goes under the name, which wraps rather than being cut. */}
                <div className="absolute inset-x-0 bottom-0 flex flex-col items-start gap-1 bg-gradient-to-t from-black/70 to-transparent p-3 pt-10 text-white sm:flex-row sm:items-end sm:justify-between sm:gap-2">
                  <span
                    className="min-w-0 text-sm leading-tight font-semibold wrap-anywhere"
                    data-testid="hero-sample-name"
                  >
                    {style.name}
                  </span>
                  {demo ? (
                    <span className="rounded-full bg-white/20 px-2 py-0.5 text-xs font-medium whitespace-nowrap backdrop-blur">
                      {style.earningRange}
                    </span>
                  ) : null}
                </div>
              </li>
            ))}
          </ul>
          {demo ? (
            <p
              className="mt-10 text-center text-xs text-slate-500"
              data-testid="hero-earning-ranges-note"
            >
              Earning ranges on the samples: example figures, not earnings data.
            </p>
          ) : null}
          {samples ? (
            <p
              className={`${demo ? "mt-2" : "mt-10"} text-center text-xs text-slate-500`}
              data-testid="hero-sample-credit"
            >
              Made by our built-in style engine from one public-domain portrait. {samples.credit}
            </p>
          ) : null}
        </div>
      </div>
    </section>
  );
}

function HeroFigure({
  label,
  value,
  illustrative = false,
}: {
  label: string;
  value: string;
  illustrative?: boolean;
}) {
  return (
    <div>
      <dt className="text-xs font-medium text-slate-500">{label}</dt>
      <dd
        className="text-xl font-bold whitespace-nowrap text-slate-900 sm:text-2xl"
        data-testid={illustrative ? "hero-average-earnings" : undefined}
      >
        {value}
        {illustrative ? (
          <span className="block whitespace-normal">
            <Illustrative text="Illustrative figure" />
          </span>
        ) : null}
      </dd>
    </div>
  );
}

function StyleGlyph() {
  return (
    <svg
      viewBox="0 0 64 64"
      className="h-16 w-16 text-white/80"
      fill="none"
      stroke="currentColor"
      strokeWidth="2.5"
      aria-hidden="true"
    >
      <circle cx="32" cy="24" r="11" />
      <path d="M12 56c2-11 10-17 20-17s18 6 20 17" strokeLinecap="round" />
      <path
        d="M50 8l1.5 4 4 1.5-4 1.5L50 19l-1.5-4-4-1.5 4-1.5z"
        fill="currentColor"
        stroke="none"
      />
    </svg>
  );
}

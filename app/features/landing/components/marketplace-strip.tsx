import { EXTERNAL_MARKETPLACES } from "~/features/landing/marketplaces";
import { platformState, type SPEC_PLATFORM_IDS } from "~/features/publishing/platforms";

/** Text wordmarks (no external images): each name set in a type treatment of its own. */
const WORDMARK_STYLES: Record<(typeof SPEC_PLATFORM_IDS)[number], string> = {
  opensea: "text-lg font-bold tracking-tight text-sky-700",
  zora: "text-lg font-black tracking-tight text-slate-900",
  foundation: "text-sm font-semibold tracking-[0.12em] uppercase text-slate-800 sm:text-base",
  foap: "text-lg font-extrabold lowercase text-rose-600",
  eyeem: "text-lg font-bold text-slate-900",
  clickasnap: "text-lg font-bold italic text-orange-700",
  rarible: "text-lg font-extrabold text-amber-700",
  mintable: "text-lg font-semibold text-teal-700",
  shopify: "text-lg font-bold text-green-700",
};

/** 2. The strip of the nine external platforms, each with its real state (the platform registry's). */
export function MarketplaceStrip() {
  return (
    <section
      aria-labelledby="marketplaces-heading"
      className="border-y border-slate-200 bg-white py-12"
      data-testid="landing-marketplaces"
    >
      <div className="mx-auto max-w-7xl px-4">
        <h2
          id="marketplaces-heading"
          className="text-center text-sm font-semibold tracking-wide text-slate-600 uppercase"
        >
          Sell on our marketplace and on more platforms
        </h2>
        <ul className="mt-8 grid grid-cols-2 items-center gap-x-6 gap-y-6 min-[360px]:grid-cols-3 sm:grid-cols-5 lg:grid-cols-9">
          {EXTERNAL_MARKETPLACES.map((market) => (
            <li
              key={market.id}
              className="flex min-w-0 flex-col items-center text-center"
              data-testid="marketplace-wordmark"
            >
              <span
                className={`leading-none ${WORDMARK_STYLES[market.id as keyof typeof WORDMARK_STYLES]} ${market.closed ? "line-through decoration-2" : ""}`}
              >
                {market.name}
              </span>
              <span className="mt-1.5 text-[11px] font-medium text-slate-500">{market.kind}</span>
              <span
                className="mt-0.5 text-[11px] font-medium text-slate-600"
                data-testid="platform-state"
              >
                {platformState(market)}
              </span>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}

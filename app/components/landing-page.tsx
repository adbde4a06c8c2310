import { TAGLINE } from "~/lib/product";

/** The landing page (spec section 2). Its sections arrive with the public-pages issue. */
export function LandingPage() {
  return (
    <section className="bg-gradient-to-b from-brand-50 to-white">
      <div className="mx-auto max-w-5xl px-4 py-20 text-center">
        <p className="text-sm font-semibold tracking-wide text-brand-700 uppercase">Free beta access</p>
        <h1 className="mt-3 text-4xl font-extrabold text-slate-900 sm:text-5xl">{TAGLINE}</h1>
        <p className="mx-auto mt-5 max-w-2xl text-lg text-slate-600">
          Upload a selfie, pick one of four AI styles (professional, cartoon, anime, fantasy) and sell or license the
          result. Keep 85% of your earnings.
        </p>
        <div className="mt-8 flex flex-wrap justify-center gap-3">
          <a href="/api/login" className="btn-primary px-6 py-3 text-base">
            Start Earning Today
          </a>
          <a href="/marketplace" className="btn-secondary px-6 py-3 text-base">
            Browse the Marketplace
          </a>
        </div>
      </div>
    </section>
  );
}

import type { MetaFunction } from "@remix-run/node";
import { useRouteLoaderData } from "@remix-run/react";
import type { ReactNode } from "react";
import { BackLink } from "~/ui/back-link";
import { PRODUCT_NAME } from "~/lib/product";
import { DEFAULT_PRICE, STYLES, suggestedPrice } from "~/lib/styles";
import type { loader as rootLoader } from "~/root";
import { LineIcon } from "~/ui/line-icon";
import { NumberedTitle } from "~/ui/numbered-title";
import { SecondaryLink } from "~/ui/secondary-link";

export const meta: MetaFunction = () => [
  { title: `Training | ${PRODUCT_NAME}` },
  {
    name: "description",
    content: "Earning tips for creators: better selfies, the right styles, smart prices.",
  },
];

/** /training: static earning tips. Public; no data of its own (the back link follows who is signed in). */
export default function Training() {
  const signedIn = Boolean(useRouteLoaderData<typeof rootLoader>("root")?.user);
  return (
    <div className="mx-auto max-w-5xl px-4 py-8 sm:py-10">
      {signedIn ? (
        <BackLink to="/dashboard">Back to Dashboard</BackLink>
      ) : (
        <BackLink to="/">Back to Home</BackLink>
      )}

      <header className="mt-4">
        <p className="text-sm font-semibold tracking-wide text-brand-700 uppercase">
          Creator training
        </p>
        <h1 className="mt-1 text-3xl font-extrabold tracking-tight text-slate-900 sm:text-4xl">
          Earning tips
        </h1>
        <p className="mt-3 max-w-2xl text-slate-600">
          Small choices make the difference between an image that sits and one that sells. Here is
          what works for creators on {PRODUCT_NAME}.
        </p>
      </header>

      <div
        className="mt-6 flex items-start gap-3 rounded-xl border border-brand-200 bg-brand-50 p-4 text-sm text-brand-900"
        data-testid="upload-note"
      >
        <LineIcon className="mt-0.5 h-5 w-5 shrink-0">
          <circle cx="10" cy="10" r="8" />
          <path d="M10 9v5M10 6.5v.01" strokeLinecap="round" />
        </LineIcon>
        <p>
          <strong>Upload requirements:</strong> selfies should be JPG or PNG up to 10MB.
        </p>
      </div>

      <ol className="mt-8 grid gap-6 md:grid-cols-2">
        <Tip number={1} title="Start with a great selfie">
          Face the light (a window works best), look at the camera, and keep the background plain.
          Sharp, well-lit originals give every style more detail to work with.
        </Tip>
        <Tip number={2} title="Pick the styles buyers want">
          <ul className="mt-2 space-y-1.5">
            {STYLES.map((style) => (
              <li key={style.id} className="flex flex-wrap items-center gap-2">
                <span className="font-medium text-slate-900">{style.name}</span>
                <span className="rounded-full bg-emerald-50 px-2 py-0.5 text-xs font-semibold text-emerald-800">
                  {style.earningRange}
                </span>
                <span className="rounded-full bg-slate-100 px-2 py-0.5 text-xs font-medium text-slate-700">
                  {style.demand} demand
                </span>
              </li>
            ))}
          </ul>
        </Tip>
        <Tip number={3} title="Price with confidence">
          Start from the suggested prices: professional ${suggestedPrice("professional")}, fantasy $
          {suggestedPrice("fantasy")}, anime ${suggestedPrice("anime")}, cartoon $
          {suggestedPrice("cartoon")}. An image without a price sells for ${DEFAULT_PRICE}. Adjust
          after your first sales.
        </Tip>
        <Tip number={4} title="Write titles and tags that sell">
          Say what the buyer gets: “Professional headshot, navy blazer, studio light” beats “My
          photo”. Add five to ten tags separated by commas, such as the style, the mood and the use
          (avatar, LinkedIn, book cover).
        </Tip>
        <Tip number={5} title="Optimize before you list">
          Use the marketplace preset (PNG, 2048×2048, quality 90) for sales and the social preset
          for sharing. Keep the watermark on anything you post publicly.
        </Tip>
        <Tip number={6} title="License and list everywhere">
          Turn on licensing so one image can sell many times, then list it on our marketplace and on
          the external platforms you have connected. Platform fees differ, so compare them before
          you choose.
        </Tip>
      </ol>

      <div className="card mt-10 flex flex-col items-start gap-4 p-6 sm:flex-row sm:items-center sm:justify-between">
        <div>
          <h2 className="text-lg font-semibold text-slate-900">Ready to put the tips to work?</h2>
          <p className="text-sm text-slate-600">
            Upload a selfie, or see what sells on the marketplace.
          </p>
        </div>
        <div className="flex flex-wrap gap-3">
          <a href="/api/login" className="btn-primary">
            Start Creating
          </a>
          <SecondaryLink to="/marketplace">Browse Marketplace</SecondaryLink>
        </div>
      </div>
    </div>
  );
}

function Tip({ number, title, children }: { number: number; title: string; children: ReactNode }) {
  return (
    <li className="card p-6">
      <NumberedTitle number={number} title={title} />
      <div className="mt-3 text-sm leading-6 text-slate-600">{children}</div>
    </li>
  );
}

import { LogoMark } from "~/ui/logo";
import { PRODUCT_NAME, TAGLINE } from "~/lib/product";

/**
 * 7. Footer with Product, Support and Company columns. Entries with a page
 * link to it; the others (Features, AI Styles, Community, About, Blog,
 * Careers) have none, so they are plain text rather than dead links.
 */
export const FOOTER_LINKS: Readonly<Record<string, string>> = {
  Pricing: "/pricing",
  Marketplace: "/marketplace",
  "Help Center": "/help",
  "Creator Guide": "/creator-guide",
  "Contact Us": "/contact",
  "Privacy Policy": "/privacy",
  "Terms of Service": "/terms",
};
const COLUMNS = [
  { title: "Product", items: ["Features", "AI Styles", "Pricing", "Marketplace"] },
  { title: "Support", items: ["Help Center", "Creator Guide", "Contact Us", "Community"] },
  { title: "Company", items: ["About", "Blog", "Careers", "Privacy Policy", "Terms of Service"] },
];

export function LandingFooter() {
  return (
    <footer className="bg-slate-950 text-slate-300" data-testid="landing-footer">
      <div className="mx-auto grid max-w-7xl gap-10 px-4 py-14 lg:grid-cols-5">
        <div className="lg:col-span-2">
          <p className="flex items-center gap-2 text-lg font-bold text-white">
            <LogoMark />
            {PRODUCT_NAME}
          </p>
          <p className="mt-3 max-w-sm text-sm text-slate-400">{TAGLINE}.</p>
        </div>
        <div className="grid grid-cols-3 gap-6 lg:col-span-3">
          {COLUMNS.map((column) => (
            <div key={column.title}>
              <h2 className="text-sm font-semibold tracking-wide text-white uppercase">
                {column.title}
              </h2>
              <ul className="mt-4 space-y-2 text-sm text-slate-400">
                {column.items.map((item) => (
                  <li key={item}>
                    {FOOTER_LINKS[item] ? (
                      <a
                        href={FOOTER_LINKS[item]}
                        className="text-slate-300 underline hover:text-white"
                      >
                        {item}
                      </a>
                    ) : (
                      item
                    )}
                  </li>
                ))}
              </ul>
            </div>
          ))}
        </div>
      </div>
      <div className="border-t border-white/10">
        <p className="mx-auto max-w-7xl px-4 py-6 text-xs text-slate-400">
          © {new Date().getUTCFullYear()} {PRODUCT_NAME}. All rights reserved.
        </p>
      </div>
    </footer>
  );
}

import { Link } from "@remix-run/react";
import { PRODUCT_NAME, TAGLINE } from "~/lib/product";

/**
 * The site footer, on every page (the root layout draws it once, after
 * <main>, so it is the page's one `contentinfo` landmark). Product, Support
 * and Company columns, every entry a real page (docs/decisions/093): the
 * rules, refunds, privacy and the license are one tap away from the cart and
 * the checkout, and Contact Us leads to the support address (SUPPORT_EMAIL).
 */
export const FOOTER_COLUMNS: readonly {
  title: string;
  links: readonly { label: string; to: string }[];
}[] = [
  {
    title: "Product",
    links: [
      { label: "Marketplace", to: "/marketplace" },
      { label: "Pricing", to: "/pricing" },
      { label: "Creator Guide", to: "/creator-guide" },
    ],
  },
  {
    title: "Support",
    links: [
      { label: "Help Center", to: "/help" },
      { label: "Contact Us", to: "/contact" },
      { label: "Refunds", to: "/terms#refunds" },
    ],
  },
  {
    title: "Company",
    links: [
      { label: "Terms of Service", to: "/terms" },
      { label: "Privacy Policy", to: "/privacy" },
      { label: "License", to: "/license" },
    ],
  },
];

export function SiteFooter() {
  return (
    <footer className="border-t border-slate-200 bg-white print:hidden" data-testid="site-footer">
      <div className="mx-auto grid max-w-7xl gap-8 px-4 py-10 lg:grid-cols-5">
        <div className="lg:col-span-2">
          <p className="text-lg font-bold text-slate-900">{PRODUCT_NAME}</p>
          <p className="mt-2 max-w-sm text-sm text-slate-600">{TAGLINE}.</p>
        </div>
        <nav aria-label="Footer" className="grid grid-cols-2 gap-6 sm:grid-cols-3 lg:col-span-3">
          {FOOTER_COLUMNS.map((column) => (
            <div key={column.title}>
              <h2 className="text-sm font-semibold tracking-wide text-slate-900 uppercase">
                {column.title}
              </h2>
              <ul className="mt-3 space-y-1 text-sm">
                {column.links.map((link) => (
                  <li key={link.to}>
                    {/* py-1: a tap target at least 24 px tall. */}
                    <Link
                      to={link.to}
                      className="inline-block py-1 text-slate-700 underline hover:text-brand-700"
                    >
                      {link.label}
                    </Link>
                  </li>
                ))}
              </ul>
            </div>
          ))}
        </nav>
      </div>
      <div className="border-t border-slate-200">
        <p className="mx-auto max-w-7xl px-4 py-4 text-xs text-slate-600">
          © {new Date().getUTCFullYear()} {PRODUCT_NAME}. All rights reserved.
        </p>
      </div>
    </footer>
  );
}

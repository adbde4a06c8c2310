import { Link } from "@remix-run/react";

/** "Marketplace / <title>" above a page the marketplace leads to (a listing's, a bundle's). */
export function MarketplaceBreadcrumb({ title }: { title: string }) {
  return (
    <nav aria-label="Breadcrumb" className="text-sm text-slate-600">
      <Link to="/marketplace" className="text-brand-700 underline">
        Marketplace
      </Link>{" "}
      / <span className="wrap-anywhere">{title}</span>
    </nav>
  );
}

import type { ReactNode } from "react";
import { LogoMark } from "~/ui/logo";
import { PRODUCT_NAME } from "~/lib/product";

/**
 * A narrow page of one card under the logo and the product's name (e.g. the
 * forgotten password and the links mailed to confirm something): the card's
 * heading is the page's h1.
 */
export function BrandCardPage({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="mx-auto max-w-md px-4 py-10 lg:py-16">
      <div className="mb-6 flex items-center gap-3">
        <LogoMark className="h-10 w-10" />
        <p className="text-3xl font-bold text-slate-900">{PRODUCT_NAME}</p>
      </div>
      <section className="card p-6">
        <h1 className="text-xl font-semibold text-slate-900">{title}</h1>
        {children}
      </section>
    </div>
  );
}

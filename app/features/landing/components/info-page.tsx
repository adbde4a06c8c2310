import type { ReactNode } from "react";
import { BackLink } from "~/ui/back-link";

/**
 * The layout of the public information pages (help, contact, creator guide,
 * terms, pricing): a back link that follows who is signed in, a header and
 * the page's sections. The site footer, on every page, links them to each other.
 */
export function InfoPage({
  signedIn,
  eyebrow,
  title,
  intro,
  testId,
  wide = false,
  children,
}: {
  signedIn: boolean;
  eyebrow: string;
  title: string;
  intro: ReactNode;
  testId: string;
  /** Wider than a column of text, for the pricing cards. */
  wide?: boolean;
  children: ReactNode;
}) {
  return (
    <article
      className={`mx-auto ${wide ? "max-w-6xl" : "max-w-3xl"} px-4 py-8 sm:py-10`}
      data-testid={testId}
    >
      {signedIn ? (
        <BackLink to="/dashboard">Back to Dashboard</BackLink>
      ) : (
        <BackLink to="/">Back to Home</BackLink>
      )}
      <header className="mt-4">
        <p className="text-sm font-semibold tracking-wide text-brand-700 uppercase">{eyebrow}</p>
        <h1 className="mt-1 text-3xl font-extrabold tracking-tight text-slate-900 sm:text-4xl">
          {title}
        </h1>
        <div className="mt-3 max-w-2xl text-slate-600">{intro}</div>
      </header>
      {children}
    </article>
  );
}

/** One titled section of an information page; its id makes it linkable (/help#refunds). */
export function InfoSection({
  id,
  title,
  children,
}: {
  id: string;
  title: string;
  children: ReactNode;
}) {
  return (
    <section
      id={id}
      aria-labelledby={`${id}-heading`}
      className="mt-8 scroll-mt-20"
      data-testid={`section-${id}`}
    >
      <h2 id={`${id}-heading`} className="text-xl font-semibold text-slate-900">
        {title}
      </h2>
      <div className="mt-2 space-y-3 leading-7 text-slate-700 [overflow-wrap:anywhere]">
        {children}
      </div>
    </section>
  );
}

/** An in-text link in the information pages' style. */
export const INFO_LINK = "font-medium text-brand-700 underline hover:text-brand-900";

import { PRODUCT_NAME } from "~/lib/product";

/** The privacy page's content as the server made it from its configuration (privacy-facts.server.ts). */
export interface PrivacyPageFacts {
  sections: {
    id: string;
    title: string;
    paragraphs: string[];
    links?: { href: string; label: string }[];
  }[];
  consentVersion: string;
  vendorRetentionUrl: string | null;
}

/** /privacy: what is stored, where and for how long; every sentence comes from the running configuration. */
export function PrivacyPage({ facts }: { facts: PrivacyPageFacts }) {
  return (
    <article className="mx-auto max-w-3xl px-4 py-10" data-testid="privacy-page">
      <h1 className="text-3xl font-extrabold tracking-tight text-slate-900">Privacy</h1>
      <p className="mt-3 text-slate-600">
        Who is responsible for your data, why {PRODUCT_NAME} uses it, who else receives it, how long
        it is kept and how you use your rights. This page is made from the settings this server runs
        with, so it describes what it does now.
      </p>
      {facts.sections.map((section) => (
        <section
          key={section.id}
          aria-labelledby={`privacy-${section.id}`}
          className="mt-8"
          data-testid={`privacy-${section.id}`}
        >
          <h2 id={`privacy-${section.id}`} className="text-xl font-semibold text-slate-900">
            {section.title}
          </h2>
          <div className="mt-2 space-y-2 text-slate-700">
            {section.paragraphs.map((paragraph) => (
              <p key={paragraph}>{paragraph}</p>
            ))}
          </div>
          {section.links && section.links.length > 0 ? (
            <ul className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-sm">
              {section.links.map((link) => (
                <li key={link.href}>
                  <a href={link.href} className="font-medium text-brand-700 underline">
                    {link.label}
                  </a>
                </li>
              ))}
            </ul>
          ) : null}
          {section.id === "styling" && facts.vendorRetentionUrl ? (
            <p className="mt-2 text-sm text-slate-600">
              fal.ai describes how long it keeps requests and files in its documentation:{" "}
              <a
                href={facts.vendorRetentionUrl}
                className="font-medium text-brand-700 underline"
                rel="noreferrer"
              >
                fal.ai data retention
              </a>
              .
            </p>
          ) : null}
        </section>
      ))}
      <p className="mt-10 text-sm text-slate-500">Consent text version {facts.consentVersion}.</p>
    </article>
  );
}

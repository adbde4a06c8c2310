import { LICENSE_TERMS } from "~/lib/license-terms";

/** The numbered terms of the standard commercial license (the public /license page and each order's license). */
export function LicenseTermsList({ headingLevel }: { headingLevel: "h2" | "h3" }) {
  const Heading = headingLevel;
  return (
    <>
      {LICENSE_TERMS.map((term, index) => (
        <div key={term.heading}>
          <Heading className="font-semibold text-slate-900">
            {index + 1}. {term.heading}
          </Heading>
          <p className="mt-1 text-slate-700">{term.text}</p>
        </div>
      ))}
    </>
  );
}

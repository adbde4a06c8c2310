import { LICENSE_TERMS, type LicenseTerm } from "~/lib/license-terms";

/** The numbered terms of a licence (the Standard one unless given): the public /license page and each order's license. */
export function LicenseTermsList({
  headingLevel,
  terms = LICENSE_TERMS,
}: {
  headingLevel: "h2" | "h3" | "h4";
  terms?: readonly LicenseTerm[];
}) {
  const Heading = headingLevel;
  return (
    <>
      {terms.map((term, index) => (
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

import { Link } from "@remix-run/react";

/** The listings' pages, newest first: "Back to newest" once past the first page, and "Next page" while there is one. */
export function PageLinks({
  firstHref,
  nextHref,
  pastFirst,
}: {
  firstHref: string;
  nextHref: string | null;
  pastFirst: boolean;
}) {
  return (
    <nav aria-label="Pages" className="flex justify-between">
      {pastFirst ? (
        <Link to={firstHref} className="btn-secondary">
          Back to newest
        </Link>
      ) : (
        <span />
      )}
      {nextHref ? (
        <Link to={nextHref} className="btn-secondary" data-testid="next-page">
          Next page
        </Link>
      ) : null}
    </nav>
  );
}

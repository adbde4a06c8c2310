import { Link, isRouteErrorResponse, useRouteError } from "@remix-run/react";

export interface ErrorPanelProps {
  title: string;
  detail: string;
  linkTo?: string;
  linkLabel?: string;
  eyebrow?: string;
}

/** The body of an error or not-found page: a title, a sentence and one way on. */
export function ErrorPanel({
  title,
  detail,
  linkTo = "/",
  linkLabel = "Go Home",
  eyebrow,
}: ErrorPanelProps) {
  return (
    <section className="mx-auto flex max-w-xl flex-col items-center px-4 py-24 text-center">
      {eyebrow ? <p className="text-sm font-semibold text-brand-600">{eyebrow}</p> : null}
      <h1 className="mt-2 text-3xl font-bold text-slate-900">{title}</h1>
      <p className="mt-3 text-slate-600">{detail}</p>
      <Link to={linkTo} className="btn-primary mt-8">
        {linkLabel}
      </Link>
    </section>
  );
}

/** A missing page's words, where the page has nothing more to say about it. */
export const PAGE_NOT_FOUND = {
  eyebrow: "404",
  title: "Page Not Found",
  detail: "The page you are looking for does not exist or has moved.",
} as const;

/** Any other error's words (the link on is the page's own). */
export const SOMETHING_WENT_WRONG = {
  title: "Something went wrong",
  detail: "Please try again.",
} as const;

/** The way on from an error on a page the marketplace leads to. */
export const BACK_TO_MARKETPLACE = {
  linkTo: "/marketplace",
  linkLabel: "Back to the marketplace",
} as const;

/**
 * A route's error boundary: the `notFound` panel for a 404, `otherwise` (or
 * what it answers for the error) for anything else.
 */
export function RouteErrorPanel({
  notFound,
  otherwise,
}: {
  notFound: ErrorPanelProps;
  otherwise: ErrorPanelProps | ((error: unknown) => ErrorPanelProps);
}) {
  const error = useRouteError();
  const props =
    isRouteErrorResponse(error) && error.status === 404
      ? notFound
      : typeof otherwise === "function"
        ? otherwise(error)
        : otherwise;
  return <ErrorPanel {...props} />;
}

/**
 * The error boundary of a page the marketplace leads to: the 404 panel, or
 * `title` and `detail` with the way back to the marketplace.
 */
export function MarketplaceRouteErrorPanel({ title, detail }: { title: string; detail: string }) {
  return (
    <RouteErrorPanel
      notFound={PAGE_NOT_FOUND}
      otherwise={{ title, detail, ...BACK_TO_MARKETPLACE }}
    />
  );
}

/** The message a loader's error response carries, or `fallback`. */
export function routeErrorMessage(error: unknown, fallback: string): string {
  return isRouteErrorResponse(error) && typeof error.data?.message === "string"
    ? error.data.message
    : fallback;
}

/** The page shown for a route's error: a 404, a 403, another status with its message, or a failure. */
export function ErrorPage({ error }: { error: unknown }) {
  const failure = "An unexpected error occurred. Please try again.";
  if (!isRouteErrorResponse(error))
    return <ErrorPanel title="Something went wrong" detail={failure} />;
  if (error.status === 404)
    return <ErrorPanel title={PAGE_NOT_FOUND.title} detail={PAGE_NOT_FOUND.detail} />;
  if (error.status === 403)
    return (
      <ErrorPanel title="Access Denied" detail="You don't have permission to view this page." />
    );
  return (
    <ErrorPanel
      title={`${error.status} ${error.statusText || "Error"}`}
      detail={routeErrorMessage(error, failure)}
    />
  );
}

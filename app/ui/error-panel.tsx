import { Link } from "@remix-run/react";

/** The body of an error or not-found page: a title, a sentence and one way on. */
export function ErrorPanel({
  title,
  detail,
  linkTo = "/",
  linkLabel = "Go Home",
  eyebrow,
}: {
  title: string;
  detail: string;
  linkTo?: string;
  linkLabel?: string;
  eyebrow?: string;
}) {
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

import { Link, useNavigate } from "@remix-run/react";
import { useEffect } from "react";
import { ACCESS_DENIED, ADMIN_REDIRECT_DELAY_MS } from "~/features/admin/types";
import { LineIcon } from "~/ui/line-icon";
import { NoScriptRefresh } from "~/ui/no-script-refresh";

/**
 * What a signed-in non-admin sees at /admin: the page
 * says Access Denied and sends them to / after 1000 ms. With JavaScript a timer
 * navigates; without it, a meta refresh inside <noscript> does.
 */
export function AccessDenied() {
  const navigate = useNavigate();
  useEffect(() => {
    const timer = window.setTimeout(
      () => navigate("/", { replace: true }),
      ADMIN_REDIRECT_DELAY_MS,
    );
    return () => window.clearTimeout(timer);
  }, [navigate]);
  return (
    <section
      className="mx-auto flex max-w-xl flex-col items-center px-4 py-24 text-center"
      data-testid="access-denied"
    >
      <NoScriptRefresh seconds={ADMIN_REDIRECT_DELAY_MS / 1000} url="/" />
      <span className="inline-flex h-14 w-14 items-center justify-center rounded-full bg-red-100 text-red-700">
        <LineIcon className="h-7 w-7">
          <rect x="4" y="9" width="12" height="8" rx="1.5" />
          <path d="M7 9V6.5a3 3 0 016 0V9" />
        </LineIcon>
      </span>
      <h1 className="mt-5 text-3xl font-bold text-slate-900">{ACCESS_DENIED.title}</h1>
      <p className="mt-3 text-slate-600">{ACCESS_DENIED.description}</p>
      <p className="mt-2 text-sm text-slate-500">Taking you to the home page…</p>
      <Link to="/" className="btn-primary mt-8">
        Go Home
      </Link>
    </section>
  );
}

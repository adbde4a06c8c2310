import { Form, Link, NavLink } from "@remix-run/react";
import type { PublicUser } from "~/lib/accounts";
import { displayName } from "~/lib/accounts";
import { PRODUCT_NAME } from "~/lib/product";
import { Avatar } from "~/ui/avatar";
import { LogoMark } from "~/ui/logo";

const PUBLIC_LINKS = [
  { to: "/", label: "Home" },
  { to: "/marketplace", label: "Marketplace" },
  { to: "/training", label: "Training" },
];
const MEMBER_LINKS = [
  { to: "/dashboard", label: "Dashboard" },
  { to: "/integrations", label: "Integrations" },
  { to: "/payouts", label: "Payouts" },
  { to: "/payment-monitor", label: "Payment Monitor" },
];

function linkClass({ isActive }: { isActive: boolean }) {
  return `rounded-md px-3 py-2 text-sm font-medium ${
    isActive ? "bg-brand-50 text-brand-700" : "text-slate-700 hover:bg-slate-100 hover:text-slate-900"
  }`;
}

/** The navigation bar, signed-in and signed-out. */
export function SiteNav({ user }: { user: PublicUser | null }) {
  const links = user ? [...PUBLIC_LINKS, ...MEMBER_LINKS] : PUBLIC_LINKS;
  const account = user ? (
    <div className="flex items-center gap-3">
      <span className="flex items-center gap-2 text-sm font-medium text-slate-800" data-testid="nav-user">
        {user.profileImageUrl ? <Avatar src={user.profileImageUrl} name={displayName(user)} /> : null}
        <span className="max-w-[12rem] truncate">{displayName(user)}</span>
      </span>
      <Form method="post" action="/logout">
        <button type="submit" className="btn-secondary">
          Sign Out
        </button>
      </Form>
    </div>
  ) : (
    <div className="flex items-center gap-2">
      <Link to="/auth" className="btn-ghost">
        Sign In
      </Link>
      <Link to="/auth" className="btn-primary">
        Get Started
      </Link>
    </div>
  );

  return (
    <header className="sticky top-0 z-30 border-b border-slate-200 bg-white/90 backdrop-blur">
      <nav aria-label="Main" className="mx-auto flex max-w-7xl items-center justify-between gap-4 px-4 py-3">
        <Link to="/landing" className="flex items-center gap-2 text-lg font-bold text-slate-900">
          <LogoMark />
          <span>{PRODUCT_NAME}</span>
        </Link>
        <ul className="hidden items-center gap-1 lg:flex">
          {links.map((link) => (
            <li key={link.to}>
              <NavLink to={link.to} end={link.to === "/"} className={linkClass} prefetch="intent">
                {link.label}
              </NavLink>
            </li>
          ))}
        </ul>
        <div className="hidden lg:block">{account}</div>
        {/* Small screens: a disclosure that works without JavaScript. */}
        <details className="group relative lg:hidden">
          <summary className="btn-secondary cursor-pointer list-none" aria-label="Menu">
            <svg viewBox="0 0 20 20" className="h-5 w-5" aria-hidden="true">
              <path d="M3 5h14M3 10h14M3 15h14" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
            </svg>
            <span className="sr-only">Open menu</span>
          </summary>
          <div className="absolute right-0 mt-2 w-64 rounded-xl border border-slate-200 bg-white p-3 shadow-lg">
            <ul className="flex flex-col gap-1">
              {links.map((link) => (
                <li key={link.to}>
                  <NavLink to={link.to} end={link.to === "/"} className={linkClass}>
                    {link.label}
                  </NavLink>
                </li>
              ))}
            </ul>
            <div className="mt-3 border-t border-slate-200 pt-3">{account}</div>
          </div>
        </details>
      </nav>
    </header>
  );
}

import { Form, Link, NavLink, useLocation } from "@remix-run/react";
import { UserText } from "~/ui/user-text";
import { useEffect, useRef, useState } from "react";
import type { ReactNode } from "react";
import type { PublicUser } from "~/lib/accounts";
import { displayName, isSuperAdmin, signUpHref } from "~/lib/accounts";
import { PRODUCT_NAME } from "~/lib/product";
import { Avatar } from "~/ui/avatar";
import { BookmarkIcon } from "~/ui/bookmark-icon";
import { useBuyerLists } from "~/ui/buyer-lists";
import { LineIcon } from "~/ui/line-icon";
import { LogoMark } from "~/ui/logo";
import { useHydrated } from "~/ui/use-hydrated";

const PUBLIC_LINKS = [
  { to: "/", label: "Home" },
  { to: "/marketplace", label: "Marketplace" },
  { to: "/training", label: "Training" },
];
/** The creator's studio: where they make, list (edit and withdraw), follow and get paid for their work. */
const MEMBER_LINKS = [
  { to: "/dashboard", label: "Dashboard" },
  { to: "/listings", label: "Listings" },
  { to: "/analytics", label: "Analytics" },
  { to: "/integrations", label: "Integrations" },
  { to: "/payouts", label: "Payouts" },
  { to: "/settings", label: "Settings" },
];
const ADMIN_LINK = { to: "/admin", label: "Admin" };

function linkClass({ isActive }: { isActive: boolean }) {
  return `rounded-md px-3 py-2 text-sm font-medium ${
    isActive
      ? "bg-brand-50 text-brand-700"
      : "text-slate-700 hover:bg-slate-100 hover:text-slate-900"
  }`;
}

/**
 * The small-screen menu's state with JavaScript: a toggle that closes on
 * navigation (any change of location), on a tap outside the menu and on
 * Escape (focus goes back to the toggle).
 */
function useMenu() {
  const [open, setOpen] = useState(false);
  const container = useRef<HTMLDivElement>(null);
  const toggle = useRef<HTMLButtonElement>(null);
  const location = useLocation();
  useEffect(() => {
    setOpen(false);
  }, [location.key, location.pathname, location.search]);
  useEffect(() => {
    if (!open) return;
    const onPointerDown = (event: Event) => {
      if (
        container.current &&
        event.target instanceof Node &&
        !container.current.contains(event.target)
      )
        setOpen(false);
    };
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== "Escape") return;
      setOpen(false);
      toggle.current?.focus();
    };
    document.addEventListener("pointerdown", onPointerDown);
    document.addEventListener("keydown", onKeyDown);
    return () => {
      document.removeEventListener("pointerdown", onPointerDown);
      document.removeEventListener("keydown", onKeyDown);
    };
  }, [open]);
  return { open, setOpen, container, toggle };
}

function MenuIcon() {
  return (
    <svg viewBox="0 0 20 20" className="h-5 w-5" aria-hidden="true">
      <path
        d="M3 5h14M3 10h14M3 15h14"
        stroke="currentColor"
        strokeWidth="2"
        strokeLinecap="round"
      />
    </svg>
  );
}

function CartIcon() {
  return (
    <LineIcon className="h-5 w-5">
      <path d="M2.5 3.5h2l2 9h9l1.5-6.5H6" strokeLinecap="round" strokeLinejoin="round" />
      <circle cx="8" cy="16" r="1.2" />
      <circle cx="14.5" cy="16" r="1.2" />
    </LineIcon>
  );
}

function shortcutClass({ isActive }: { isActive: boolean }) {
  return `inline-flex shrink-0 items-center gap-1.5 whitespace-nowrap rounded-md px-2 py-2 text-sm font-medium ${
    isActive
      ? "bg-brand-50 text-brand-700"
      : "text-slate-700 hover:bg-slate-100 hover:text-slate-900"
  }`;
}

/** A count beside a shortcut's label: visible as a number, read as "3 listings". */
function Count({ count, noun, testId }: { count: number; noun: [string, string]; testId: string }) {
  return (
    <>
      {" "}
      <span
        className="min-w-5 rounded-full bg-brand-600 px-1.5 text-center text-xs leading-5 font-bold text-white"
        data-testid={testId}
      >
        {count}
      </span>{" "}
      <span className="sr-only">{count === 1 ? noun[0] : noun[1]}</span>
    </>
  );
}

/**
 * The buyer's shortcuts, for everyone, signed in or not: the saved listings
 * (in the bar from 640 px, in the menu below) and the cart, each with its
 * count. Where room is short (a phone; from 1024 px, where the bar holds every
 * link, up to 1280 px) a shortcut is its icon and count, its word kept in its
 * name ("Cart 2 items") for screen readers and voice control.
 */
function BuyerShortcuts() {
  const { cart, saved } = useBuyerLists();
  return (
    <>
      <NavLink
        to="/saved"
        className={(state) => `${shortcutClass(state)} max-sm:hidden`}
        data-testid="header-saved"
      >
        <BookmarkIcon />
        <span className="lg:max-xl:sr-only">Saved</span>
        <Count count={saved.size} noun={["listing", "listings"]} testId="header-saved-count" />
      </NavLink>
      <NavLink to="/cart" className={shortcutClass} data-testid="header-cart">
        <CartIcon />
        <span className="max-sm:sr-only lg:max-xl:sr-only">Cart</span>
        <Count count={cart.size} noun={["item", "items"]} testId="header-cart-count" />
      </NavLink>
    </>
  );
}

/** The navigation bar, signed-in and signed-out; "Get Started" opens the Register tab while registration is open, else the waitlist. */
export function SiteNav({
  user,
  registrationOpen = false,
}: {
  user: PublicUser | null;
  registrationOpen?: boolean;
}) {
  const hydrated = useHydrated();
  const menu = useMenu();
  const links = user
    ? [...PUBLIC_LINKS, ...MEMBER_LINKS, ...(isSuperAdmin(user) ? [ADMIN_LINK] : [])]
    : PUBLIC_LINKS;
  const account = user ? (
    <div className="flex min-w-0 items-center gap-3">
      <Link
        to="/settings"
        className="flex min-w-0 items-center gap-2 rounded-lg text-sm font-medium text-slate-800 hover:text-brand-700"
        data-testid="nav-user"
        title="Settings"
      >
        {user.profileImageUrl ? (
          <Avatar src={user.profileImageUrl} name={displayName(user)} />
        ) : null}
        <UserText text={displayName(user)} className="max-w-[12rem]" />
        <span className="sr-only">: settings</span>
      </Link>
      <Form method="post" action="/logout">
        <button type="submit" className="btn-secondary whitespace-nowrap">
          Sign Out
        </button>
      </Form>
    </div>
  ) : (
    <div className="flex items-center gap-2">
      <Link to="/auth" className="btn-ghost">
        Sign In
      </Link>
      <Link to={signUpHref(registrationOpen)} className="btn-primary">
        Get Started
      </Link>
    </div>
  );

  return (
    <header className="relative z-10 border-b border-slate-200 bg-white/90 backdrop-blur">
      <nav
        aria-label="Main"
        className="mx-auto flex max-w-7xl items-center justify-between gap-2 px-4 py-3 wrap-normal sm:gap-4"
      >
        {/*
          Never squeezed into a broken word: on the narrowest phone the name gives way to its
          ellipsis; from 1024 px the links wrap instead.
        */}
        <Link
          to="/landing"
          className="flex min-w-0 items-center gap-2 text-lg font-bold text-slate-900 lg:shrink-0"
        >
          <LogoMark className="h-8 w-8 shrink-0" />
          <span className="truncate">{PRODUCT_NAME}</span>
        </Link>
        <ul className="hidden flex-wrap items-center justify-center gap-1 lg:flex">
          {links.map((link) => (
            <li key={link.to}>
              <NavLink to={link.to} end={link.to === "/"} className={linkClass} prefetch="intent">
                {link.label}
              </NavLink>
            </li>
          ))}
        </ul>
        <div className="flex shrink-0 items-center gap-1 lg:gap-3">
          <BuyerShortcuts />
          <div className="hidden lg:block">{account}</div>
          {/*
            Small screens: with JavaScript a toggle button (closes on navigation, a tap outside and
            Escape); without it a details/summary disclosure (each page load starts it closed).
          */}
          {hydrated ? (
            <div ref={menu.container} className="relative lg:hidden">
              <button
                ref={menu.toggle}
                type="button"
                className="btn-secondary"
                aria-label="Menu"
                aria-expanded={menu.open}
                aria-controls="site-menu"
                onClick={() => menu.setOpen((open) => !open)}
              >
                <MenuIcon />
              </button>
              {menu.open ? <MenuPanel id="site-menu" links={links} account={account} /> : null}
            </div>
          ) : (
            <details className="group relative lg:hidden">
              <summary className="btn-secondary cursor-pointer list-none" aria-label="Menu">
                <MenuIcon />
                <span className="sr-only">Open menu</span>
              </summary>
              <MenuPanel links={links} account={account} />
            </details>
          )}
        </div>
      </nav>
    </header>
  );
}

function MenuPanel({
  id,
  links,
  account,
}: {
  id?: string;
  links: { to: string; label: string }[];
  account: ReactNode;
}) {
  const { saved } = useBuyerLists();
  return (
    <div
      id={id}
      className="absolute right-0 z-40 mt-2 w-64 max-w-[calc(100vw-2rem)] rounded-xl border border-slate-200 bg-white p-3 shadow-lg"
    >
      <ul className="flex flex-col gap-1">
        {links.map((link) => (
          <li key={link.to}>
            <NavLink to={link.to} end={link.to === "/"} className={linkClass}>
              {link.label}
            </NavLink>
          </li>
        ))}
        {/* The bar shows Saved from 640 px; below, it is here. */}
        <li className="sm:hidden">
          <NavLink to="/saved" className={linkClass} data-testid="menu-saved">
            Saved listings ({saved.size})
          </NavLink>
        </li>
      </ul>
      <div className="mt-3 border-t border-slate-200 pt-3">{account}</div>
    </div>
  );
}

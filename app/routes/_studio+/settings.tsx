import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Outlet, useLocation } from "@remix-run/react";
import { PRODUCT_NAME } from "~/lib/product";
import { LinkTabs } from "~/ui/link-tabs";
import { PageHeader } from "~/ui/page-header";
import { requireScreenUser } from "~/web/screen-guards.server";

export const meta: MetaFunction = () => [{ title: `Settings | ${PRODUCT_NAME}` }];

/** The settings' sections, each its own page under /settings so every one works without JavaScript. */
export const SETTINGS_TABS = [
  { id: "profile", label: "Profile", to: "/settings" },
  { id: "security", label: "Security", to: "/settings/security" },
  { id: "privacy", label: "Privacy", to: "/settings/privacy" },
  { id: "export", label: "Your data", to: "/settings/export" },
  { id: "delete", label: "Delete account", to: "/settings/delete" },
] as const;

/** /settings: the signed-in person's own account, one tab per section (the sections are the child routes). */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireScreenUser(request, { access: "user" });
  return json(null, { headers: { "Cache-Control": "private, no-store" } });
}

export default function Settings() {
  const { pathname } = useLocation();
  const path = pathname.replace(/\/+$/, "") || "/settings";
  const selected = SETTINGS_TABS.find((tab) => tab.to === path)?.id ?? "profile";
  return (
    <div className="mx-auto max-w-3xl space-y-6 px-4 py-8" data-testid="settings-page">
      <PageHeader title="Settings" subtitle="Your profile, sign-in, privacy and data." />
      <LinkTabs
        idPrefix="settings"
        selected={selected}
        tabs={SETTINGS_TABS}
        className="card p-4 sm:p-6"
        listClassName="mb-6 flex flex-wrap gap-1 rounded-lg bg-slate-100 p-1"
        tabClassName={(isSelected) =>
          `rounded-md px-3 py-2 text-center text-sm font-medium ${isSelected ? "bg-white text-slate-900 shadow" : "text-slate-600 hover:text-slate-900"}`
        }
      >
        <Outlet />
      </LinkTabs>
    </div>
  );
}

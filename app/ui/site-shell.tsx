import { useLocation, useNavigation } from "@remix-run/react";
import type { ReactNode } from "react";
import type { FlashMessage } from "~/lib/flash";
import type { PublicUser } from "~/lib/accounts";
import { NavigationProgress } from "~/ui/navigation-progress";
import { SiteFooter } from "~/ui/site-footer";
import { SiteNav } from "~/ui/site-nav";
import { ToastProvider, ToastRegion } from "~/ui/toaster";

/**
 * What every page has around its own content (the root layout's body): the
 * skip link, the navigation progress, a sticky top bar (the navigation, and
 * under it the row where a toast shows, pushing the page down rather than
 * covering it), the page as <main>, and the site footer (the page's one
 * `contentinfo` landmark).
 */
export function SiteShell({
  user,
  registrationOpen,
  flash,
  children,
}: {
  user: PublicUser | null;
  registrationOpen: boolean;
  flash: FlashMessage | null;
  children: ReactNode;
}) {
  const location = useLocation();
  const navigation = useNavigation();
  return (
    <>
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:z-50 focus:rounded focus:bg-white focus:p-2"
      >
        Skip to content
      </a>
      <NavigationProgress />
      <ToastProvider
        flash={flash}
        page={location.pathname}
        submitting={navigation.state === "submitting"}
        region="placed"
      >
        <div className="sticky top-0 z-30" data-testid="top-bar">
          <SiteNav user={user} registrationOpen={registrationOpen} />
          <ToastRegion />
        </div>
        <main id="main" className="flex-1">
          {children}
        </main>
        <SiteFooter />
      </ToastProvider>
    </>
  );
}

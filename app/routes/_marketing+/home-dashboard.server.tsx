/**
 * The dashboard as the server renders it on `/` for a signed-in creator. A
 * `.server` module, so it is left out of the browser build: visitors of `/`
 * (the landing page) download none of the studio, and a signed-in browser
 * loads it as a separate chunk when it hydrates (see _index.tsx).
 */
export { DashboardPage as ServerDashboardPage } from "~/features/studio/workspace/components/dashboard-page";

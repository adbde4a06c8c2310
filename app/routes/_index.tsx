import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { DashboardPage } from "~/components/dashboard-page";
import { LandingPage } from "~/components/landing-page";
import { getWebUser } from "~/server/auth.server";
import { toPublicUser } from "~/services/users.server";

/** Home: the dashboard when signed in, otherwise the landing page (spec route table). */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await getWebUser(request);
  return json({ user: user ? toPublicUser(user) : null });
}

export default function Home() {
  const { user } = useLoaderData<typeof loader>();
  return user ? <DashboardPage user={user} /> : <LandingPage />;
}

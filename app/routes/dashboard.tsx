import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { DashboardPage } from "~/components/dashboard-page";
import { requireWebUser } from "~/server/screen-guards.server";
import { toPublicUser } from "~/services/users.server";

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireWebUser(request);
  return json({ user: toPublicUser(user) });
}

export default function Dashboard() {
  const { user } = useLoaderData<typeof loader>();
  return <DashboardPage user={user} />;
}

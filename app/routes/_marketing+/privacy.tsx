import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { PRODUCT_NAME } from "~/lib/product";
import { privacyPage } from "~/features/privacy/procedures/privacy-page.server";
import { loadProcedure } from "~/web/screen-action.server";
import { PrivacyPage } from "~/features/privacy/components/privacy-page";

export const meta: MetaFunction = () => [
  { title: `Privacy | ${PRODUCT_NAME}` },
  { name: "description", content: `What ${PRODUCT_NAME} stores, where and for how long.` },
];

/** /privacy: public; what is stored, where and for how long, from the running configuration. */
export async function loader(args: LoaderFunctionArgs) {
  const facts = await loadProcedure(privacyPage, args, {}, null);
  return json(facts);
}

export default function Privacy() {
  return <PrivacyPage facts={useLoaderData<typeof loader>()} />;
}

import type { ActionFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useActionData } from "@remix-run/react";
import { PRODUCT_NAME } from "~/lib/product";
import { BrandCardPage } from "~/ui/brand-card-page";
import { screenCall } from "~/web/screen-action.server";
import { checkProvenance } from "~/features/market/provenance/procedures.server";
import {
  ProvenanceCheck,
  type ProvenanceOutcome,
} from "~/features/market/provenance/components/provenance-check";

export const meta: MetaFunction = () => [
  { title: `Check a file's Content Credentials | ${PRODUCT_NAME}` },
  {
    name: "description",
    content:
      "Read the Content Credentials (C2PA) of an image file: whether it carries them, whether they validate, who signed them and how the image was made.",
  },
];

/** Nothing a visitor sends is kept in a shared cache. */
export const headers = () => ({ "Cache-Control": "private, no-store" });

/**
 * /provenance (public): the Content Credentials check as a page. The form's
 * file streams to the procedure (the edge takes the upload's limit for this
 * path, app/web/body-limits.server.ts); the answer, or the sentence of a
 * refusal, comes back on the same page, with or without JavaScript.
 */
export async function action(args: ActionFunctionArgs) {
  return screenCall(args, {
    procedure: checkProvenance,
    input: {},
    user: null,
    onSuccess: ({ result }) => json<ProvenanceOutcome>({ report: result }),
    reply: (refusal) =>
      json<ProvenanceOutcome>(
        { refused: refusal.message },
        { status: refusal.status, headers: refusal.headers },
      ),
  });
}

export default function ProvenancePage() {
  const outcome = useActionData<typeof action>() as ProvenanceOutcome | undefined;
  return (
    <BrandCardPage title="Check a file's Content Credentials">
      <ProvenanceCheck outcome={outcome} />
    </BrandCardPage>
  );
}

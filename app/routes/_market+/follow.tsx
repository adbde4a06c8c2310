import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { BrandCardPage } from "~/ui/brand-card-page";
import { PRODUCT_NAME } from "~/lib/product";
import { FollowForm } from "~/features/market/follows/components/follow-form";
import { StepOutcome } from "~/ui/step-outcome";
import { FOLLOW_REQUESTED } from "~/features/market/follows/follow-types";
import { followCreator } from "~/features/market/follows/procedures.server";
import { submitForm } from "~/web/screen-action.server";

export const meta: MetaFunction = () => [
  { title: `Follow a creator | ${PRODUCT_NAME}` },
  { name: "robots", content: "noindex" },
];

/** A follow names an address: never kept in a shared cache. */
export const headers = () => ({ "Cache-Control": "private, no-store" });

/**
 * /follow: where the Follow form of storefronts and listing pages posts (no
 * account, no JavaScript needed). After a follow, /follow?sent=1 says a
 * confirmation link was mailed; a refused form (a bad address, an unknown
 * storefront, too many follows) comes back here with its errors.
 * GET /follow?handle=<handle> shows the form alone.
 */
export function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  return json({
    sent: url.searchParams.get("sent") === "1",
    handle: (url.searchParams.get("handle") ?? "").slice(0, 100),
  });
}

/** A follow ends on the same page whatever happened (a new follow, the same one again). */
export async function action(args: ActionFunctionArgs) {
  const outcome = await submitForm(followCreator, args, { user: null });
  if (!outcome.ok) return outcome.response;
  return redirect("/follow?sent=1");
}

export default function FollowPage() {
  const data = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const typed = lastResult?.initialValue?.handle;
  const handle = typeof typed === "string" ? typed : data.handle;
  return (
    <BrandCardPage title="Follow a creator">
      {data.sent && !lastResult ? (
        <StepOutcome testId="follow-sent">{FOLLOW_REQUESTED}</StepOutcome>
      ) : handle ? (
        <>
          <FollowForm handle={handle} creatorName={`@${handle}`} lastResult={lastResult} />
          <p className="mt-4 text-sm">
            <Link
              to={`/creators/${encodeURIComponent(handle)}`}
              className="text-brand-700 underline"
            >
              Back to the storefront
            </Link>
          </p>
        </>
      ) : (
        <StepOutcome testId="follow-nothing">
          Open a creator&apos;s storefront to follow them.
        </StepOutcome>
      )}
    </BrandCardPage>
  );
}

import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { replyErrorLines } from "~/ui/form-field";
import { TokenConfirmation } from "~/ui/token-confirmation";
import { BrandCardPage } from "~/ui/brand-card-page";
import { PRODUCT_NAME } from "~/lib/product";
import { StepOutcome } from "~/ui/step-outcome";
import { FOLLOW_CONFIRMED, INVALID_FOLLOW_LINK } from "~/features/market/follows/follow-types";
import { confirmFollow } from "~/features/market/follows/procedures.server";
import { submitForm } from "~/web/screen-action.server";
import { mailedLinkToken, TOKEN_PAGE_HEADERS } from "~/web/mailed-link.server";

export const meta: MetaFunction = () => [
  { title: `Confirm your follow | ${PRODUCT_NAME}` },
  { name: "robots", content: "noindex" },
];

export const headers = () => TOKEN_PAGE_HEADERS;

/**
 * /follows/confirm?token=…: where a follow's confirmation mail leads. Opening
 * it (a GET, which mail scanners also do) changes nothing; its Confirm button
 * posts the token, which confirms the follow.
 */
export function loader({ request }: LoaderFunctionArgs) {
  const confirmed = new URL(request.url).searchParams.get("confirmed") === "1";
  return json({ token: mailedLinkToken(request), confirmed }, { headers: TOKEN_PAGE_HEADERS });
}

export async function action(args: ActionFunctionArgs) {
  const outcome = await submitForm(confirmFollow, args, { user: null });
  if (!outcome.ok) return outcome.response;
  return redirect("/follows/confirm?confirmed=1");
}

export default function ConfirmFollow() {
  const { token, confirmed } = useLoaderData<typeof loader>();
  const failed = useActionData<typeof action>();
  return (
    <BrandCardPage title="Confirm your follow">
      {confirmed ? (
        <StepOutcome testId="follow-confirmed">{FOLLOW_CONFIRMED}</StepOutcome>
      ) : (
        <TokenConfirmation
          valid={token !== ""}
          token={token}
          message={INVALID_FOLLOW_LINK}
          invalidTestId="follow-link-invalid"
          errors={replyErrorLines(failed?.error)}
          formClassName="mt-6"
          buttonClassName="btn-primary w-full"
          buttonTestId="confirm-follow"
          label="Confirm"
          pendingLabel="Confirming..."
        >
          <p className="mt-2 text-sm text-slate-600">
            Press the button to follow this creator: you get at most one email a day, when they list
            new images.
          </p>
        </TokenConfirmation>
      )}
    </BrandCardPage>
  );
}

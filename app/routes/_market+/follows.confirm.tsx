import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { replyErrorLines } from "~/ui/form-field";
import { ConfirmByLinkPage } from "~/ui/confirm-by-link-page";
import { PRODUCT_NAME } from "~/lib/product";
import { FOLLOW_CONFIRMED, INVALID_FOLLOW_LINK } from "~/features/market/follows/follow-types";
import { confirmFollow } from "~/features/market/follows/procedures.server";
import { submitForm } from "~/web/screen-action.server";
import { confirmByLinkPageData, TOKEN_PAGE_HEADERS } from "~/web/mailed-link.server";

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
  return confirmByLinkPageData(request);
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
    <ConfirmByLinkPage
      title="Confirm your follow"
      token={token}
      confirmed={confirmed}
      errors={replyErrorLines(failed?.error)}
      outcome={FOLLOW_CONFIRMED}
      outcomeTestId="follow-confirmed"
      invalidMessage={INVALID_FOLLOW_LINK}
      invalidTestId="follow-link-invalid"
      buttonTestId="confirm-follow"
      label="Confirm"
    >
      Press the button to follow this creator: you get at most one email a day, when they list new
      images.
    </ConfirmByLinkPage>
  );
}

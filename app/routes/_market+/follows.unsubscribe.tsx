import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { BrandCardPage } from "~/ui/brand-card-page";
import { PRODUCT_NAME } from "~/lib/product";
import { StepOutcome } from "~/ui/step-outcome";
import { FOLLOW_ENDED, INVALID_FOLLOW_LINK } from "~/features/market/follows/follow-types";
import { unfollow } from "~/features/market/follows/procedures.server";
import { screenCall } from "~/web/screen-action.server";
import { mailedLinkToken, TOKEN_PAGE_HEADERS } from "~/web/mailed-link.server";

export const meta: MetaFunction = () => [
  { title: `Unfollow | ${PRODUCT_NAME}` },
  { name: "robots", content: "noindex" },
];

export const headers = () => TOKEN_PAGE_HEADERS;

/**
 * /follows/unsubscribe?token=…: the List-Unsubscribe address of every mail of
 * a follow. A GET (a person's click, or a mail scanner) shows an Unfollow
 * button and changes nothing; a POST to it, the mail provider's one-click
 * (RFC 8058, `List-Unsubscribe=One-Click`, no other body needed) or the
 * button, ends the follow at once and deletes its address, answered 200 on
 * this page (never a redirect, as RFC 8058 asks).
 */
export function loader({ request }: LoaderFunctionArgs) {
  return json({ token: mailedLinkToken(request) }, { headers: TOKEN_PAGE_HEADERS });
}

export async function action(args: ActionFunctionArgs) {
  return screenCall(args, {
    procedure: unfollow,
    input: { token: mailedLinkToken(args.request) },
    user: null,
    onSuccess: () => json({ ended: true as const, message: null }, { headers: TOKEN_PAGE_HEADERS }),
    reply: (refusal) =>
      json({ ended: false as const, message: refusal.message }, { status: refusal.status }),
  });
}

export default function Unfollow() {
  const { token } = useLoaderData<typeof loader>();
  const done = useActionData<typeof action>();
  const pending = useNavigation().state !== "idle";
  return (
    <BrandCardPage title="Unfollow">
      {done && "ended" in done && done.ended ? (
        <StepOutcome testId="follow-ended">{FOLLOW_ENDED}</StepOutcome>
      ) : token === "" || (done && "message" in done && done.message) ? (
        <p role="alert" className="mt-4 text-sm text-red-800" data-testid="unfollow-invalid">
          {INVALID_FOLLOW_LINK}
        </p>
      ) : (
        <>
          <p className="mt-2 text-sm text-slate-600">
            Press the button to stop the emails of this follow and delete your address from it.
          </p>
          <Form
            method="post"
            action={`/follows/unsubscribe?token=${encodeURIComponent(token)}`}
            className="mt-6"
          >
            <button
              type="submit"
              className="btn-primary w-full"
              disabled={pending}
              data-testid="unfollow"
            >
              {pending ? "Unfollowing..." : "Unfollow"}
            </button>
          </Form>
        </>
      )}
    </BrandCardPage>
  );
}

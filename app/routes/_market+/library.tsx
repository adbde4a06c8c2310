import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { PRODUCT_NAME } from "~/lib/product";
import { styleName } from "~/lib/styles";
import { LibraryLinkForm } from "~/features/market/library/components/library-link-form";
import { RefundRequestPanel } from "~/features/market/orders/components/refund-request-form";
import {
  buyerLibrary,
  rateLibraryItem,
  requestLibraryLink,
} from "~/features/market/library/procedures.server";
import { RATING_TEXT_MAX } from "~/features/market/library/library-schema";
import { intent, loadProcedure, screenAction } from "~/web/screen-action.server";
import { forwardLoaderHeaders } from "~/web/route-headers.server";
import { libraryPageView } from "~/routes/_market+/library.server";
import { LinkLine } from "~/ui/link-line";
import { replyErrorLines } from "~/ui/form-field";
import { longDate } from "~/lib/dates";

export const meta: MetaFunction = () => [
  { title: `Your library | ${PRODUCT_NAME}` },
  { name: "robots", content: "noindex" },
];
export const headers = forwardLoaderHeaders;

/**
 * /library?token=...: every paid order of the email the link was sent to,
 * with a Download and a License link per item. Showing it spends no download.
 * Without a token, or with a bad or expired one, a form asks for a new link
 * by email (posting to this route's action).
 */
export async function loader(args: LoaderFunctionArgs) {
  const url = new URL(args.request.url);
  const token = url.searchParams.get("token") ?? "";
  const sent = url.searchParams.get("sent") === "1";
  const rated = url.searchParams.get("rated");
  const library = await loadProcedure(
    buyerLibrary,
    args,
    { token: token.slice(0, 1000) || undefined },
    null,
  );
  return json(libraryPageView(library, { token, rated, sent }), {
    headers: {
      "Cache-Control": "private, no-store",
      "X-Robots-Tag": "noindex",
      // The page's address holds the token: never send it to another site
      // (same-origin, not no-referrer, so its form still posts with its Origin).
      "Referrer-Policy": "same-origin",
    },
  });
}

/** The library link form (the same confirmation for every email), and the rating form of a purchased item. */
export async function action(args: ActionFunctionArgs) {
  const linkForm = intent({
    procedure: requestLibraryLink,
    reply: "form",
    onSuccess: () => redirect("/library?sent=1"),
  });
  return screenAction(args, {
    user: null,
    intents: {
      rate: intent({
        procedure: rateLibraryItem,
        reply: "form",
        onSuccess: ({ form }) => {
          const itemId = String(form.get("orderItemId"));
          const token = String(form.get("token"));
          return redirect(
            `/library?token=${encodeURIComponent(token)}&rated=${encodeURIComponent(itemId)}#rating-${itemId}`,
          );
        },
      }),
    },
    // The link form posts no intent.
    unknownIntent: linkForm,
  });
}

export default function LibraryPage() {
  const library = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  return (
    <div className="mx-auto max-w-3xl px-4 py-10" data-testid="library">
      <header className="border-b border-slate-200 pb-6">
        <p className="text-sm font-medium tracking-wide text-brand-700 uppercase">{PRODUCT_NAME}</p>
        <h1 className="mt-1 text-3xl font-bold text-slate-900">Your library</h1>
        {library.valid ? (
          <p className="mt-2 text-slate-600">
            Purchases of <span className="font-medium text-slate-900">{library.email}</span>.
            Opening this page does not use a download; this link works until{" "}
            {longDate(library.expiresAt)}.
          </p>
        ) : null}
      </header>
      {library.valid ? (
        <Orders
          orders={library.orders}
          ratings={library.ratings}
          token={library.token}
          rated={library.rated}
        />
      ) : (
        <section className="card mt-6 p-6" aria-labelledby="library-ask">
          <h2 id="library-ask" className="text-xl font-semibold text-slate-900">
            Get a link to your library
          </h2>
          {library.sent ? (
            <p
              role="status"
              className="mt-4 rounded-lg border border-emerald-200 bg-emerald-50 p-3 text-sm text-emerald-900"
              data-testid="library-link-sent"
            >
              {library.sentMessage}
            </p>
          ) : library.hadToken ? (
            <p
              role="alert"
              className="mt-4 rounded-lg border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900"
            >
              This library link is not valid or has expired. Ask for a new one below.
            </p>
          ) : null}
          <div className="mt-4">
            <LibraryLinkForm lastResult={lastResult} />
          </div>
        </section>
      )}
      <LinkLine to="/marketplace" className="mt-8 text-sm">
        Back to the marketplace
      </LinkLine>
    </div>
  );
}

type LibraryData = ReturnType<typeof useLoaderData<typeof loader>>;

function Orders({
  orders,
  ratings,
  token,
  rated,
}: {
  orders: LibraryData["orders"];
  ratings: LibraryData["ratings"];
  token: string;
  rated: string | null;
}) {
  if (orders.length === 0) {
    return <p className="mt-6 text-slate-600">No paid orders for this email yet.</p>;
  }
  return (
    <ol className="mt-6 space-y-6" data-testid="library-orders">
      {orders.map((order) => (
        <li
          key={order.orderId}
          id={`order-${order.orderId}`}
          className="card scroll-mt-24 p-6"
          data-testid="library-order"
        >
          <div className="flex flex-wrap items-baseline justify-between gap-2">
            <h2 className="text-lg font-semibold text-slate-900">{longDate(order.paidAt)}</h2>
            <p className="font-semibold">Total {order.total}</p>
          </div>
          <p className="text-sm text-slate-600">
            Order <code className="break-all text-xs">{order.orderId}</code>
            {order.testMode ? (
              <span className="ml-2 font-medium text-amber-800">
                TEST MODE: no payment was taken.
              </span>
            ) : null}
          </p>
          {order.refunded ? (
            <p
              className="mt-2 rounded-md bg-slate-100 px-3 py-2 text-sm font-medium text-slate-800"
              data-testid="library-order-refunded"
            >
              Refunded: this order&apos;s downloads and license ended with the refund.
            </p>
          ) : null}
          <RefundRequestPanel
            request={order.refundRequest}
            refundableUntil={order.refundableUntil}
            keyFields={{ intent: "library", token, orderId: order.orderId }}
            formId={`refund-${order.orderId}`}
          />
          <ul className="mt-3 divide-y divide-slate-200">
            {order.items.map((item) => (
              <li
                key={item.orderItemId}
                className="flex flex-wrap items-center justify-between gap-3 py-3"
                data-testid="library-item"
              >
                <div className="min-w-0">
                  <p className="truncate font-medium text-slate-900">{item.title}</p>
                  <p className="text-sm text-slate-600">
                    {styleName(item.style)} style · {item.price}
                    {item.downloadUrl
                      ? ` · ${item.downloadsLeft} downloads left until ${longDate(item.expiresAt)}`
                      : ""}
                  </p>
                  {!item.downloadUrl && item.renewableAt ? (
                    <p className="text-sm text-amber-800">
                      This item&apos;s downloads are used up for now; a fresh link appears here
                      after {longDate(item.renewableAt)}.
                    </p>
                  ) : null}
                </div>
                <div className="flex items-center gap-2">
                  <a href={item.licenseUrl} className="btn-ghost" data-testid="license-link">
                    License
                  </a>
                  {item.downloadUrl ? (
                    <a
                      href={item.downloadUrl}
                      className="btn-primary"
                      data-testid="download-link"
                      aria-label={`Download ${item.filename}`}
                    >
                      Download
                    </a>
                  ) : null}
                </div>
                {order.refunded ? null : (
                  <RatingForm
                    token={token}
                    orderItemId={item.orderItemId}
                    title={item.title}
                    current={ratings[item.orderItemId] ?? null}
                    saved={rated === item.orderItemId}
                  />
                )}
              </li>
            ))}
          </ul>
        </li>
      ))}
    </ol>
  );
}

/**
 * Rate a purchase: 1 to 5 stars and a few words, a plain form post (no
 * JavaScript needed). One rating per purchased item; saving again replaces it.
 */
function RatingForm({
  token,
  orderItemId,
  title,
  current,
  saved,
}: {
  token: string;
  orderItemId: string;
  title: string;
  current: { stars: number; text: string } | null;
  saved: boolean;
}) {
  const reply = useActionData<typeof action>();
  const navigation = useNavigation();
  const pending =
    navigation.state !== "idle" && navigation.formData?.get("orderItemId") === orderItemId;
  const mine =
    reply &&
    typeof reply === "object" &&
    "initialValue" in reply &&
    reply.initialValue?.orderItemId === orderItemId
      ? reply
      : null;
  const errors = replyErrorLines(mine?.error);
  const typed = typeof mine?.initialValue?.text === "string" ? mine.initialValue.text : null;
  return (
    <Form
      method="post"
      className="w-full rounded-lg bg-slate-50 p-3"
      id={`rating-${orderItemId}`}
      data-testid="rating-form"
      aria-label={`Rate ${title}`}
    >
      <input type="hidden" name="intent" value="rate" />
      <input type="hidden" name="token" value={token} />
      <input type="hidden" name="orderItemId" value={orderItemId} />
      <fieldset>
        <legend className="text-sm font-medium text-slate-900">
          {current ? `Your rating: ${current.stars} of 5 stars` : "Rate this purchase"}
        </legend>
        <div className="mt-1 flex flex-wrap gap-3">
          {[1, 2, 3, 4, 5].map((stars) => (
            <label key={stars} className="inline-flex items-center gap-1 text-sm text-slate-700">
              <input
                type="radio"
                name="stars"
                value={stars}
                defaultChecked={current?.stars === stars}
                required
                className="choice-input accent-amber-500"
              />
              <span aria-hidden="true" className="text-amber-500">
                {"★".repeat(stars)}
              </span>
              <span className="sr-only">
                {stars} {stars === 1 ? "star" : "stars"}
              </span>
            </label>
          ))}
        </div>
      </fieldset>
      <label className="mt-2 block text-sm text-slate-700" htmlFor={`rating-text-${orderItemId}`}>
        A few words (optional, up to {RATING_TEXT_MAX} characters)
      </label>
      <textarea
        id={`rating-text-${orderItemId}`}
        name="text"
        rows={2}
        maxLength={RATING_TEXT_MAX}
        defaultValue={typed ?? current?.text ?? ""}
        className="field-input mt-1 w-full"
      />
      {errors.length > 0 ? (
        <p role="alert" className="mt-1 text-sm text-red-700">
          {errors[0]}
        </p>
      ) : null}
      <div className="mt-2 flex items-center gap-3">
        <button type="submit" className="btn-secondary" disabled={pending}>
          {current ? "Update rating" : "Save rating"}
        </button>
        {saved ? (
          <p role="status" className="text-sm text-emerald-800" data-testid="rating-saved">
            Thank you: your rating is saved.
          </p>
        ) : null}
      </div>
    </Form>
  );
}

import type { FormEvent } from "react";
import { getFormProps, getSelectProps } from "@conform-to/react";
import type { FieldMetadata } from "@conform-to/react";
import { FieldErrorText, FormErrors, TextField } from "~/ui/form-field";
import { useToast } from "~/ui/toaster";
import { useHydrated } from "~/ui/use-hydrated";
import {
  CHECK_YOUR_DETAILS,
  CHECKOUT_FAILED,
  INVALID_EMAIL,
  MISSING_INFORMATION,
  checkoutRefusal,
} from "~/features/market/types";
import { formatMoney } from "~/lib/money";
import { countryChoices } from "~/lib/payout-countries";
import { useCurrency } from "~/ui/currency";
import { isSubmissionResult } from "~/ui/forms/fetcher-answers";
import { useFetcherForm } from "~/ui/forms/use-fetcher-form";
import {
  refundPolicyText,
  useRefundWindowDays,
} from "~/features/market/checkout/components/refund-policy";

/** The form's schema, loaded after the page rendered. */
const loadCheckoutFormSchema = () =>
  import("~/features/market/checkout/checkout-schema").then((m) => m.checkoutFormSchema);

/**
 * The checkout form: name and email required; company, country (where tax
 * is charged, when the store charges it) and a business's VAT number optional. It posts to /cart, which starts the checkout from the cart cookie
 * and redirects to the payment page. The same form is the dialog's body with
 * JavaScript and the /cart page's without.
 */
export function CheckoutForm({
  itemCount,
  totalCents,
  pageResult,
  onCancel,
}: {
  itemCount: number;
  totalCents: number;
  /** The action's answer when the form was posted without JavaScript. */
  pageResult?: unknown;
  onCancel?: () => void;
}) {
  const toast = useToast();
  const hydrated = useHydrated();
  const currency = useCurrency();
  const refundDays = useRefundWindowDays();
  const { fetcher, form, fields, pending } = useFetcherForm({
    id: "checkout",
    loadSchema: loadCheckoutFormSchema,
    pageResult,
    onAnswer: (answer) => {
      if (!isSubmissionResult(answer)) return;
      const formErrors = answer.error?.[""];
      if (formErrors?.length)
        return { kind: "error", title: CHECKOUT_FAILED.title, description: formErrors[0] };
      if (!answer.error || Object.keys(answer.error).length === 0) return;
      // A refused discount code, country or VAT number says what is wrong; a missing name or email, what is missing.
      const other = ["discountCode", "country", "vatNumber"].flatMap(
        (name) => answer.error?.[name] ?? [],
      );
      if (!answer.error.name?.length && !answer.error.email?.length && other.length)
        return { kind: "error", title: CHECK_YOUR_DETAILS.title, description: other[0] };
      return { kind: "error", ...checkoutRefusal(answer.error) };
    },
  });
  const formProps = getFormProps(form);
  const summary =
    fields.name.errors?.length || fields.email.errors?.length
      ? checkoutRefusal({ name: fields.name.errors, email: fields.email.errors })
      : null;
  // conform stops an invalid submit itself (and never calls useForm's onSubmit then): toast it here.
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    formProps.onSubmit(event);
    if (event.defaultPrevented) toast({ kind: "error", ...refusalOfForm(event.currentTarget) });
  };

  return (
    <fetcher.Form
      method="post"
      action="/cart"
      {...formProps}
      onSubmit={onSubmit}
      className="space-y-4"
      data-testid="checkout-form"
    >
      <input type="hidden" name="intent" value="checkout" />
      <FormErrors errors={form.errors} id={form.errorId} />
      {/* One summary beside the field errors: this box without JavaScript, the toast with it. */}
      {!hydrated && summary ? (
        <div
          role="alert"
          className="rounded-lg border border-red-200 bg-red-50 p-3 text-sm text-red-800"
          data-testid="missing-information"
        >
          <p className="font-semibold wrap-anywhere">{summary.title}</p>
          <p className="wrap-anywhere">{summary.description}</p>
        </div>
      ) : null}
      <TextField field={fields.name} label="Name" autoComplete="name" />
      <TextField field={fields.email} label="Email" type="email" autoComplete="email" />
      <TextField field={fields.company} label="Company (optional)" autoComplete="organization" />
      <CountrySelect field={fields.country} />
      <TextField
        field={fields.vatNumber}
        label="VAT number (EU or UK businesses, optional)"
        placeholder="DE123456789"
      />
      <TextField
        field={fields.discountCode}
        label="Discount code (optional)"
        placeholder="LAUNCH10"
        autoComplete="off"
      />
      <p className="text-sm text-slate-600">
        {itemCount} {itemCount === 1 ? "image" : "images"}. Total{" "}
        <strong className="text-slate-900">{formatMoney(totalCents, currency)}</strong> before any
        discount code or tax: the payment page shows both before you pay.
      </p>
      <p className="text-sm text-slate-600" data-testid="refund-policy">
        {refundPolicyText(refundDays)}: ask from your receipt or your library, with a reason.{" "}
        <a href="/terms#refunds" className="font-medium text-brand-700 underline">
          How refunds work
        </a>
      </p>
      <div className="flex flex-wrap justify-end gap-2">
        {onCancel ? (
          <button type="button" className="btn-secondary" onClick={onCancel}>
            Cancel
          </button>
        ) : null}
        <button type="submit" className="btn-primary" disabled={pending || itemCount === 0}>
          {pending ? "Redirecting to payment..." : "Proceed to Payment"}
        </button>
      </div>
    </fetcher.Form>
  );
}

/**
 * What a refused submit lacks, read from the form itself (the browser-side
 * check stops the submit before its errors reach this component): a missing
 * name or email, else an email that is not one.
 */
function refusalOfForm(form: HTMLFormElement): { title: string; description: string } {
  const data = new FormData(form);
  const filled = ["name", "email"].every((name) => String(data.get(name) ?? "").trim() !== "");
  return filled
    ? { title: CHECK_YOUR_DETAILS.title, description: INVALID_EMAIL }
    : MISSING_INFORMATION;
}

/** The buyer's country (optional): where tax is charged, when the store charges it. */
function CountrySelect({ field }: { field: FieldMetadata<string | undefined> }) {
  return (
    <div>
      <label htmlFor={field.id} className="field-label">
        Country (optional)
      </label>
      <select
        {...getSelectProps(field, { ariaAttributes: true })}
        key={field.key}
        autoComplete="country"
        className="field-input"
      >
        <option value="">Not given</option>
        {countryChoices().map(({ code, name }) => (
          <option key={code} value={code}>
            {name}
          </option>
        ))}
      </select>
      <FieldErrorText field={field} />
    </div>
  );
}

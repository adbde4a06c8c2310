import type { ReactNode } from "react";
import { BrandCardPage } from "~/ui/brand-card-page";
import { StepOutcome } from "~/ui/step-outcome";
import { TokenConfirmation } from "~/ui/token-confirmation";

/**
 * A public page a confirmation mail's link opens (a follow, a report): once
 * confirmed, the outcome; before, what confirming does and a one-button form
 * posting the link's token; with no token, why the link is no good.
 */
export function ConfirmByLinkPage({
  title,
  token,
  confirmed,
  errors,
  outcome,
  outcomeTestId,
  invalidMessage,
  invalidTestId,
  buttonTestId,
  label,
  children,
}: {
  title: string;
  token: string;
  confirmed: boolean;
  errors: string[] | undefined;
  /** What the confirmation did, shown after it. */
  outcome: ReactNode;
  outcomeTestId: string;
  invalidMessage: string;
  invalidTestId: string;
  buttonTestId: string;
  label: string;
  /** What confirming does, above the button. */
  children: ReactNode;
}) {
  return (
    <BrandCardPage title={title}>
      {confirmed ? (
        <StepOutcome testId={outcomeTestId}>{outcome}</StepOutcome>
      ) : (
        <TokenConfirmation
          valid={token !== ""}
          token={token}
          message={invalidMessage}
          invalidTestId={invalidTestId}
          errors={errors}
          formClassName="mt-6"
          buttonClassName="btn-primary w-full"
          buttonTestId={buttonTestId}
          label={label}
          pendingLabel="Confirming..."
        >
          <p className="mt-2 text-sm text-slate-600">{children}</p>
        </TokenConfirmation>
      )}
    </BrandCardPage>
  );
}

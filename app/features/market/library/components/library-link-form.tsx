import { useNavigation } from "@remix-run/react";
import type { SubmissionResult } from "@conform-to/react";
import { EmailField } from "~/ui/form-field";
import { useScreenForm } from "~/ui/forms/use-screen-form";
import { PostForm } from "~/ui/forms/post-form";

const loadSchema = () =>
  import("~/features/market/library/library-schema").then((m) => m.libraryLinkSchema);

/**
 * Ask for a link to the buyer's library by email: a plain form posting to
 * /library (works without JavaScript), which answers the same confirmation
 * for every email. Used on /library, the purchase-complete dialog and the
 * payment monitor.
 */
export function LibraryLinkForm({
  id = "library-link",
  lastResult,
  defaultEmail,
  intro = "Enter the email you bought with and we will send you a link to your library: every purchase with its Download and License links.",
}: {
  id?: string;
  lastResult?: SubmissionResult<string[]> | null;
  defaultEmail?: string | null;
  intro?: string;
}) {
  const navigation = useNavigation();
  const pending = navigation.state !== "idle" && navigation.formAction === "/library";
  const [form, fields] = useScreenForm({
    id,
    loadSchema,
    lastResult,
    defaultValue: defaultEmail ? { email: defaultEmail } : undefined,
  });
  return (
    <div data-testid="library-link-form">
      <p className="text-sm text-slate-600">{intro}</p>
      <PostForm form={form} action="/library" className="mt-3 space-y-3">
        <EmailField field={fields.email} />
        <button type="submit" className="btn-secondary" disabled={pending}>
          {pending ? "Sending..." : "Email me my library link"}
        </button>
      </PostForm>
    </div>
  );
}

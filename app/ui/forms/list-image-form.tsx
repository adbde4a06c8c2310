import type { ReactNode } from "react";
import type { FetcherWithComponents } from "@remix-run/react";
import type { FormMetadata } from "@conform-to/react";
import { PostForm } from "~/ui/forms/post-form";
import { useHydrated } from "~/ui/use-hydrated";

/**
 * The form that puts one image up for sale (the marketplace listing, the
 * list-for-sale form, the launch form): a real POST form to `action` with the
 * image's hidden inputs, then, once JavaScript runs, the `jsMarker` input
 * (value "1") that makes the action answer the fetcher with JSON instead of
 * redirecting, the form's errors, and the fields and buttons given as children.
 */
export function ListImageForm<Schema extends Record<string, unknown>>({
  fetcher,
  form,
  action,
  hidden,
  jsMarker,
  className,
  testId,
  children,
}: {
  fetcher: Pick<FetcherWithComponents<unknown>, "Form">;
  form: FormMetadata<Schema, string[]>;
  action: string;
  /** The hidden inputs, in order: name to value. */
  hidden: Record<string, string>;
  jsMarker: "_js" | "enhanced";
  className: string;
  testId: string;
  children: ReactNode;
}) {
  const hydrated = useHydrated();
  return (
    <PostForm
      fetcher={fetcher}
      form={form}
      action={action}
      hidden={hydrated ? { ...hidden, [jsMarker]: "1" } : hidden}
      className={className}
      testId={testId}
    >
      {children}
    </PostForm>
  );
}

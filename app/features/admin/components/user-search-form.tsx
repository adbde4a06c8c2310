import { Form, Link, useSubmit } from "@remix-run/react";
import { useEffect, useRef } from "react";

/**
 * 'Search users...': a GET form (?q=), so it works without JavaScript; with
 * JavaScript the table filters as you type.
 */
export function UserSearchForm({ q }: { q: string }) {
  const submit = useSubmit();
  const timer = useRef<number | undefined>(undefined);
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => () => window.clearTimeout(timer.current), []);
  // Keep the box in step with the URL (Clear, back button) unless the admin is typing in it.
  useEffect(() => {
    if (input.current && document.activeElement !== input.current) input.current.value = q;
  }, [q]);
  return (
    <Form
      method="get"
      action="/admin"
      role="search"
      aria-label="Search users"
      className="flex w-full gap-2 sm:w-auto"
      // A search sent now replaces the one waiting on the typing pause.
      onSubmit={() => window.clearTimeout(timer.current)}
    >
      <label htmlFor="admin-user-search" className="sr-only">
        Search users
      </label>
      <div className="relative flex-1 sm:w-72">
        <svg
          viewBox="0 0 20 20"
          className="pointer-events-none absolute top-1/2 left-3 h-4 w-4 -translate-y-1/2 text-slate-400"
          aria-hidden="true"
        >
          <path
            d="M9 15a6 6 0 100-12 6 6 0 000 12zm4.5-1.5L17 17"
            fill="none"
            stroke="currentColor"
            strokeWidth="1.8"
            strokeLinecap="round"
          />
        </svg>
        <input
          ref={input}
          id="admin-user-search"
          type="search"
          name="q"
          defaultValue={q}
          placeholder="Search users..."
          maxLength={200}
          autoComplete="off"
          className="field-input mt-0 pl-9"
          onChange={(event) => {
            const form = event.currentTarget.form;
            window.clearTimeout(timer.current);
            timer.current = window.setTimeout(
              () => submit(form, { replace: true, preventScrollReset: true }),
              300,
            );
          }}
        />
      </div>
      <button type="submit" className="btn-secondary">
        Search
      </button>
      {q ? (
        <Link to="/admin" className="btn-ghost" preventScrollReset>
          Clear
        </Link>
      ) : null}
    </Form>
  );
}

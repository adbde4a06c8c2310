import { Form, useSubmit } from "@remix-run/react";
import { STYLES } from "~/lib/styles";
import { MARKETPLACE_MAX_QUERY } from "~/features/market/types";

/**
 * The style filter and search box: a GET form, so it works without JavaScript
 * (Apply) and the URL says what is shown. With JavaScript a new style applies at once.
 */
export function MarketplaceFilters({
  style,
  q,
  action = "/marketplace",
}: {
  style: string;
  q: string;
  action?: string;
}) {
  const submit = useSubmit();
  return (
    <Form
      method="get"
      action={action}
      role="search"
      className="card flex flex-col gap-3 p-4 sm:flex-row sm:items-end"
    >
      <div className="sm:w-56">
        <label htmlFor="market-style" className="field-label">
          Style
        </label>
        <select
          id="market-style"
          name="style"
          defaultValue={style}
          className="field-input"
          onChange={(event) => submit(event.currentTarget.form, { preventScrollReset: true })}
        >
          <option value="">All styles</option>
          {STYLES.map((option) => (
            <option key={option.id} value={option.id}>
              {option.name}
            </option>
          ))}
        </select>
      </div>
      <div className="flex-1">
        <label htmlFor="market-search" className="field-label">
          Search
        </label>
        <input
          id="market-search"
          type="search"
          name="q"
          defaultValue={q}
          maxLength={MARKETPLACE_MAX_QUERY}
          placeholder="Search titles, descriptions and tags"
          className="field-input"
        />
      </div>
      <button type="submit" className="btn-primary">
        Apply
      </button>
    </Form>
  );
}

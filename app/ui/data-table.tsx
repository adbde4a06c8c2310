import type { ReactNode } from "react";
import { stackedTable as t } from "~/ui/stacked-table";

/** A column heading: its label, or its label set to the right (amounts, actions). */
export type HeaderColumn = string | { label: string; right: true };

/** A right-aligned column heading. */
export const right = (label: string): HeaderColumn => ({ label, right: true });

/** The header cells of a table: one `th scope="col"` a column, in the class given (plus text-right for a right column). */
export function HeaderCells({
  columns,
  className,
}: {
  columns: readonly HeaderColumn[];
  className: string;
}) {
  return (
    <>
      {columns.map((column) =>
        typeof column === "string" ? (
          <th key={column} scope="col" className={className}>
            {column}
          </th>
        ) : (
          <th key={column.label} scope="col" className={`${className} text-right`}>
            {column.label}
          </th>
        ),
      )}
    </>
  );
}

/** The heading class of a stacked table's columns. */
const STACKED_HEAD =
  "px-4 py-3 text-left text-xs font-semibold tracking-wide text-slate-600 uppercase";

/**
 * A table that stacks on phones (stackedTable's classes): a focusable region
 * named `label` that scrolls sideways, the table with its screen-reader
 * caption and its column headings, `children` as its body rows, and below it,
 * until the screen is wide enough (`hintUntil`), a hint that it scrolls.
 */
export function StackedTable({
  label,
  minWidth,
  caption,
  columns,
  regionClassName,
  testId,
  hintUntil,
  children,
}: {
  label: string;
  /** Its desktop minimum width, e.g. "sm:min-w-[56rem]". */
  minWidth: string;
  caption: ReactNode;
  columns: readonly HeaderColumn[];
  /** Classes the region adds to stackedTable's. */
  regionClassName?: string;
  testId?: string;
  hintUntil?: "lg" | "xl";
  children: ReactNode;
}) {
  return (
    <div
      className={regionClassName ? `${t.region} ${regionClassName}` : t.region}
      role="region"
      aria-label={label}
      tabIndex={0}
    >
      <table className={t.table(minWidth)} data-testid={testId}>
        <caption className="sr-only">{caption}</caption>
        <thead className={t.head}>
          <tr>
            <HeaderCells columns={columns} className={STACKED_HEAD} />
          </tr>
        </thead>
        <tbody className={t.body}>{children}</tbody>
      </table>
      {hintUntil ? (
        <p className={`${t.hint} ${hintUntil}:hidden`}>Scroll sideways to see every column.</p>
      ) : null}
    </div>
  );
}

/**
 * A plain table scrolling sideways when it is wider than the screen: its
 * column headings (in `headClassName`'s head) and `children` as its body rows.
 */
export function ScrollingTable({
  columns,
  headClassName,
  children,
}: {
  columns: readonly HeaderColumn[];
  headClassName: string;
  children: ReactNode;
}) {
  return (
    <div className="relative overflow-x-auto">
      <table className="min-w-full divide-y divide-slate-200 text-sm">
        <thead className={headClassName}>
          <tr>
            <HeaderCells className="px-5 py-3 font-medium" columns={columns} />
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">{children}</tbody>
      </table>
    </div>
  );
}

/**
 * A card of a page's sections named by its heading: the heading and what
 * `description` says of it above a rule, then `children`.
 */
export function SectionCard({
  id,
  headingId,
  heading,
  description,
  className = "card mt-8 overflow-hidden",
  testId,
  children,
}: {
  id?: string;
  headingId: string;
  heading: ReactNode;
  description: ReactNode;
  className?: string;
  testId?: string;
  children: ReactNode;
}) {
  return (
    <section id={id} aria-labelledby={headingId} className={className} data-testid={testId}>
      <div className="border-b border-slate-200 p-5">
        <h2 id={headingId} className="text-lg font-semibold text-slate-900">
          {heading}
        </h2>
        {description}
      </div>
      {children}
    </section>
  );
}

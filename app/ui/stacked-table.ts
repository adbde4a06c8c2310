/**
 * Class names for a table that stacks on phones: below `sm` every row is a
 * card and every cell a "Label: value" line (the label comes from the cell's
 * data-label), so no column (a status, an action) hides off-screen; from `sm`
 * it is an ordinary table again, scrolling sideways inside its region when it
 * is wider than the screen. One DOM for both, so it needs no JavaScript.
 */
export const stackedTable = {
  /** The scrolling region around the table (only scrolls from `sm`). */
  region: "sm:overflow-x-auto",
  /** The table; pass its desktop minimum width, e.g. "sm:min-w-[56rem]". */
  table: (minWidth: string) => `block w-full sm:table ${minWidth} sm:divide-y sm:divide-slate-200`,
  head: "sr-only sm:not-sr-only sm:table-header-group sm:bg-slate-50",
  body: "block divide-y divide-slate-200 bg-white sm:table-row-group sm:divide-slate-100",
  row: "block px-4 py-3 sm:table-row sm:p-0 sm:hover:bg-slate-50/70",
  /** A cell with its column's name in front on phones (set data-label). */
  cell: "flex min-w-0 items-start justify-between gap-4 py-1 text-sm text-slate-700 before:shrink-0 before:text-xs before:font-semibold before:tracking-wide before:text-slate-500 before:uppercase before:content-[attr(data-label)] sm:table-cell sm:px-4 sm:py-3 sm:before:content-none",
  /** The row's leading cell (the name), full width on phones, no label. */
  lead: "block min-w-0 pb-2 text-sm text-slate-700 sm:table-cell sm:px-4 sm:py-3 sm:pb-3",
  /** The actions cell: full width on phones, buttons to the left. */
  actions: "flex flex-wrap items-center gap-2 pt-2 text-sm sm:table-cell sm:px-4 sm:py-3",
  /** Below the table from `sm` until it fits: says it scrolls sideways. */
  hint: "hidden px-4 py-2 text-xs text-slate-500 sm:block",
} as const;

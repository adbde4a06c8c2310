import type { ReactNode } from "react";

export interface SalesTableRow {
  key: string;
  /** The row's heading cell: what was sold (a bundle's link, a code). */
  name: ReactNode;
  /** The figures, in the order of `columns` after the first, set right. */
  figures: ReactNode[];
}

/**
 * A card of the analytics page with a table of things sold in the range (bundles,
 * discount codes): a heading, a line saying what the figures are, and one row per
 * thing, its name first, then its figures, the last set flush right.
 */
export function SalesTableSection({
  id,
  title,
  note,
  testId,
  columns,
  rows,
  nameClassName,
}: {
  id: string;
  title: string;
  note: ReactNode;
  testId: string;
  /** The first names the rows' headings; the rest, the figures. */
  columns: string[];
  rows: SalesTableRow[];
  nameClassName: string;
}) {
  const last = columns.length - 1;
  return (
    <section className="card p-6" aria-labelledby={id}>
      <h2 id={id} className="text-xl font-semibold text-slate-900">
        {title}
      </h2>
      <p className="mt-1 text-sm text-slate-600">{note}</p>
      <div className="relative mt-3 overflow-x-auto">
        <table className="w-full whitespace-nowrap text-left text-sm" data-testid={testId}>
          <thead>
            <tr className="border-b border-slate-200 text-slate-600">
              {columns.map((column, index) => (
                <th
                  key={column}
                  scope="col"
                  className={`py-2 font-medium ${index === 0 ? "pr-4" : index === last ? "text-right" : "pr-4 text-right"}`}
                >
                  {column}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.key} className="border-b border-slate-100" data-row-key={row.key}>
                <th
                  scope="row"
                  className={`py-1.5 pr-4 font-normal text-slate-900 ${nameClassName}`}
                >
                  {row.name}
                </th>
                {row.figures.map((figure, index) => (
                  <td
                    key={columns[index + 1]}
                    className={`py-1.5 text-right tabular-nums ${index === row.figures.length - 1 ? "" : "pr-4"}`}
                  >
                    {figure}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

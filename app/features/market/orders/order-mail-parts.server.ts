import { escapeHtml } from "~/lib/html";
import { formatMoney } from "~/lib/money";
import { styleName } from "~/lib/styles";

/** What the market's messages about an order (receipt, sale notice, refund notice) say of an item it holds. */

/** An item in the plain-text part: "Title (Anime style)". */
export function itemText(item: { title: string; style: string }): string {
  return `${item.title} (${styleName(item.style)} style)`;
}

/** The same in the HTML part, escaped, its style in a quieter colour. */
export function itemHtml(item: { title: string; style: string }): string {
  return `${escapeHtml(item.title)} <span style="color:#475569">(${escapeHtml(styleName(item.style))} style)</span>`;
}

/** The cell a creator's message (sale notice, share reversed) shows for one of their items: the item above its sale reference. */
export function saleItemCellHtml(
  item: { title: string; style: string; saleReference: string },
  style: string,
): string {
  return (
    `<td style="${style}">${itemHtml(item)}` +
    `<br><span style="font-size:14px;color:#475569">Sale <span style="font-family:monospace">${escapeHtml(item.saleReference)}</span></span></td>`
  );
}

/**
 * The table of a creator's message about their items (a sale notice, a
 * share reversed): under `caption`, a row per item (the item and its sale
 * reference, then one amount per column) and a bold total row.
 */
export function saleItemsTableHtml<
  Item extends { title: string; style: string; saleReference: string },
>(table: {
  caption: string;
  items: readonly Item[];
  columns: readonly { heading: string; cents: (item: Item) => number }[];
  /** The total row's label, as HTML. */
  totalLabelHtml: string;
  totalCents: number;
}): string[] {
  const cell = "padding:8px 0;border-bottom:1px solid #e2e8f0";
  const span = table.columns.length > 1 ? ` colspan="${table.columns.length}"` : "";
  const rows = table.items
    .map(
      (item) =>
        `<tr>${saleItemCellHtml(item, cell)}` +
        table.columns
          .map(
            (column) =>
              `<td style="${cell};text-align:right">${escapeHtml(formatMoney(column.cents(item)))}</td>`,
          )
          .join("") +
        `</tr>`,
    )
    .join("\n");
  return [
    `<table style="width:100%;border-collapse:collapse">`,
    `<caption style="text-align:left;font-weight:bold;padding-bottom:8px">${table.caption}</caption>`,
    `<thead><tr><th scope="col" style="text-align:left;padding:8px 0;border-bottom:1px solid #e2e8f0">Item</th>` +
      table.columns
        .map(
          (column) =>
            `<th scope="col" style="text-align:right;padding:8px 0;border-bottom:1px solid #e2e8f0">${column.heading}</th>`,
        )
        .join("") +
      `</tr></thead>`,
    `<tbody>`,
    rows,
    `<tr><td style="padding:8px 0;font-weight:bold"${span}>${table.totalLabelHtml}</td>` +
      `<td style="padding:8px 0;text-align:right;font-weight:bold">${escapeHtml(formatMoney(table.totalCents))}</td></tr>`,
    `</tbody>`,
    `</table>`,
  ];
}

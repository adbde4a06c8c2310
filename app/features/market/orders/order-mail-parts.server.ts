import { escapeHtml } from "~/lib/html";
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

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

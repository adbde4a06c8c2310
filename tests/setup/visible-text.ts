/**
 * The text a sighted user sees on a control: its text without the visually
 * hidden parts (the `sr-only` spans that complete its accessible name). jsdom
 * has no stylesheet, so the class is what marks them.
 */
export function visibleText(element: Element): string {
  const copy = element.cloneNode(true) as Element;
  copy.querySelectorAll(".sr-only").forEach((hidden) => hidden.remove());
  return (copy.textContent ?? "").replace(/\s+/g, " ").trim();
}

/** Text made safe for HTML element content and attribute values (quoted with " or '). */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => HTML_ENTITIES[char]!);
}

const HTML_ENTITIES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

/**
 * A value as JSON to stand inside a `<script type="application/ld+json">`:
 * `<`, `>` and `&` (and the two line separators JavaScript once refused) are
 * written as \u escapes, which JSON reads back as the same characters, so no
 * text in it can close the script element ("</script>") or open a comment.
 */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value).replace(
    /[<>&\u2028\u2029]/g,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

/**
 * The Content-Disposition of a download (RFC 6266): `filename` with the name
 * in printable ASCII (anything else, and the `"` and `\` a quoted string would
 * take for its own, as `_`), and, when that lost something, `filename*` with
 * the whole name in UTF-8 as an RFC 8187 (formerly 5987) ext-value, which
 * clients that know it prefer (RFC 6266, Appendix D: filename* only where
 * filename cannot carry the name faithfully).
 */
export function attachmentDisposition(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]|["\\]/g, "_");
  const plain = `attachment; filename="${ascii}"`;
  return ascii === fileName ? plain : `${plain}; filename*=UTF-8''${extValueChars(fileName)}`;
}

/**
 * `text` percent-encoded as RFC 8187's value-chars: every byte that is not an
 * attr-char (ALPHA, DIGIT and `!#$&+-.^_\`|~`). encodeURIComponent leaves
 * `'()*` as they are, which are not attr-chars (`'` ends the charset and
 * language parts): they are encoded here too.
 */
export function extValueChars(text: string): string {
  return encodeURIComponent(text).replace(
    /['()*]/g,
    (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

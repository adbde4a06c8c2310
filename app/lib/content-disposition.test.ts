import { describe, expect, it } from "vitest";
import { attachmentDisposition, extValueChars } from "~/lib/content-disposition";

// RFC 8187, section 3.2.1: value-chars = *( pct-encoded / attr-char ).
const VALUE_CHARS = /^(?:%[0-9A-F]{2}|[A-Za-z0-9!#$&+\-.^_`|~])*$/;

describe("attachmentDisposition", () => {
  it("encodes ' ( ) and * in filename*, which encodeURIComponent leaves as they are", () => {
    const name = "Zoë's (best) *shot*.jpg";
    expect(attachmentDisposition(name)).toBe(
      `attachment; filename="Zo_'s (best) *shot*.jpg"; filename*=UTF-8''Zo%C3%AB%27s%20%28best%29%20%2Ashot%2A.jpg`,
    );
    expect(extValueChars(name)).toMatch(VALUE_CHARS);
    expect(decodeURIComponent(extValueChars(name))).toBe(name);
  });

  it('adds filename* only when filename lost something: a non-ASCII character, a " or a \\', () => {
    const name = 'Ana "Ünïcode" \\ 東京.png';
    expect(attachmentDisposition(name)).toBe(
      `attachment; filename="Ana __n_code_ _ __.png"; filename*=UTF-8''${encodeURIComponent(name)}`,
    );
    expect(extValueChars(name)).toMatch(VALUE_CHARS);
    expect(attachmentDisposition("sunset-portrait-anime.jpg")).toBe(
      'attachment; filename="sunset-portrait-anime.jpg"',
    );
    expect(attachmentDisposition("Ana's (best) kit.zip")).toBe(
      `attachment; filename="Ana's (best) kit.zip"`,
    );
  });
});

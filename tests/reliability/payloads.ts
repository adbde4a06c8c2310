/**
 * Hostile and malformed values for the bad-input corpus (bad-input-corpus.test.ts).
 */

/** Past the 1 MB JSON body limit on its own. */
export const HUGE = "x".repeat(1_100_000);
/** Long, but a body carrying it stays under the JSON limit. */
export const LONG = "y".repeat(20_000);
export const SQL = "' OR 1=1 --";
export const SQL_DROP = "x'); DROP TABLE users; --";
export const SCRIPT = "<script>alert(1)</script>";
export const IMG_XSS = '"><img src=x onerror=alert(document.cookie)>';
export const NUL = "a\u0000b";
export const LONE_SURROGATE = "\ud800";

/** Values of the wrong JSON type for any field. */
export const WRONG_TYPES: unknown[] = [null, true, 42, -1, [], {}, ["nested"], { $gt: "" }];
/** Numbers no field should take. */
export const ABSURD_NUMBERS: unknown[] = [
  -1,
  -0.5,
  0,
  1e308,
  -1e308,
  1.5e300,
  "NaN",
  "Infinity",
  "-Infinity",
  "1e308",
  "abc",
  "",
  "12abc",
];
/** Text that is also an attack on something else: fine as text, harmful if interpreted. */
export const HOSTILE_TEXT = [SQL, SQL_DROP, SCRIPT, IMG_XSS];

/** Bodies that are not JSON at all, or JSON that is not an object. */
export const MALFORMED_JSON = [
  "{",
  '{"a":1,}',
  "nul",
  "{'a': 1}",
  '{"a":1}{"b":2}',
  '{"a": undefined}',
  "\uFEFF{}x",
  `${"[".repeat(200_000)}${"]".repeat(200_000)}`,
  `{"a":${"[".repeat(200_000)}`,
];
export const WRONG_SHAPES = ["[]", "null", '"a string"', "42", "true", "[{}]"];

/** Ids that do not exist, or try to be something other than an id. */
export const BOGUS_IDS = [
  "no-such-id",
  SQL,
  "../../etc/passwd",
  "..%2F..%2Fapp-secret",
  "%00",
  SCRIPT,
  "9".repeat(10_000),
  "🙂",
  " ",
];

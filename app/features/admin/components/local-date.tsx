import { useEffect, useState } from "react";

function parse(iso: string | null | undefined): Date | null {
  if (!iso) return null;
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? null : date;
}

/**
 * A date in the reader's locale, or "N/A" when there is none. The
 * server and the first client render use en-US in UTC, so hydration matches;
 * once hydrated the browser's own locale and time zone take over.
 */
export function LocalDate({ iso }: { iso: string | null | undefined }) {
  const [text, setText] = useState(
    () => parse(iso)?.toLocaleDateString("en-US", { timeZone: "UTC" }) ?? "N/A",
  );
  useEffect(() => {
    setText(parse(iso)?.toLocaleDateString() ?? "N/A");
  }, [iso]);
  return parse(iso) ? <time dateTime={iso!}>{text}</time> : <span>N/A</span>;
}

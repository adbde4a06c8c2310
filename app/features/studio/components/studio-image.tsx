import { useState } from "react";

const PLACEHOLDER =
  "data:image/svg+xml;utf8," +
  encodeURIComponent(
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 4 3"><rect width="4" height="3" fill="#e2e8f0"/><path d="M1 2.2 1.7 1.4l.6.6.5-.4.7.6" fill="none" stroke="#94a3b8" stroke-width=".12"/></svg>',
  );

/**
 * A studio picture that falls back to the original image, then to a
 * placeholder, when it cannot be loaded (e.g. an expired link).
 */
export function StudioImage({
  src,
  fallbackSrc,
  alt,
  className,
}: {
  src: string | null;
  fallbackSrc?: string | null;
  alt: string;
  className?: string;
}) {
  const candidates = [src, fallbackSrc, PLACEHOLDER].filter((value): value is string => Boolean(value));
  const [index, setIndex] = useState(0);
  return (
    <img
      src={candidates[Math.min(index, candidates.length - 1)]}
      alt={alt}
      loading="lazy"
      className={className}
      onError={() => setIndex((current) => Math.min(current + 1, candidates.length - 1))}
    />
  );
}

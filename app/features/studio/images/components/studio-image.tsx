import { useState } from "react";
import { ResponsivePicture } from "~/ui/responsive-picture";

const PLACEHOLDER =
  "data:image/svg+xml;utf8," +
  encodeURIComponent(
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 4 3"><rect width="4" height="3" fill="#e2e8f0"/><path d="M1 2.2 1.7 1.4l.6.6.5-.4.7.6" fill="none" stroke="#94a3b8" stroke-width=".12"/></svg>',
  );

/**
 * A studio picture that falls back to the original image, then to a
 * placeholder, when it cannot be loaded (e.g. an expired link). Given the
 * `sizes` it is shown at (a thumbnail), the first choice is a `<picture>` of
 * AVIF/WebP/JPEG copies at a few widths (app/ui/responsive-picture.tsx); the
 * fallbacks (the image itself, the original, the placeholder) are plain images.
 */
export function StudioImage({
  src,
  fallbackSrc,
  alt,
  className,
  sizes,
  width,
  height,
}: {
  src: string | null;
  fallbackSrc?: string | null;
  alt: string;
  className?: string;
  /** How wide the layout shows it: makes it a responsive `<picture>`. */
  sizes?: string;
  /** The image's own size in pixels, when known (its box's shape, and the widest candidate). */
  width?: number | null;
  height?: number | null;
}) {
  // Given sizes, the first try is the <picture>; if it fails, the image itself as a plain <img>, then the fallbacks.
  const responsive = Boolean(sizes && src);
  const candidates = [responsive ? src : null, src, fallbackSrc, PLACEHOLDER].filter(
    (value): value is string => Boolean(value),
  );
  const [index, setIndex] = useState(0);
  const onError = () => setIndex((current) => Math.min(current + 1, candidates.length - 1));
  if (responsive && src && index === 0) {
    return (
      <ResponsivePicture
        src={src}
        sourceWidth={width}
        sizes={sizes ?? "100vw"}
        width={width || 640}
        height={(width && height) || 640}
        alt={alt}
        className={className}
        onError={onError}
      />
    );
  }
  return (
    <img
      src={candidates[Math.min(index, candidates.length - 1)]}
      alt={alt}
      loading="lazy"
      className={className}
      onError={onError}
    />
  );
}

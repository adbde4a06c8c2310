import type { ReactEventHandler } from "react";
import { variantSrcSet } from "~/lib/image-variants";

/**
 * A stored image as `<picture>`: AVIF, then WebP, then a JPEG `<img>` for
 * browsers that read neither, each with a `srcset` of widths the server makes
 * once and keeps (app/lib/image-variants.ts) and the `sizes` the layout
 * renders it at, so a phone fetches a phone-sized file. `width` and `height`
 * give the box its shape before the bytes arrive, so nothing shifts.
 */
export function ResponsivePicture({
  src,
  sourceWidth,
  sizes,
  width,
  height,
  alt,
  className,
  loading = "lazy",
  highPriority = false,
  onError,
}: {
  /** The stored image's URL (public or signed): the variants' URLs are made from it. */
  src: string;
  /** The stored image's own width in pixels, when known: no candidate is wider. */
  sourceWidth?: number | null;
  /** How wide the layout shows the image, as the `sizes` attribute. */
  sizes: string;
  width: number;
  height: number;
  alt: string;
  className?: string;
  loading?: "eager" | "lazy";
  /** The first screen's largest image: fetched first (`fetchpriority="high"`). */
  highPriority?: boolean;
  onError?: ReactEventHandler<HTMLImageElement>;
}) {
  return (
    <picture>
      <source type="image/avif" srcSet={variantSrcSet(src, "avif", sourceWidth)} sizes={sizes} />
      <source type="image/webp" srcSet={variantSrcSet(src, "webp", sourceWidth)} sizes={sizes} />
      <img
        src={src}
        srcSet={variantSrcSet(src, "jpg", sourceWidth)}
        sizes={sizes}
        width={width}
        height={height}
        alt={alt}
        className={className}
        loading={loading}
        decoding="async"
        // React 18 does not know the camel-cased prop yet: the attribute as HTML spells it.
        {...(highPriority ? { fetchpriority: "high" } : {})}
        onError={onError}
      />
    </picture>
  );
}

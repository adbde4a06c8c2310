import { formatDimensions, formatPixelSize } from "~/lib/sale-size";

export { formatPixelSize };

/**
 * The pixel size of the file a buyer gets, e.g. "2,048 × 2,560 px (5.2 MP)",
 * shown on the marketplace card, in the cart and on the checkout page.
 * Nothing when the size is not known.
 */
export function PixelSize({
  width,
  height,
  className = "text-xs text-slate-500",
}: {
  width?: number | null;
  height?: number | null;
  className?: string;
}) {
  if (!width || !height) return null;
  return (
    <span
      className={className}
      data-testid="pixel-size"
      title="The full-resolution file's size in pixels (width × height) and megapixels"
    >
      {formatPixelSize(width, height)}
    </span>
  );
}

/**
 * The listing page's statement of the file a buyer gets: its pixel size and
 * megapixels, and, when it was upscaled to that size, how and from what
 * (docs/decisions/092), in the same words as the file's own metadata.
 */
export function SaleFileSize({
  width,
  height,
  upscaling,
}: {
  width: number;
  height: number;
  upscaling: { label: string; from: { width: number; height: number } | null } | null;
}) {
  return (
    <>
      <span data-testid="sale-file-size">{formatPixelSize(width, height)}</span>
      {upscaling ? (
        <span className="block text-xs text-slate-500" data-testid="sale-file-upscaling">
          {upscaling.label.charAt(0).toUpperCase() + upscaling.label.slice(1)}
          {upscaling.from
            ? ` from ${formatDimensions(upscaling.from.width, upscaling.from.height)}`
            : ""}
          .
        </span>
      ) : null}
    </>
  );
}

/**
 * The pixel size of the file a buyer gets, e.g. "2048 × 2560 px", shown on the
 * marketplace card, in the cart and on the checkout page. Nothing when the
 * size is not known.
 */
export function formatPixelSize(width: number, height: number): string {
  return `${width} × ${height} px`;
}

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
      title="The full-resolution file's size in pixels (width × height)"
    >
      {formatPixelSize(width, height)}
    </span>
  );
}

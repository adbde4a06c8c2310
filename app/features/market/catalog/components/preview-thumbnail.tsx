import { ResponsivePicture } from "~/ui/responsive-picture";

/** The square sizes a thumbnail is drawn at, in CSS pixels, with their Tailwind box. */
const BOXES = { 48: "h-12 w-12", 64: "h-16 w-16" } as const;

/**
 * A listing's preview as a small square beside its cart line: drawn from the
 * smallest variants that fill `size` CSS pixels, not the full preview.
 */
export function PreviewThumbnail({ src, size }: { src: string; size: keyof typeof BOXES }) {
  return (
    <ResponsivePicture
      src={src}
      sizes={`${size}px`}
      width={size}
      height={size}
      alt=""
      className={`${BOXES[size]} shrink-0 rounded-md object-cover`}
    />
  );
}

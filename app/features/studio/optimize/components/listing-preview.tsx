import { styleName } from "~/lib/styles";
import { StudioImage } from "~/features/studio/images/components/studio-image";

/**
 * The image a launch or sell form puts on the market, above the form on its
 * own page (/studio/launch, /studio/list): whole (object-contain), bounded height.
 */
export function ListingPreview({ src, style }: { src: string | null; style: string }) {
  if (!src) return null;
  return (
    <StudioImage
      src={src}
      alt={`Your ${styleName(style)} image`}
      className="mx-auto mb-6 block max-h-72 w-auto max-w-full rounded-xl bg-slate-100 object-contain"
    />
  );
}

import { findPlatform } from "~/features/publishing/platforms";

/**
 * A platform's monogram on a tint of its colour (decorative: the name is always
 * written beside it). Letters, not the registry's emoji, so it renders the same
 * on machines without an emoji font.
 */
export function PlatformBadge({
  platformId,
  size = "md",
}: {
  platformId: string;
  size?: "sm" | "md";
}) {
  const platform = findPlatform(platformId);
  const box = size === "sm" ? "h-7 w-7 text-sm" : "h-10 w-10 text-xl";
  return (
    <span
      aria-hidden="true"
      className={`inline-flex shrink-0 items-center justify-center rounded-lg font-bold ${box}`}
      style={{
        color: platform?.color ?? "#64748b",
        backgroundColor: `${platform?.color ?? "#64748b"}22`,
        boxShadow: `inset 0 0 0 1px ${platform?.color ?? "#64748b"}55`,
      }}
    >
      {platform?.name.charAt(0) ?? "•"}
    </span>
  );
}

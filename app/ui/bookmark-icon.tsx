import { LineIcon } from "~/ui/line-icon";

/** A bookmark: a listing kept for later (the header's Saved link, the Save buttons). */
export function BookmarkIcon({
  className = "h-5 w-5",
  filled = false,
}: {
  className?: string;
  /** Filled in: the listing is saved. */
  filled?: boolean;
}) {
  return (
    <LineIcon className={className}>
      <path
        d="M5.5 3.5h9v13L10 13l-4.5 3.5z"
        strokeLinejoin="round"
        fill={filled ? "currentColor" : "none"}
      />
    </LineIcon>
  );
}

/** A user's picture, or the default placeholder (initials on a tint) when there is none. */
export function Avatar({
  src,
  name,
  size = "h-8 w-8",
}: {
  src: string | null | undefined;
  name: string;
  size?: string;
}) {
  if (src) {
    return <img src={src} alt="" className={`${size} rounded-full object-cover`} />;
  }
  const initials =
    name
      .split(/[\s@]+/)
      .filter(Boolean)
      .slice(0, 2)
      .map((part) => part[0]!.toUpperCase())
      .join("") || "?";
  return (
    <span
      aria-hidden="true"
      data-testid="avatar-placeholder"
      className={`${size} inline-flex shrink-0 items-center justify-center rounded-full bg-brand-100 text-xs font-semibold text-brand-700`}
    >
      {initials}
    </span>
  );
}

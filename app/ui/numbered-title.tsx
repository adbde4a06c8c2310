/**
 * A numbered card's heading (the creator guide's steps, the training tips): the number in a
 * brand-coloured circle, hidden from screen readers since the list numbers the items, then the h2.
 */
export function NumberedTitle({
  number,
  title,
  keepBadgeWidth = false,
}: {
  number: number;
  title: string;
  /** The circle keeps its width when a long title wraps. */
  keepBadgeWidth?: boolean;
}) {
  return (
    <div className="flex items-center gap-3">
      <span
        className={`inline-flex h-8 w-8 ${keepBadgeWidth ? "shrink-0 " : ""}items-center justify-center rounded-full bg-brand-600 text-sm font-bold text-white`}
        aria-hidden="true"
      >
        {number}
      </span>
      <h2 className="text-lg font-semibold text-slate-900">{title}</h2>
    </div>
  );
}

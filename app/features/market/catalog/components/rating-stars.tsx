/** Five stars filled to a rating (the buyers' average, or the illustrative one), with the number for screen readers and sighted users. */
export function RatingStars({ rating }: { rating: number }) {
  const percent = Math.max(0, Math.min(100, (rating / 5) * 100));
  return (
    <span className="inline-flex items-center gap-1 text-xs text-slate-600" data-testid="rating">
      <span className="relative inline-block leading-none whitespace-nowrap" aria-hidden="true">
        <span className="text-slate-300">★★★★★</span>
        <span
          className="absolute inset-0 overflow-hidden text-amber-400"
          style={{ width: `${percent}%` }}
        >
          ★★★★★
        </span>
      </span>
      <span>
        <span className="sr-only">Rated </span>
        {rating.toFixed(1)}
        <span className="sr-only"> out of 5</span>
      </span>
    </span>
  );
}

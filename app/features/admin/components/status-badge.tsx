/** A user's status: Banned or Active. */
export function StatusBadge({ banned }: { banned: boolean }) {
  return banned ? (
    <span className="inline-flex items-center gap-1 rounded-full bg-red-100 px-2.5 py-0.5 text-xs font-semibold text-red-800">
      <span aria-hidden="true" className="h-1.5 w-1.5 rounded-full bg-red-600" />
      Banned
    </span>
  ) : (
    <span className="inline-flex items-center gap-1 rounded-full bg-emerald-100 px-2.5 py-0.5 text-xs font-semibold text-emerald-800">
      <span aria-hidden="true" className="h-1.5 w-1.5 rounded-full bg-emerald-600" />
      Active
    </span>
  );
}

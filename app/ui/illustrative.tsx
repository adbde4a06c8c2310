/**
 * The label beside a figure that is not a fact (a marketing claim, an
 * estimate): readable, next to the figure, never small print. `what` says
 * what kind of figure it is for screen readers and the title.
 */
export function Illustrative({
  tone = "light",
  text = "Illustrative",
}: {
  tone?: "light" | "dark";
  text?: string;
}) {
  const colours =
    tone === "dark"
      ? "bg-white/15 text-white ring-white/30"
      : "bg-amber-50 text-amber-900 ring-amber-200";
  return (
    <span
      className={`ml-2 inline-flex items-center rounded-full px-2 py-0.5 align-middle text-xs font-semibold tracking-normal normal-case ring-1 ${colours}`}
      data-testid="illustrative"
    >
      {text}
    </span>
  );
}

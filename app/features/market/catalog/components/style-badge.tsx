import { styleName } from "~/lib/styles";

const COLOURS: Record<string, string> = {
  professional: "bg-sky-100 text-sky-800",
  cartoon: "bg-amber-100 text-amber-800",
  anime: "bg-pink-100 text-pink-800",
  fantasy: "bg-violet-100 text-violet-800",
};

export function StyleBadge({ style }: { style: string }) {
  return (
    <span
      className={`inline-flex shrink-0 whitespace-nowrap rounded-full px-2 py-0.5 text-xs font-medium ${COLOURS[style] ?? "bg-slate-100 text-slate-700"}`}
      data-testid="style-badge"
    >
      {styleName(style)}
    </span>
  );
}

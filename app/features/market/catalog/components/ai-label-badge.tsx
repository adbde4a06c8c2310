import { AI_LABEL_MEANING, type AiLabel } from "~/lib/ai-label";

/** How the image was made, as visible text ("AI-generated" or "AI-edited"), with what that means as its title. */
export function AiLabelBadge({ label }: { label: AiLabel }) {
  return (
    <span
      className="inline-flex rounded-full border border-slate-300 px-2 py-0.5 text-xs font-medium whitespace-nowrap text-slate-700"
      title={AI_LABEL_MEANING[label]}
      data-testid="ai-label"
    >
      {label}
    </span>
  );
}

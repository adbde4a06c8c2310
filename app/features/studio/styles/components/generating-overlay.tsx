import { GENERATING_PROGRESS, styleName } from "~/lib/styles";
import { Spinner } from "~/ui/navigation-progress";

/**
 * How long a style usually takes, by engine: fal.ai's models take half a
 * minute or more; the local engine makes a style of a phone-sized photo in
 * about a second of CPU (scripts/bench: at most 1.5 s at 1024 px), and works
 * at the upload's own size up to 4096 px, where a 12 MP photo takes 3 to 5 s
 * of CPU (10 to 30 s on a busy two-core machine).
 */
export const TYPICAL_STYLE_TIME = {
  local: "This usually takes a few seconds, up to half a minute for a large photo.",
  fal: "This usually takes 30 to 60 seconds.",
} as const;

/** The progress overlay while a style is made (its progress is fixed at 33). */
export function GeneratingOverlay({
  style,
  engine = "local",
}: {
  style: string;
  engine?: keyof typeof TYPICAL_STYLE_TIME;
}) {
  return (
    <div
      role="status"
      aria-live="polite"
      data-testid="generating-overlay"
      className="absolute inset-0 z-10 flex flex-col items-center justify-center gap-4 rounded-2xl bg-white/90 p-6 text-center backdrop-blur-sm"
    >
      <Spinner className="h-10 w-10" />
      <p className="text-lg font-semibold text-slate-900">
        Generating your {styleName(style)} style…
      </p>
      <div
        role="progressbar"
        aria-label="Generation progress"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={GENERATING_PROGRESS}
        className="h-2 w-64 max-w-full overflow-hidden rounded-full bg-brand-100"
      >
        <div
          className="h-full rounded-full bg-brand-600"
          style={{ width: `${GENERATING_PROGRESS}%` }}
        />
      </div>
      <p className="text-sm text-slate-600">{TYPICAL_STYLE_TIME[engine]}</p>
    </div>
  );
}

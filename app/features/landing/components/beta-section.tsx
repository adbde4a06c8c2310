import { WAITLIST_HREF } from "~/lib/accounts";
import { Illustrative } from "~/ui/illustrative";
import type { BetaFigures } from "~/features/landing/components/beta-counters";
import {
  closedUntilYear,
  formatCountdown,
  splitCountdown,
  useBetaCounters,
} from "~/features/landing/components/beta-counters";
import { LineIcon } from "~/ui/line-icon";
import { useDemoFigures } from "~/ui/demo-figures";

const NO_FIGURES: BetaFigures = { spots: null, endsAt: null };

function longDate(iso: string): string {
  return new Date(iso).toLocaleDateString("en-US", {
    year: "numeric",
    month: "long",
    day: "numeric",
    timeZone: "UTC",
  });
}

/**
 * 5. Beta countdown with spots remaining. The server renders the figures at
 * the time it rendered (so they show without JavaScript); in the browser the
 * countdown follows the clock. With DEMO_FIGURES on, the spec's figures show
 * where no real one is set, each labelled illustrative beside it; off, only
 * real ones: the spots left (BETA_SPOTS) and a countdown only to BETA_ENDS_AT.
 */
export function BetaSection({
  random,
  registrationOpen = false,
  figures = NO_FIGURES,
  renderedAt,
  demo,
}: {
  random?: () => number;
  registrationOpen?: boolean;
  figures?: BetaFigures;
  /** When the server rendered the page (ISO): where the counters start. */
  renderedAt: string;
  /** DEMO_FIGURES (the root's setting unless given). */
  demo?: boolean;
}) {
  const demoSetting = useDemoFigures();
  const demoFigures = demo ?? demoSetting;
  const { hasCountdown, secondsLeft, spots } = useBetaCounters({
    figures,
    renderedAt,
    random,
    demo: demoFigures,
  });
  const spotsTotal = spots?.total ?? 0;
  const spotsLeft = spots?.left ?? 0;
  const spotsAreReal = spots?.real ?? false;
  const taken = spotsTotal - spotsLeft;
  // A deadline is claimed only when there is one (BETA_ENDS_AT) or the demo shows the spec's.
  const deadlineClaimed = Boolean(figures.endsAt) || demoFigures;
  const { days, hh, mm, ss } = splitCountdown(secondsLeft);
  const pad = (n: number) => String(n).padStart(2, "0");
  // Each box's label, and its short form for a phone's narrow row (the boxes are hidden from screen readers, which read the label above).
  const boxes: [string, string, string][] = [
    ...(days > 0 ? ([[String(days), "Days", "Days"]] as [string, string, string][]) : []),
    [pad(hh), "Hours", "Hrs"],
    [pad(mm), "Minutes", "Min"],
    [pad(ss), "Seconds", "Sec"],
  ];
  const closedUntil = deadlineClaimed
    ? closedUntilYear(figures.endsAt, new Date(renderedAt))
    : null;
  return (
    <section
      aria-labelledby="beta-heading"
      className="bg-slate-950 py-20 text-white"
      data-testid="landing-beta"
    >
      <div className="mx-auto max-w-4xl px-4 text-center">
        <p className="inline-flex items-center gap-2 rounded-full bg-white/10 px-4 py-1.5 text-sm font-semibold text-pink-200">
          <LineIcon className="h-4 w-4">
            <circle cx="10" cy="11" r="7" />
            <path d="M10 7.5V11l2.5 1.5M8 2h4" strokeLinecap="round" />
          </LineIcon>
          Limited beta
        </p>
        <h2 id="beta-heading" className="mt-5 text-3xl font-extrabold tracking-tight sm:text-4xl">
          {deadlineClaimed ? "Beta access closes soon" : "Join the beta"}
        </h2>
        <p className="mx-auto mt-3 max-w-2xl text-slate-300">
          {spots
            ? `Claim one of ${spotsTotal} free beta spots and keep 85% of everything you earn.`
            : "Claim a free beta spot and keep 85% of everything you earn."}{" "}
          <span data-testid="beta-registration">
            {registrationOpen
              ? "Registration is open: create your account today."
              : closedUntil
                ? `Public registration is closed until ${closedUntil}: join the waitlist for an invitation.`
                : "Public registration is closed: join the waitlist for an invitation."}
          </span>
        </p>

        <div className="mt-10 flex flex-col items-center gap-8 sm:flex-row sm:justify-center sm:gap-12">
          {hasCountdown ? (
            <div>
              <p className="text-sm font-medium tracking-wide text-slate-400 uppercase">
                {figures.endsAt ? "Beta ends in" : "Offer ends in"}
                {figures.endsAt ? null : <Illustrative tone="dark" />}
              </p>
              <div
                role="timer"
                aria-label={`${figures.endsAt ? "Beta ends" : "Offer ends (illustrative)"} in ${days > 0 ? `${days} days ` : ""}${hh} hours ${mm} minutes ${ss} seconds`}
                className="mt-2 flex items-center justify-center gap-2"
              >
                <span className="sr-only" data-testid="beta-countdown">
                  {formatCountdown(secondsLeft)}
                </span>
                {boxes.map(([value, label, short], index) => (
                  <div key={label} className="flex items-center gap-1 sm:gap-2" aria-hidden="true">
                    {index > 0 ? (
                      <span className="text-2xl font-bold text-slate-500 sm:text-3xl">:</span>
                    ) : null}
                    <div className="w-14 rounded-xl bg-white/10 px-1 py-3 ring-1 ring-white/15 sm:w-20 sm:px-2">
                      <p className="font-mono text-2xl font-bold tabular-nums sm:text-4xl">
                        {value}
                      </p>
                      <p className="text-[11px] font-medium tracking-wide whitespace-nowrap text-slate-400 uppercase">
                        <span className="sm:hidden">{short}</span>
                        <span className="hidden sm:inline">{label}</span>
                      </p>
                    </div>
                  </div>
                ))}
              </div>
              <p className="mt-2 text-sm text-slate-300" data-testid="beta-countdown-note">
                {figures.endsAt
                  ? `Counts down to the end of the beta, ${longDate(figures.endsAt)}.`
                  : "Illustrative: it counts to midnight UTC, not to a real deadline."}
              </p>
            </div>
          ) : null}

          {spots ? (
            <div className="w-full max-w-xs text-left">
              <p className="text-sm font-medium tracking-wide text-slate-400 uppercase">
                Spots remaining
                {spotsAreReal ? null : <Illustrative tone="dark" />}
              </p>
              <p className="mt-2 text-4xl font-extrabold" data-testid="beta-spots">
                <span className="tabular-nums">{spotsLeft}</span>
                <span className="text-lg font-semibold text-slate-400"> of {spotsTotal}</span>
              </p>
              <div
                className="mt-3 h-2.5 w-full overflow-hidden rounded-full bg-white/10"
                aria-hidden="true"
              >
                <div
                  className="h-full rounded-full bg-gradient-to-r from-brand-500 to-pink-500"
                  style={{ width: `${(taken / spotsTotal) * 100}%` }}
                />
              </div>
              <p className="mt-2 text-sm text-slate-300" data-testid="beta-spots-note">
                {spotsAreReal
                  ? `${taken} ${taken === 1 ? "spot is" : "spots are"} taken by invitations sent.`
                  : `Illustrative: ${taken} creators already joined is a sample figure, not a count.`}
              </p>
            </div>
          ) : null}
        </div>

        <a
          href={registrationOpen ? "/api/login" : WAITLIST_HREF}
          className="btn mt-10 bg-white px-8 py-3 text-base text-slate-900 hover:bg-pink-50"
        >
          Claim Your Beta Spot
        </a>
      </div>
    </section>
  );
}

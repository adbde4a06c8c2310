import { BETA_SPOTS_TOTAL, REGISTRATION_CLOSED_UNTIL } from "~/features/landing/pricing-plans";
import { formatCountdown, useBetaCounters } from "~/features/landing/components/beta-counters";

/**
 * 5. Beta countdown with spots remaining. The server renders the starting
 * figures (so they show without JavaScript); in the browser they count down.
 */
export function BetaSection({ random, registrationOpen = false }: { random?: () => number; registrationOpen?: boolean }) {
  const { secondsLeft, spotsLeft } = useBetaCounters(random);
  const claimed = BETA_SPOTS_TOTAL - spotsLeft;
  const [hh, mm, ss] = formatCountdown(secondsLeft).split(":");
  return (
    <section aria-labelledby="beta-heading" className="bg-slate-950 py-20 text-white" data-testid="landing-beta">
      <div className="mx-auto max-w-4xl px-4 text-center">
        <p className="inline-flex items-center gap-2 rounded-full bg-white/10 px-4 py-1.5 text-sm font-semibold text-pink-200">
          <svg viewBox="0 0 20 20" className="h-4 w-4" fill="none" stroke="currentColor" strokeWidth="1.8" aria-hidden="true">
            <circle cx="10" cy="11" r="7" />
            <path d="M10 7.5V11l2.5 1.5M8 2h4" strokeLinecap="round" />
          </svg>
          Limited beta
        </p>
        <h2 id="beta-heading" className="mt-5 text-3xl font-extrabold tracking-tight sm:text-4xl">
          Beta access closes soon
        </h2>
        <p className="mx-auto mt-3 max-w-2xl text-slate-300">
          Claim one of {BETA_SPOTS_TOTAL} free beta spots and keep 85% of everything you earn.{" "}
          <span data-testid="beta-registration">
            {registrationOpen
              ? "Registration is open: create your account today."
              : `Public registration is closed until ${REGISTRATION_CLOSED_UNTIL}.`}
          </span>
        </p>

        <div className="mt-10 flex flex-col items-center gap-8 sm:flex-row sm:justify-center sm:gap-12">
          <div>
            <p className="text-sm font-medium tracking-wide text-slate-400 uppercase">Offer ends in</p>
            <div role="timer" aria-label={`Offer ends in ${hh} hours ${mm} minutes ${ss} seconds`} className="mt-2 flex items-center gap-2">
              <span className="sr-only" data-testid="beta-countdown">
                {formatCountdown(secondsLeft)}
              </span>
              {[
                [hh, "Hours"],
                [mm, "Minutes"],
                [ss, "Seconds"],
              ].map(([value, label], index) => (
                <div key={label} className="flex items-center gap-2" aria-hidden="true">
                  {index > 0 ? <span className="text-3xl font-bold text-slate-500">:</span> : null}
                  <div className="w-20 rounded-xl bg-white/10 px-3 py-3 ring-1 ring-white/15">
                    <p className="font-mono text-3xl font-bold tabular-nums sm:text-4xl">{value}</p>
                    <p className="text-[11px] font-medium tracking-wide text-slate-400 uppercase">{label}</p>
                  </div>
                </div>
              ))}
            </div>
          </div>

          <div className="w-full max-w-xs text-left">
            <p className="text-sm font-medium tracking-wide text-slate-400 uppercase">Spots remaining</p>
            <p className="mt-2 text-4xl font-extrabold" data-testid="beta-spots">
              <span className="tabular-nums">{spotsLeft}</span>
              <span className="text-lg font-semibold text-slate-400"> of {BETA_SPOTS_TOTAL}</span>
            </p>
            <div className="mt-3 h-2.5 w-full overflow-hidden rounded-full bg-white/10" aria-hidden="true">
              <div
                className="h-full rounded-full bg-gradient-to-r from-brand-500 to-pink-500"
                style={{ width: `${(claimed / BETA_SPOTS_TOTAL) * 100}%` }}
              />
            </div>
            <p className="mt-2 text-sm text-slate-400">{claimed} creators already joined</p>
          </div>
        </div>

        <a href="/api/login" className="btn mt-10 bg-white px-8 py-3 text-base text-slate-900 hover:bg-pink-50">
          Claim Your Beta Spot
        </a>
      </div>
    </section>
  );
}

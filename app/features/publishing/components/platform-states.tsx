import { platformState, specPlatforms } from "~/features/publishing/platforms";

/**
 * The nine platforms the product spec names, each with its real state from the
 * platform registry (what the product does there, or that it closed): the list
 * /pricing and /help show, in the words the landing strip and /integrations use.
 */
export function PlatformStateList() {
  return (
    <ul className="mt-3 grid gap-2 sm:grid-cols-2" data-testid="platform-states">
      {specPlatforms().map((platform) => (
        <li
          key={platform.id}
          className="flex flex-wrap items-baseline justify-between gap-2 rounded-lg border border-slate-200 px-3 py-2"
          data-testid="platform-state-item"
          data-platform={platform.id}
        >
          <span className="font-semibold text-slate-900" data-testid="platform-name">
            {platform.name}
          </span>
          <span className={`text-sm ${platform.closed ? "text-slate-500" : "text-slate-700"}`}>
            {platform.kind}: <span data-testid="platform-state">{platformState(platform)}</span>
          </span>
        </li>
      ))}
    </ul>
  );
}

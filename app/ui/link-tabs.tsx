import { Link, useNavigate } from "@remix-run/react";
import type { KeyboardEvent, ReactNode } from "react";
import { useRef } from "react";

export interface LinkTab {
  id: string;
  label: string;
  /** Where the tab leads: the same page with the tab chosen in its URL, so it works without JavaScript. */
  to: string;
}

/**
 * Tabs whose choice lives in the URL: each tab is a link (so a browser
 * without JavaScript switches tabs by loading the page), marked up as a WAI-ARIA
 * tablist, with the arrow, Home and End keys moving between tabs once hydrated.
 * Only the chosen panel is rendered. A few lines instead of a component library
 * on pages that need nothing else from one.
 */
export function LinkTabs({
  tabs,
  selected,
  idPrefix,
  className,
  listClassName,
  tabClassName,
  children,
}: {
  tabs: readonly LinkTab[];
  selected: string;
  idPrefix: string;
  className?: string;
  listClassName?: string;
  tabClassName: (selected: boolean) => string;
  /** The chosen tab's panel. */
  children: ReactNode;
}) {
  const navigate = useNavigate();
  const refs = useRef<(HTMLAnchorElement | null)[]>([]);
  const onKeyDown = (event: KeyboardEvent<HTMLAnchorElement>, index: number) => {
    const last = tabs.length - 1;
    const target =
      event.key === "ArrowRight"
        ? index === last
          ? 0
          : index + 1
        : event.key === "ArrowLeft"
          ? index === 0
            ? last
            : index - 1
          : event.key === "Home"
            ? 0
            : event.key === "End"
              ? last
              : null;
    const tab = target === null ? undefined : tabs[target];
    if (target === null || !tab) return;
    event.preventDefault();
    refs.current[target]?.focus();
    navigate(tab.to, { replace: true, preventScrollReset: true });
  };
  return (
    <div className={className}>
      <div role="tablist" className={listClassName}>
        {tabs.map((tab, index) => {
          const isSelected = tab.id === selected;
          return (
            <Link
              key={tab.id}
              ref={(element) => {
                refs.current[index] = element;
              }}
              id={`${idPrefix}-tab-${tab.id}`}
              role="tab"
              aria-selected={isSelected}
              aria-controls={isSelected ? `${idPrefix}-panel` : undefined}
              tabIndex={isSelected ? 0 : -1}
              to={tab.to}
              replace
              preventScrollReset
              className={tabClassName(isSelected)}
              onKeyDown={(event) => onKeyDown(event, index)}
            >
              {tab.label}
            </Link>
          );
        })}
      </div>
      <div
        role="tabpanel"
        id={`${idPrefix}-panel`}
        aria-labelledby={`${idPrefix}-tab-${selected}`}
        tabIndex={0}
      >
        {children}
      </div>
    </div>
  );
}

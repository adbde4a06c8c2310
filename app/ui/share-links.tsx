import { useId, useState } from "react";
import { useHydrated } from "~/ui/use-hydrated";

/** The share addresses of the big sites: plain links, so they work without JavaScript. */
export function shareTargets(page: { url: string; title: string; image?: string | null }) {
  const q = (params: Record<string, string>) => new URLSearchParams(params).toString();
  return [
    {
      id: "x",
      label: "X",
      href: `https://twitter.com/intent/tweet?${q({ url: page.url, text: page.title })}`,
    },
    {
      id: "facebook",
      label: "Facebook",
      href: `https://www.facebook.com/sharer/sharer.php?${q({ u: page.url })}`,
    },
    {
      id: "pinterest",
      label: "Pinterest",
      href: `https://pinterest.com/pin/create/button/?${q({ url: page.url, description: page.title, ...(page.image ? { media: page.image } : {}) })}`,
    },
    {
      id: "mail",
      label: "Email",
      href: `mailto:?${q({ subject: page.title, body: page.url }).replace(/\+/g, "%20")}`,
    },
  ];
}

/**
 * Share a page: its address in a read-only field (selected when focused, so
 * it copies without JavaScript), links to share it on X, Facebook, Pinterest
 * and by mail (new tabs), and with JavaScript a Copy link button and, where
 * the browser has the Web Share API (phones), a Share button that opens the
 * system's share sheet.
 */
export function ShareLinks({
  url,
  title,
  image,
  name,
}: {
  url: string;
  title: string;
  image?: string | null;
  name?: string;
}) {
  const hydrated = useHydrated();
  const fieldId = useId();
  const [copied, setCopied] = useState(false);
  const canShare =
    hydrated && typeof navigator !== "undefined" && typeof navigator.share === "function";
  const canCopy = hydrated && typeof navigator !== "undefined" && Boolean(navigator.clipboard);
  const what = name ? <span className="sr-only">: {name}</span> : null;
  return (
    <div className="space-y-2" data-testid="share-links">
      <label htmlFor={fieldId} className="text-xs font-medium text-slate-700">
        Link to share{what}
      </label>
      <div className="flex gap-2">
        <input
          id={fieldId}
          type="url"
          readOnly
          value={url}
          className="field-input min-w-0 flex-1 py-1 text-sm"
          onFocus={(event) => event.currentTarget.select()}
          data-testid="share-url"
        />
        {canCopy ? (
          <button
            type="button"
            className="btn-secondary px-3 py-1 text-sm"
            onClick={() => {
              void navigator.clipboard.writeText(url).then(
                () => setCopied(true),
                () => setCopied(false),
              );
            }}
          >
            {copied ? "Copied" : "Copy link"}
            {what}
          </button>
        ) : null}
      </div>
      <p className="sr-only" aria-live="polite">
        {copied ? "Link copied" : ""}
      </p>
      <ul className="flex flex-wrap gap-2 text-sm" aria-label={name ? `Share ${name}` : "Share"}>
        {canShare ? (
          <li>
            <button
              type="button"
              className="btn-primary px-3 py-1 text-sm"
              onClick={() => {
                navigator.share({ url, title }).catch(() => {});
              }}
            >
              Share…{what}
            </button>
          </li>
        ) : null}
        {shareTargets({ url, title, image }).map((target) => (
          <li key={target.id}>
            <a
              href={target.href}
              target={target.id === "mail" ? undefined : "_blank"}
              rel="noopener noreferrer"
              className="btn-ghost px-3 py-1 text-sm"
              data-testid={`share-${target.id}`}
            >
              {target.label}
              {what}
            </a>
          </li>
        ))}
      </ul>
    </div>
  );
}

import { useCallback, useEffect, useRef } from "react";
import { useRevalidator } from "@remix-run/react";
import { useToast } from "~/ui/toaster";
import { findPlatform } from "~/features/publishing/platforms";
import {
  COPY,
  connectFailedText,
  OAUTH_CHANNEL,
  OAUTH_POPUP_CHECK_MS,
  OAUTH_POPUP_HEIGHT,
  OAUTH_POPUP_WIDTH,
} from "~/features/publishing/types";

interface Attempt {
  platform: string;
  timer: ReturnType<typeof setInterval>;
  announced: boolean;
  closed: boolean;
}

/**
 * The OAuth popup: a 600x700 window, checked every
 * 1000 ms; when it is seen closed the integrations are refreshed and, once the
 * platform shows as connected, 'Connection Complete' is shown. The callback
 * page also reports on a BroadcastChannel (it works even when the provider's
 * pages cut the popup's link to us), which gives the outcome, failures too.
 */
export function useOAuthPopup({ isConnected }: { isConnected: (platform: string) => boolean }) {
  const revalidator = useRevalidator();
  const toast = useToast();
  const attempt = useRef<Attempt | null>(null);
  const connectedRef = useRef(isConnected);
  connectedRef.current = isConnected;

  const finish = useCallback(
    (message: { ok: boolean; title?: string; description?: string }) => {
      const current = attempt.current;
      if (!current || current.announced) return;
      current.announced = true;
      const name = findPlatform(current.platform)?.name ?? current.platform;
      if (message.ok)
        toast({
          kind: "success",
          title: COPY.connectionComplete.title,
          description: message.description ?? `${name} is connected.`,
        });
      else
        toast({
          kind: "error",
          title: COPY.connectionFailed.title,
          description: message.description ?? connectFailedText(name),
        });
    },
    [toast],
  );

  // The callback page's report.
  useEffect(() => {
    if (typeof BroadcastChannel === "undefined") return;
    const channel = new BroadcastChannel(OAUTH_CHANNEL);
    channel.onmessage = (
      event: MessageEvent<{ ok: boolean; platform: string; title: string; description: string }>,
    ) => {
      if (!attempt.current || event.data?.platform !== attempt.current.platform) return;
      revalidator.revalidate();
      finish(event.data);
    };
    return () => channel.close();
  }, [revalidator, finish]);

  // After the popup closed and the integrations were refreshed: connected means complete.
  useEffect(() => {
    const current = attempt.current;
    if (!current || !current.closed || current.announced || revalidator.state !== "idle") return;
    if (connectedRef.current(current.platform)) finish({ ok: true });
  });

  useEffect(
    () => () => {
      if (attempt.current) clearInterval(attempt.current.timer);
    },
    [],
  );

  /** Opens the popup at once (so no blocker stops it), then points it at the provider. Answers false if it could not open. */
  const connect = useCallback(
    async (platform: string, query: Record<string, string> = {}) => {
      const name = findPlatform(platform)?.name ?? platform;
      const left = Math.max(
        0,
        Math.round(window.screenX + (window.outerWidth - OAUTH_POPUP_WIDTH) / 2),
      );
      const top = Math.max(
        0,
        Math.round(window.screenY + (window.outerHeight - OAUTH_POPUP_HEIGHT) / 2),
      );
      const popup = window.open(
        "about:blank",
        `oauth-${platform}`,
        `width=${OAUTH_POPUP_WIDTH},height=${OAUTH_POPUP_HEIGHT},left=${left},top=${top}`,
      );
      if (!popup) {
        toast({
          kind: "error",
          title: COPY.connectionFailed.title,
          description: `${connectFailedText(name)}: please allow pop-ups for this site.`,
        });
        return false;
      }
      if (attempt.current) clearInterval(attempt.current.timer);
      const params = new URLSearchParams({ ...query, display: "popup" });
      let authUrl: string;
      try {
        const response = await fetch(`/api/oauth/${platform}/authorize?${params}`, {
          credentials: "include",
          headers: { Accept: "application/json" },
        });
        const body = (await response.json().catch(() => ({}))) as {
          authUrl?: string;
          message?: string;
        };
        if (!response.ok || !body.authUrl)
          throw new Error(body.message ?? `${response.status}: ${response.statusText}`);
        authUrl = body.authUrl;
      } catch (error) {
        popup.close();
        toast({
          kind: "error",
          title: COPY.connectionFailed.title,
          description:
            error instanceof Error && error.message ? error.message : connectFailedText(name),
        });
        return false;
      }
      popup.location.href = authUrl;
      const timer = setInterval(() => {
        if (!popup.closed) return;
        clearInterval(timer);
        if (attempt.current?.timer === timer) attempt.current.closed = true;
        revalidator.revalidate();
      }, OAUTH_POPUP_CHECK_MS);
      attempt.current = { platform, timer, announced: false, closed: false };
      return true;
    },
    [revalidator, toast],
  );

  return { connect };
}

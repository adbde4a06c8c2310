import { OAUTH_CHANNEL } from "~/features/publishing/types";
import { escapeHtml } from "~/lib/html";

/**
 * The small page the OAuth popup lands on: it tells the page that opened it
 * (on a BroadcastChannel, which works even when the provider's pages cut the
 * opener link) and closes itself. If it cannot close, it links back and moves
 * on to /integrations after a few seconds.
 */
export function oauthResultPage(args: {
  ok: boolean;
  platform: string;
  title: string;
  description: string;
  nonce?: string;
}): Response {
  const message = JSON.stringify({
    ok: args.ok,
    platform: args.platform,
    title: args.title,
    description: args.description,
  })
    .replace(/</g, "\\u003c")
    .replace(/>/g, "\\u003e");
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="refresh" content="3;url=/integrations">
<title>${escapeHtml(args.title)}</title>
</head>
<body style="font-family: system-ui, sans-serif; max-width: 28rem; margin: 4rem auto; padding: 0 1rem; color: #0f172a">
<h1 style="font-size: 1.5rem">${escapeHtml(args.title)}</h1>
<p>${escapeHtml(args.description)}</p>
<p>This window closes by itself. <a href="/integrations">Back to Integrations</a></p>
<script nonce="${escapeHtml(args.nonce ?? "")}">
(function () {
  try { var channel = new BroadcastChannel(${JSON.stringify(OAUTH_CHANNEL)}); channel.postMessage(${message}); channel.close(); } catch (e) {}
  window.close();
})();
</script>
</body>
</html>
`;
  return new Response(html, {
    status: args.ok ? 200 : 400,
    headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" },
  });
}

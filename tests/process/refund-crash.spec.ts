import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import type { CrashPoint } from "~/infra/crash-points.server";
import { DEMO_CREATOR } from "../../db/demo-account";
import { eventually, signInCreator } from "./support/creator-session";
import { payInTestCheckout } from "./support/purchases";
import { PROCESS_ADMIN, ROOT, startServer, type RunningServer } from "./support/server-process";

/**
 * Crash test, refunds (docs/decisions/009-crash-points.md): a creator with a
 * test payout account sells two images; both shares are transferred. The
 * admin refunds the order and the server dies (SIGKILL): right after the
 * refund and the shares' reversal are recorded, before any transfer is
 * reversed at the payout provider; or right after the provider reversed the
 * first transfer, before the ledger says so. After a restart every share is
 * reversed exactly once at the provider, the order stays refunded, its
 * download links answer 410 and the creator's test account holds nothing of it.
 */
const variants: Array<{ crashPoint: CrashPoint; port: number; refundCutOff: boolean }> = [
  { crashPoint: "refund-recorded", port: 3662, refundCutOff: true },
  { crashPoint: "transfer-reversal-sent", port: 3663, refundCutOff: false },
];

interface ShareRow {
  id: string;
  status: string;
  transfer_id: string | null;
  amount_cents: number;
  transferred_cents: number;
  transfer_reversed_cents: number;
}

for (const variant of variants) {
  test(`a server dead at ${variant.crashPoint} reverses every transferred share exactly once after restart`, async () => {
    test.setTimeout(180_000);
    const scratch = path.join(ROOT, "tests", ".tmp", `process-refund-crash-${variant.port}`);
    fs.rmSync(scratch, { recursive: true, force: true });
    const dataDir = path.join(scratch, "data");
    // A short job lease: the job the dead process held is taken over soon after the restart.
    const env = { JOB_LEASE_SECONDS: "3", SELFIE_CRASH_POINT: variant.crashPoint };
    let server: RunningServer = await startServer({ dataDir, port: variant.port, seed: true, env });
    try {
      // The demo creator sets up a test payout account.
      const creator = await signInCreator(server);
      const onboard = await creator.call("/api/payouts/onboard", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ country: "US" }),
      });
      expect(onboard.status, await onboard.clone().text()).toBe(200);
      expect(new URL(((await onboard.json()) as { url: string }).url).pathname).toBe(
        "/payouts/test-onboarding",
      );
      // The onboarding page is a web page: signed in with the session cookie.
      const signIn = await server.fetch("/auth", {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({
          intent: "login",
          email: DEMO_CREATOR.email,
          password: DEMO_CREATOR.password,
        }).toString(),
        redirect: "manual",
      });
      const cookie = signIn.headers
        .getSetCookie()
        .map((line) => line.split(";")[0])
        .join("; ");
      expect(cookie).not.toBe("");
      const completed = await server.fetch("/payouts/test-onboarding", {
        method: "POST",
        headers: { Cookie: cookie },
        redirect: "manual",
      });
      expect(completed.headers.get("location")).toBe("/payouts?onboarding=return");
      expect(server.query<{ status: string }>("select status from payout_accounts")).toEqual([
        { status: "active" },
      ]);

      // A buyer buys two of the creator's images in the test checkout.
      const market = (await (await server.fetch("/api/marketplace?limit=100")).json()) as {
        items: Array<{ id: string }>;
      };
      const created = await server.fetch("/api/create-checkout-session", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({
          cartItems: market.items
            .slice(0, 2)
            .map((item) => ({ imageId: item.id, licenseType: "standard" })),
          customerInfo: { name: "Refund Buyer", email: "refund-buyer@process.test" },
        }),
      });
      expect(created.status).toBe(200);
      const { sessionId } = (await created.json()) as { sessionId: string };
      const orderId = server.query<{ id: string }>(
        "select id from orders where checkout_session_hash = ?",
        crypto.createHash("sha256").update(sessionId).digest("hex"),
      )[0].id;
      await payInTestCheckout(server, sessionId);
      const sharesOf = () =>
        server.query<ShareRow>("select * from earnings where order_id = ?", orderId);
      await eventually("both shares transferred", () => {
        const shares = sharesOf();
        return shares.length === 2 && shares.every((share) => share.status === "transferred")
          ? shares
          : undefined;
      });
      const status = (await (
        await server.fetch(`/api/payment-status/${encodeURIComponent(sessionId)}`)
      ).json()) as { downloads: Array<{ downloadUrl: string }> };
      const downloadPath = new URL(status.downloads[0].downloadUrl).pathname;
      expect((await server.fetch(downloadPath, { method: "HEAD" })).status).toBe(200);

      // The admin refunds it, and the server dies at the crash point.
      const login = await server.fetch("/api/token-login", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(PROCESS_ADMIN),
      });
      const { token } = (await login.json()) as { token: string };
      const refund = await server
        .fetch(`/api/admin/orders/${orderId}/refund`, {
          method: "POST",
          headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}` },
          body: JSON.stringify({ reason: "Process test" }),
        })
        .then(
          (response) => response.status,
          () => "cut off" as const,
        );
      await server.exited(30_000);
      // Dead before it answered; at the reversal the answer may or may not have left first.
      if (variant.refundCutOff) expect(refund).toBe("cut off");
      else expect([200, "cut off"]).toContain(refund);
      const atCrash = server.query<{ status: string; refunded_cents: number; total_cents: number }>(
        "select status, refunded_cents, total_cents from orders where id = ?",
        orderId,
      )[0];
      expect(atCrash.status).toBe("refunded");
      expect(atCrash.refunded_cents).toBe(atCrash.total_cents);
      const reversalsAtCrash = server.query<{ n: number }>(
        "select count(*) as n from test_payout_movements where kind = 'reversal'",
      )[0].n;
      if (variant.crashPoint === "refund-recorded") expect(reversalsAtCrash).toBe(0);
      else {
        // The provider reversed one transfer (or both: two jobs run at once), and the ledger does not know yet.
        expect(reversalsAtCrash).toBeGreaterThanOrEqual(1);
        expect(sharesOf().every((share) => share.transfer_reversed_cents === 0)).toBe(true);
      }

      // Restarted: the reversal jobs finish, each transfer reversed once.
      server = await startServer({ dataDir, port: variant.port, env: { JOB_LEASE_SECONDS: "3" } });
      const settled = await eventually(
        "every share reversed at the provider",
        () => {
          const shares = sharesOf();
          return shares.every(
            (share) =>
              share.status === "reversed" &&
              share.transfer_reversed_cents === share.transferred_cents,
          )
            ? shares
            : undefined;
        },
        60_000,
        200,
      );
      for (const share of settled) {
        const reversals = server.query<{ amount_cents: number }>(
          "select amount_cents from test_payout_movements where kind = 'reversal' and transfer_id = ?",
          share.transfer_id,
        );
        expect(reversals, `share ${share.id}`).toEqual([{ amount_cents: share.amount_cents }]);
      }
      const balance = server.query<{ cents: number }>(
        "select coalesce(sum(case when kind = 'transfer' then amount_cents else -amount_cents end), 0) as cents from test_payout_movements",
      )[0].cents;
      expect(balance).toBe(0);
      const gone = await server.fetch(downloadPath);
      expect(gone.status).toBe(410);
      expect(await gone.text()).toContain("This order was refunded");
      expect(server.inspect().integrity).toBe("ok");
    } finally {
      await server.stop();
    }
  });
}

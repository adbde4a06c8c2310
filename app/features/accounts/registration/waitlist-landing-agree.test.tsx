import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { getConfig, type Config } from "~/infra/config.server";
import { getDb } from "~/infra/db.server";
import { invoke } from "~/infra/procedure.server";
import { callContext } from "~/web/request-context.server";
import {
  betaStatus,
  inviteFromWaitlist,
  joinWaitlist,
} from "~/features/accounts/registration/waitlist.procedures.server";
import { LandingPage } from "~/features/landing/components/landing-page";
import { makeRequest } from "#tests/setup/requests";
import { createTestAdmin } from "#tests/setup/accounts";
import { queuedMailTo } from "#tests/setup/mail-queue";
import { serverHtml } from "#tests/setup/server-html";
import { testTies } from "#tests/setup/ties";
import { rowWhere } from "#tests/setup/rows-where";

/**
 * The waitlist's confirmation mail and the landing page (DEMO_FIGURES off)
 * state the same spots left: both read betaSpotsLeft, BETA_SPOTS minus the
 * spots taken; the mail says the beta is full only when the landing shows 0.
 */

const config = getConfig() as Config & { BETA_SPOTS: number; PUBLIC_URL?: string };
const saved = { spots: config.BETA_SPOTS };
beforeEach(async () => {
  await getDb().deleteFrom("waitlist").execute();
  await getDb().deleteFrom("jobs").execute();
});
afterEach(() => {
  config.BETA_SPOTS = saved.spots;
});

let address = 0;
const ctx = () => ({
  ...callContext(makeRequest("/auth"), { ties: testTies }),
  clientIp: `203.0.113.${++address}`,
});

async function joinAndReadMail(email: string): Promise<string> {
  await invoke(joinWaitlist, null, { email }, ctx());
  const mails = await queuedMailTo(email);
  return mails[mails.length - 1].text;
}

async function landingSpots(): Promise<string> {
  const beta = await invoke(betaStatus, null, {}, ctx());
  const html = await serverHtml(
    <LandingPage beta={beta} renderedAt={new Date().toISOString()} />,
    "/",
    { withoutTextMarkers: true },
  );
  const match =
    /data-testid="beta-spots"><span class="tabular-nums">(\d+)<\/span><span[^>]*> of (\d+)</.exec(
      html,
    );
  expect(match).not.toBeNull();
  return `${match![1]} of ${match![2]}`;
}

describe("the waitlist mail and the landing page", () => {
  it("state the same spots left, and the mail says full only when the landing shows none", async () => {
    config.BETA_SPOTS = 2;
    const first = await joinAndReadMail("agree1@example.com");
    expect(await landingSpots()).toBe("2 of 2");
    expect(first).toContain("2 of 2 beta spots are left");
    expect(first).not.toContain("full");

    const { user: admin } = await createTestAdmin();
    const entry = await rowWhere("waitlist", "id", "email", "agree1@example.com");
    await invoke(inviteFromWaitlist, admin, { entryId: entry.id }, ctx());
    const second = await joinAndReadMail("agree2@example.com");
    expect(await landingSpots()).toBe("1 of 2");
    expect(second).toContain("1 of 2 beta spots are left");

    config.BETA_SPOTS = 1;
    const third = await joinAndReadMail("agree3@example.com");
    expect(await landingSpots()).toBe("0 of 1");
    expect(third).toContain("the beta is full (all 1 spots are taken)");
  });
});

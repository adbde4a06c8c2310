import { describe, expect, it } from "vitest";
import { getDb } from "~/infra/db.server";
import { JobWorker } from "~/infra/jobs/job-worker.server";
import { jobHandlers } from "~/boot/job-kinds.server";
import { action as dashboardAction, loader as dashboardLoader } from "~/routes/_studio+/dashboard";
import { action as cartAction } from "~/routes/_market+/cart";
import { action as testCheckoutAction } from "~/routes/_market+/test-checkout.$sessionId";
import { loader as downloadRoute } from "~/routes/_resources+/downloads.$token";
import { action as deleteAccountAction } from "~/routes/_studio+/settings.delete";
import { callRoute, formRequest, makeRequest } from "#tests/setup/requests";
import { createTestUser, TEST_PASSWORD } from "#tests/setup/accounts";
import { fixture, uploadRequest } from "#tests/setup/studio";
import { createListing } from "#tests/setup/market";
import { cartCookieWith, paymentStatusOf } from "#tests/setup/test-checkout";
import { byFloor, filesRunBy } from "./trace-files";

/**
 * The three flows docs/architecture.md walks, run as a browser without
 * JavaScript makes them (the upload as the JavaScript widget sends it), on a
 * real temporary database, the local styling engine and the built-in test
 * checkout, with every job the flow queues run by the real worker. Prints the
 * files of app/ and db/ whose code ran: the success path, call by call.
 *
 *   npm run flows
 */

/**
 * The worker with every real job kind (made before the flow is traced: its
 * handlers are built once a process), drained until nothing is left to do.
 */
function jobWorker() {
  const worker = new JobWorker({
    db: getDb(),
    handlers: jobHandlers(),
    concurrency: 1,
    log: () => {},
  });
  return () => worker.drain();
}

function report(name: string, files: string[]) {
  const floors = [...byFloor(files)].map(([floor, count]) => `${floor} ${count}`).join(", ");
  console.log(`${name}: ${files.length} files (${floors})\n  ${files.join("\n  ")}`);
}

describe("flows, the files each one runs", () => {
  it("upload → styled image", async () => {
    const { cookie } = await createTestUser();
    const drainJobs = jobWorker();
    let imageId = "";
    const files = await filesRunBy(async () => {
      const uploaded = await callRoute(
        dashboardAction,
        uploadRequest(fixture("portrait.png"), { cookie, url: "/dashboard?_js=1" }),
      );
      imageId = ((await uploaded.json()) as { images: { id: string }[] }).images[0]!.id;
      const styled = await callRoute(
        dashboardAction,
        formRequest("/dashboard", { intent: "stylize", id: imageId, style: "cartoon" }, { cookie }),
      );
      const waiting = styled.headers.get("Location")!.replace(/#.*$/, "");
      expect((await callRoute(dashboardLoader, makeRequest(waiting, { cookie }))).status).toBe(200);
      await drainJobs();
      const done = await callRoute(dashboardLoader, makeRequest(`${waiting}&poll=1`, { cookie }));
      expect(done.headers.get("Location")).toMatch(/step=optimize/);
      const optimize = done.headers.get("Location")!.replace(/#.*$/, "");
      expect((await callRoute(dashboardLoader, makeRequest(optimize, { cookie }))).status).toBe(
        200,
      );
    });
    report("upload", files);
  });

  it("purchase → download", async () => {
    const { user } = await createTestUser();
    const { listing } = await createListing(user.id);
    const drainJobs = jobWorker();
    const files = await filesRunBy(async () => {
      const cookie = await cartCookieWith(listing.id);
      const checkout = await callRoute(
        cartAction,
        formRequest(
          "/cart",
          { intent: "checkout", name: "Ada Buyer", email: "ada@example.com" },
          { cookie },
        ),
      );
      const sessionId = checkout.headers.get("Location")!.split("/").pop()!;
      const paid = await callRoute(
        testCheckoutAction,
        formRequest(`/test-checkout/${sessionId}`, { intent: "pay" }),
        { sessionId },
      );
      expect(paid.status).toBe(302);
      await drainJobs();
      const status = (await (await paymentStatusOf(sessionId)).json()) as {
        downloads: { downloadUrl: string }[];
      };
      const token = status.downloads[0]!.downloadUrl.split("/").pop()!;
      const download = await callRoute(downloadRoute, makeRequest(`/downloads/${token}`), {
        token,
      });
      expect(download.status).toBe(200);
    });
    report("purchase", files);
  });

  it("erasure", async () => {
    const { user, cookie } = await createTestUser();
    await createListing(user.id);
    const drainJobs = jobWorker();
    const files = await filesRunBy(async () => {
      const erased = await callRoute(
        deleteAccountAction,
        formRequest(
          "/settings/delete?confirm=1",
          { password: TEST_PASSWORD, confirm: "on" },
          { cookie },
        ),
      );
      expect(erased.status).toBe(302);
      await drainJobs();
    });
    report("erasure", files);
  });
});

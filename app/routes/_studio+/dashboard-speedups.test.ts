import { beforeEach, describe, expect, it } from "vitest";
import * as dashboard from "~/routes/_studio+/dashboard";
import { getDb } from "~/infra/db.server";
import { callRoute, formRequest, makeRequest } from "#tests/setup/requests";
import { createTestUser } from "#tests/setup/accounts";
import { fixture, studioWorker, testStyleEngine, uploadRequest } from "#tests/setup/studio";
import { flashOf } from "#tests/setup/flash";
import { rowsWhere, selectWhere } from "#tests/setup/rows-where";

/** The creators' speed-ups on the dashboard without JavaScript: form posts and redirects. */

beforeEach(async () => {
  await getDb().deleteFrom("jobs").execute();
});

function severalSelfies(cookie: string, names: string[], bad?: string): Request {
  const form = new FormData();
  for (const name of names)
    form.append(
      "image",
      new Blob(
        [new Uint8Array(name === bad ? Buffer.from("not an image") : fixture("portrait.png"))],
        {
          type: "image/png",
        },
      ),
      name,
    );
  return makeRequest("/dashboard", { method: "POST", body: form, cookie });
}

async function uploadedImageId(cookie: string): Promise<string> {
  const response = await callRoute(
    dashboard.action,
    uploadRequest(fixture("portrait.png"), { cookie, url: "/dashboard" }),
  );
  return new URL(response.headers.get("Location")!, "http://localhost").searchParams.get("image")!;
}

describe("dashboard speed-ups without JavaScript", () => {
  it("uploads several selfies from one form, saying how many and why any was refused", async () => {
    const { cookie, user } = await createTestUser();
    const all = await callRoute(dashboard.action, severalSelfies(cookie, ["a.png", "b.png"]));
    expect(all.status).toBe(302);
    expect(await flashOf(all)).toMatchObject({
      kind: "success",
      title: "Upload Successful",
      description: "2 of 2 selfies uploaded.",
    });
    const some = await callRoute(
      dashboard.action,
      severalSelfies(cookie, ["c.png", "d.png", "e.png"], "d.png"),
    );
    expect(await flashOf(some)).toMatchObject({
      kind: "error",
      title: "Some files were not uploaded",
      description: "2 of 3 selfies uploaded. d.png: Please select a valid image file (JPG or PNG).",
    });
    const rows = await selectWhere("images", "id", "user_id", user.id);
    expect(rows).toHaveLength(4);
  });

  it("asks for all four styles with one button and waits on the style page, each card showing its progress", async () => {
    const { cookie } = await createTestUser();
    const imageId = await uploadedImageId(cookie);
    const response = await callRoute(
      dashboard.action,
      formRequest("/dashboard", { intent: "stylize-all", id: imageId }, { cookie }),
    );
    expect(response.status).toBe(302);
    const location = new URL(response.headers.get("Location")!, "http://localhost");
    expect(location.searchParams.get("step")).toBe("style");
    expect(location.searchParams.get("pending")).toBeTruthy();
    const page = await callRoute(
      dashboard.loader,
      makeRequest(location.pathname + location.search, { cookie }),
    );
    const data = await page.json();
    const stylized = data.stylized as { style: string; status: string }[];
    expect(stylized.map((item) => item.style).sort()).toEqual([
      "anime",
      "cartoon",
      "fantasy",
      "professional",
    ]);
    expect(stylized.every((item) => item.status === "pending")).toBe(true);
    // Without JavaScript the page refreshes itself until they are done.
    expect(data.view.refreshUrl).toContain("poll=1");
  });

  it("re-rolls a finished style into a new card, keeping the earlier one", async () => {
    const { cookie } = await createTestUser();
    const imageId = await uploadedImageId(cookie);
    await callRoute(
      dashboard.action,
      formRequest("/dashboard", { intent: "stylize", id: imageId, style: "cartoon" }, { cookie }),
    );
    await studioWorker(testStyleEngine()).drain();
    const [first] = await rowsWhere("stylized_images", "image_id", imageId);
    const response = await callRoute(
      dashboard.action,
      formRequest("/dashboard", { intent: "reroll", id: first!.id }, { cookie }),
    );
    expect(response.status).toBe(302);
    const pending = new URL(response.headers.get("Location")!, "http://localhost").searchParams.get(
      "pending",
    );
    const rows = await rowsWhere("stylized_images", "image_id", imageId);
    expect(rows).toHaveLength(2);
    const again = rows.find((row) => row.id === pending)!;
    expect(again).toMatchObject({ style: "cartoon", status: "pending" });
    expect(again.seed).not.toBe(first!.seed);
    expect(rows.find((row) => row.id === first!.id)).toMatchObject({ status: "completed" });
  });
});

import { describe, expect, it } from "vitest";
import { AI_PROCESSING_FAILED, AI_PROCESSING_TIMED_OUT, pollStylizedImage } from "~/features/studio/style-polling";
import { checkUploadFile } from "~/features/studio/upload-validation";
import { dashboardUrl } from "~/features/studio/dashboard-url";

describe("checkUploadFile", () => {
  it("checks the size first (over 10 MB), then that the type starts with image/", () => {
    const MB = 1024 * 1024;
    expect(checkUploadFile({ size: 10 * MB, type: "image/jpeg" })).toBeNull();
    expect(checkUploadFile({ size: 10 * MB + 1, type: "text/plain" })?.title).toBe("File Too Large");
    expect(checkUploadFile({ size: 100, type: "text/plain" })).toEqual({
      title: "Invalid File Type",
      description: "Please select a valid image file (JPG or PNG).",
    });
    expect(checkUploadFile({ size: 100, type: "" })?.title).toBe("Invalid File Type");
    expect(checkUploadFile({ size: 100, type: "image/webp" })).toBeNull(); // the picker accepts any image
  });
});

describe("pollStylizedImage", () => {
  const run = (statuses: string[], maxAttempts = 30) => {
    const sleeps: number[] = [];
    let calls = 0;
    const promise = pollStylizedImage("s1", {
      sleep: async (ms) => {
        sleeps.push(ms);
      },
      fetchImage: async () => {
        const status = statuses[Math.min(calls, statuses.length - 1)] as "pending";
        calls += 1;
        return { status, styledUrl: status === ("completed" as string) ? "/media/styled/x.jpg" : null, error: null };
      },
      maxAttempts,
    });
    return { promise, sleeps, calls: () => calls };
  };

  it("polls every 2 s until completed with a URL; any other status means keep polling", async () => {
    const { promise, sleeps, calls } = run(["pending", "processing", "queued", "completed"]);
    await expect(promise).resolves.toMatchObject({ status: "completed" });
    expect(calls()).toBe(4);
    expect(sleeps).toEqual([2000, 2000, 2000, 2000]);
  });

  it("fails with 'AI processing failed' on failed and 'AI processing timed out' after 30 attempts", async () => {
    await expect(run(["processing", "failed"]).promise).rejects.toThrow(AI_PROCESSING_FAILED);
    const slow = run(["pending"]);
    await expect(slow.promise).rejects.toThrow(AI_PROCESSING_TIMED_OUT);
    expect(slow.calls()).toBe(30);
  });
});

describe("dashboardUrl", () => {
  it("always addresses /dashboard, in a fixed parameter order, leaving out empty values", () => {
    expect(dashboardUrl()).toBe("/dashboard");
    expect(dashboardUrl({ step: "style", image: "i1", styled: undefined, poll: 0 })).toBe("/dashboard?image=i1&step=style&poll=0");
  });
});

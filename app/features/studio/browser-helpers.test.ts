import { describe, expect, it } from "vitest";
import { checkUploadFile } from "~/lib/upload-check";
import { dashboardUrl } from "~/features/studio/workspace/dashboard-url";

describe("checkUploadFile", () => {
  it("checks the size first (over 10 MB), then that the type starts with image/", () => {
    const MB = 1024 * 1024;
    expect(checkUploadFile({ size: 10 * MB, type: "image/jpeg" })).toBeNull();
    expect(checkUploadFile({ size: 10 * MB + 1, type: "text/plain" })?.title).toBe(
      "File Too Large",
    );
    expect(checkUploadFile({ size: 100, type: "text/plain" })).toEqual({
      title: "Invalid File Type",
      description: "Please select a valid image file (JPG or PNG).",
    });
    expect(checkUploadFile({ size: 100, type: "" })?.title).toBe("Invalid File Type");
    expect(checkUploadFile({ size: 100, type: "image/webp" })).toBeNull(); // the picker accepts any image
  });
});

describe("dashboardUrl", () => {
  it("always addresses /dashboard, in a fixed parameter order, leaving out empty values", () => {
    expect(dashboardUrl()).toBe("/dashboard");
    expect(dashboardUrl({ step: "style", image: "i1", styled: undefined, poll: 0 })).toBe(
      "/dashboard?image=i1&step=style&poll=0",
    );
  });
});

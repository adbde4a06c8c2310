// @vitest-environment jsdom
import "@testing-library/jest-dom/vitest";
import { afterEach, describe, expect, it } from "vitest";
import { cleanup, screen, waitFor } from "@testing-library/react";
import { renderWithRemix } from "#tests/setup/render-route";
import userEvent from "@testing-library/user-event";
import type { SubmissionResult } from "@conform-to/react";
import { ProfileSettings } from "~/features/accounts/profile/components/profile-settings";
import type { Account } from "~/features/accounts/account-types";

afterEach(cleanup);

const ACCOUNT: Account = {
  id: "u1",
  email: "cora@example.com",
  firstName: "Cora",
  lastName: "Creator",
  profileImageUrl: "/media/avatars/cora-photo-1.jpg",
  handle: "cora",
  bio: "Portraits, styled.",
  createdAt: "2026-11-01T10:00:00.000Z",
  pendingEmail: null,
  consent: { faceProcessing: { given: false, at: null, version: null } },
};

function renderTab(account: Account = ACCOUNT, lastResult?: SubmissionResult<string[]>) {
  return renderWithRemix(
    [
      {
        path: "/settings",
        Component: () => <ProfileSettings account={account} lastResult={lastResult} />,
        action: () => null,
      },
    ],
    { url: "/settings" },
  );
}

describe("ProfileSettings", () => {
  it("shows the photo and fills the profile form with the account", async () => {
    renderTab();
    expect(await screen.findByLabelText("First name")).toHaveValue("Cora");
    expect(screen.getByLabelText("Last name")).toHaveValue("Creator");
    expect(screen.getByLabelText("Public handle")).toHaveValue("cora");
    expect(screen.getByLabelText("Bio")).toHaveValue("Portraits, styled.");
    expect(screen.getByTestId("profile-photo").querySelector("img")).toHaveAttribute(
      "src",
      "/media/avatars/cora-photo-1.jpg",
    );
    expect(screen.getByTestId("current-email")).toHaveTextContent("cora@example.com");
    expect(screen.queryByTestId("pending-email")).toBeNull();
    // Plain posts: each form works without JavaScript.
    expect(screen.getByTestId("photo-form")).toHaveAttribute("enctype", "multipart/form-data");
    expect(screen.getByTestId("profile-form")).toHaveAttribute("method", "post");
  });

  it("shows initials without a photo, and the email change waiting for its link", async () => {
    renderTab({ ...ACCOUNT, profileImageUrl: null, pendingEmail: "new@example.com" });
    expect(await screen.findByTestId("avatar-placeholder")).toHaveTextContent("CC");
    expect(screen.getByTestId("pending-email")).toHaveTextContent("new@example.com");
  });

  it("checks a chosen photo at once with the uploads' messages, and will not send one that fails", async () => {
    renderTab();
    const input = (await screen.findByLabelText("Choose a photo")) as HTMLInputElement;
    const user = userEvent.setup({ applyAccept: false });
    await user.upload(input, new File(["%PDF-1.4"], "cv.pdf", { type: "application/pdf" }));
    expect(await screen.findByRole("alert")).toHaveTextContent(
      "Invalid File Type: Please select a valid image file (JPG or PNG).",
    );
    expect(screen.getByRole("button", { name: "Upload photo" })).toBeDisabled();

    const big = new File([new Uint8Array(8)], "big.png", { type: "image/png" });
    Object.defineProperty(big, "size", { value: 10 * 1024 * 1024 + 1 });
    await user.upload(input, big);
    expect(await screen.findByRole("alert")).toHaveTextContent(
      "File Too Large: Please select a file smaller than 10MB.",
    );

    await user.upload(input, new File([new Uint8Array(8)], "me.png", { type: "image/png" }));
    await waitFor(() => expect(screen.getByRole("button", { name: "Upload photo" })).toBeEnabled());
    expect(screen.queryByRole("alert")).toBeNull();
  });

  it("shows a refused handle under its field, and only in the form it came from", async () => {
    const taken: SubmissionResult<string[]> = {
      status: "error",
      initialValue: {
        intent: "profile",
        firstName: "Cora",
        lastName: "Creator",
        handle: "house-style",
        bio: "",
      },
      error: {
        "": ["This handle is taken. Choose another one."],
        handle: ["This handle is taken. Choose another one."],
      },
    };
    renderTab(ACCOUNT, taken);
    const handle = await screen.findByLabelText("Public handle");
    expect(handle).toHaveAttribute("aria-invalid", "true");
    expect(handle).toHaveValue("house-style");
    expect(screen.getAllByText("This handle is taken. Choose another one.").length).toBeGreaterThan(
      0,
    );
    expect(screen.getByLabelText("New email")).not.toHaveAttribute("aria-invalid");
  });
});

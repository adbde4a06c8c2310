// @vitest-environment jsdom
import { render, screen } from "@testing-library/react";
import { createRemixStub } from "@remix-run/testing";
import { json } from "@remix-run/node";
import { describe, expect, it } from "vitest";
import ForgotPassword from "~/routes/_auth+/forgot-password";
import ResetPassword from "~/routes/_auth+/reset-password";

function renderAt(url: string, Component: () => JSX.Element, data: unknown) {
  const path = new URL(url, "http://localhost").pathname;
  const Stub = createRemixStub([{ path, Component, loader: () => json(data) }]);
  render(<Stub initialEntries={[url]} />);
}

describe("the password reset pages", () => {
  it("/forgot-password: an email field and a submit button, posting to itself", async () => {
    renderAt("/forgot-password", ForgotPassword, { sent: false, message: null });
    const button = await screen.findByRole("button", { name: "Send reset link" });
    expect(screen.getByRole("heading", { name: "Forgot password?" })).toBeInTheDocument();
    expect(screen.getByLabelText("Email")).toHaveAttribute("type", "email");
    const form = button.closest("form")!;
    expect(form).toHaveAttribute("method", "post");
    expect(form.getAttribute("action")).toBe("/forgot-password");
    expect(screen.getByRole("link", { name: "Back to sign in" })).toHaveAttribute("href", "/auth");
  });

  it("/forgot-password?sent=1: the confirmation", async () => {
    renderAt("/forgot-password?sent=1", ForgotPassword, { sent: true, message: "On its way." });
    expect(await screen.findByRole("status")).toHaveTextContent("On its way.");
    expect(screen.queryByRole("button")).toBeNull();
  });

  it("/reset-password with a live link: the token rides a hidden field", async () => {
    renderAt("/reset-password?token=abc", ResetPassword, {
      token: "abc",
      valid: true,
      message: null,
    });
    const button = await screen.findByRole("button", { name: "Set new password" });
    const form = button.closest("form")!;
    expect(form.querySelector('input[type="hidden"][name="token"]')).toHaveValue("abc");
    expect(screen.getByLabelText("New password")).toHaveAttribute("type", "password");
  });

  it("/reset-password with a dead link: the error and a way to ask again", async () => {
    renderAt("/reset-password?token=x", ResetPassword, {
      token: "x",
      valid: false,
      message: "This link has expired.",
    });
    expect(await screen.findByRole("alert")).toHaveTextContent("This link has expired.");
    expect(screen.getByRole("link", { name: "Ask for a new link" })).toHaveAttribute(
      "href",
      "/forgot-password",
    );
    expect(screen.queryByRole("button")).toBeNull();
  });
});

// @vitest-environment jsdom
import { afterEach, describe, expect, it } from "vitest";
import { cleanup, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { json } from "@remix-run/node";
import { renderWithRemix } from "#tests/setup/render-route";
import { FollowForm } from "./follow-form";

afterEach(cleanup);

describe("FollowForm", () => {
  it("is a plain form posting the handle and an email to /follow (it works without JavaScript)", () => {
    const { container } = renderWithRemix(<FollowForm handle="ada" creatorName="Ada" />, {
      url: "/creators/ada",
    });
    const doc = container;
    const form = doc.querySelector("form[data-testid=follow-form]")!;
    expect(form.getAttribute("method")).toBe("post");
    expect(form.getAttribute("action")).toBe("/follow");
    expect(form.querySelector<HTMLInputElement>("input[type=hidden][name=handle]")!.value).toBe(
      "ada",
    );
    const email = form.querySelector<HTMLInputElement>("input[name=email]")!;
    expect(email.getAttribute("type")).toBe("email");
    expect(doc.querySelector(`label[for="${email.id}"]`)!.textContent).toContain("Follow Ada");
    expect(form.querySelector("button[type=submit]")!.textContent).toBe("Follow");
  });

  it("sends what the visitor typed and shows the server's refusal under the field", async () => {
    const posted: Array<Record<string, string>> = [];
    renderWithRemix(
      [
        {
          path: "/creators/ada",
          Component: () => <FollowForm handle="ada" creatorName="Ada" />,
        },
        {
          path: "/follow",
          action: async ({ request }) => {
            posted.push(Object.fromEntries(await request.formData()) as Record<string, string>);
            return json({ ok: true });
          },
          Component: () => <p>Check your inbox</p>,
        },
      ],
      { url: "/creators/ada" },
    );
    await userEvent.type(screen.getByRole("textbox", { name: /Follow Ada/ }), "fan@example.com");
    await userEvent.click(screen.getByRole("button", { name: "Follow" }));
    await waitFor(() => expect(posted).toEqual([{ handle: "ada", email: "fan@example.com" }]));
  });

  it("marks the email field with the reply's error", () => {
    renderWithRemix(
      <FollowForm
        handle="ada"
        creatorName="Ada"
        lastResult={{
          status: "error",
          initialValue: { handle: "ada", email: "nope" },
          error: { email: ["Please enter a valid email address."] },
        }}
      />,
      { url: "/follow" },
    );
    const field = screen.getByRole("textbox", { name: /Follow Ada/ });
    expect(field.getAttribute("aria-invalid")).toBe("true");
    expect(screen.getByText("Please enter a valid email address.")).toBeTruthy();
  });
});

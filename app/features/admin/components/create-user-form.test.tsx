// @vitest-environment jsdom
import "@testing-library/jest-dom/vitest";
import { afterEach, describe, expect, it } from "vitest";
import { cleanup, screen } from "@testing-library/react";
import { renderWithRemix } from "#tests/setup/render-route";
import { CreateUserForm } from "~/features/admin/components/create-user-form";

afterEach(cleanup);

function renderForm(registrationOpen?: boolean) {
  renderWithRemix(<CreateUserForm lastResult={undefined} registrationOpen={registrationOpen} />, {
    url: "/admin",
  });
}

describe("CreateUserForm", () => {
  it("says registration is closed while it is", async () => {
    renderForm(false);
    expect(await screen.findByTestId("create-user-intro")).toHaveTextContent(
      "Registration is closed",
    );
  });

  it("does not claim registration is closed when it is open", async () => {
    renderForm(true);
    const intro = await screen.findByTestId("create-user-intro");
    expect(intro).not.toHaveTextContent(/registration is closed/i);
    expect(intro).toHaveTextContent("They sign in with this email and password.");
  });
});

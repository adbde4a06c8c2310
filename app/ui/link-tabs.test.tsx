// @vitest-environment jsdom
import { fireEvent, screen, waitFor } from "@testing-library/react";
import { renderWithRemix } from "#tests/setup/render-route";
import { useSearchParams } from "@remix-run/react";
import { describe, expect, it } from "vitest";
import { LinkTabs } from "~/ui/link-tabs";

function Screen() {
  const [params] = useSearchParams();
  const selected = params.get("tab") ?? "login";
  return (
    <LinkTabs
      idPrefix="t"
      selected={selected}
      tabs={[
        { id: "login", label: "Login", to: "?tab=login" },
        { id: "register", label: "Register", to: "?tab=register" },
      ]}
      tabClassName={(on) => (on ? "on" : "off")}
    >
      <p>{selected} panel</p>
    </LinkTabs>
  );
}

describe("LinkTabs", () => {
  it("marks up a tablist of links whose chosen tab labels the one panel, and follows the URL", async () => {
    renderWithRemix([{ path: "/", Component: Screen }], { url: "/" });
    const login = screen.getByRole("tab", { name: "Login" });
    const register = screen.getByRole("tab", { name: "Register" });
    expect(login).toHaveAttribute("aria-selected", "true");
    expect(login).toHaveAttribute("tabindex", "0");
    expect(register).toHaveAttribute("aria-selected", "false");
    expect(register).toHaveAttribute("tabindex", "-1");
    expect(register).toHaveAttribute("href", "/?tab=register");
    expect(screen.getByRole("tabpanel", { name: "Login" })).toHaveTextContent("login panel");

    fireEvent.click(register);
    await waitFor(() =>
      expect(screen.getByRole("tabpanel", { name: "Register" })).toHaveTextContent(
        "register panel",
      ),
    );
    expect(screen.getByRole("tab", { name: "Register" })).toHaveAttribute("aria-selected", "true");
  });

  it("moves between tabs with the arrow, Home and End keys", async () => {
    renderWithRemix([{ path: "/", Component: Screen }], { url: "/" });
    fireEvent.keyDown(screen.getByRole("tab", { name: "Login" }), { key: "ArrowRight" });
    await waitFor(() =>
      expect(screen.getByRole("tab", { name: "Register" })).toHaveAttribute(
        "aria-selected",
        "true",
      ),
    );
    expect(screen.getByRole("tab", { name: "Register" })).toHaveFocus();
    fireEvent.keyDown(screen.getByRole("tab", { name: "Register" }), { key: "ArrowRight" });
    await waitFor(() =>
      expect(screen.getByRole("tab", { name: "Login" })).toHaveAttribute("aria-selected", "true"),
    );
    fireEvent.keyDown(screen.getByRole("tab", { name: "Login" }), { key: "End" });
    await waitFor(() => expect(screen.getByRole("tabpanel")).toHaveTextContent("register panel"));
    fireEvent.keyDown(screen.getByRole("tab", { name: "Register" }), { key: "Home" });
    await waitFor(() => expect(screen.getByRole("tabpanel")).toHaveTextContent("login panel"));
  });
});

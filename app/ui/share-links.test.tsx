// @vitest-environment jsdom
import "@testing-library/jest-dom/vitest";
import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { ShareLinks } from "~/ui/share-links";

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const URL_TO_SHARE = "https://selfie.example/marketplace/abc_123";
const TITLE = 'Neon "Dream" & more';

describe("ShareLinks", () => {
  it("offers the address to copy and plain share links to X, Facebook, Pinterest and mail", () => {
    render(
      <ShareLinks
        url={URL_TO_SHARE}
        title={TITLE}
        image="https://selfie.example/media/previews/abc_card.jpg"
      />,
    );
    const field = screen.getByLabelText("Link to share");
    expect(field).toHaveValue(URL_TO_SHARE);
    expect(field).toHaveAttribute("readonly");
    const links = within(screen.getByRole("list", { name: "Share" }));
    const href = (name: string) => new URL(links.getByRole("link", { name }).getAttribute("href")!);
    expect(href("X").searchParams.get("url")).toBe(URL_TO_SHARE);
    expect(href("X").searchParams.get("text")).toBe(TITLE);
    expect(href("Facebook").searchParams.get("u")).toBe(URL_TO_SHARE);
    expect(href("Pinterest").searchParams.get("url")).toBe(URL_TO_SHARE);
    expect(href("Pinterest").searchParams.get("media")).toBe(
      "https://selfie.example/media/previews/abc_card.jpg",
    );
    const mail = links.getByRole("link", { name: "Email" }).getAttribute("href")!;
    expect(mail.startsWith("mailto:?")).toBe(true);
    expect(new URLSearchParams(mail.slice("mailto:?".length)).get("body")).toBe(URL_TO_SHARE);
    // No share sheet where the browser has none.
    expect(screen.queryByRole("button", { name: /Share…/ })).toBeNull();
  });

  it("with JavaScript: Copy link writes the address, and the share sheet opens where the browser has one", async () => {
    const writeText = vi.fn().mockResolvedValue(undefined);
    const share = vi.fn().mockResolvedValue(undefined);
    vi.stubGlobal("navigator", { ...navigator, clipboard: { writeText }, share });
    render(<ShareLinks url={URL_TO_SHARE} title={TITLE} />);
    fireEvent.click(await screen.findByRole("button", { name: "Copy link" }));
    expect(writeText).toHaveBeenCalledWith(URL_TO_SHARE);
    expect(await screen.findByRole("button", { name: "Copied" })).toBeInTheDocument();
    fireEvent.click(screen.getByRole("button", { name: "Share…" }));
    expect(share).toHaveBeenCalledWith({ url: URL_TO_SHARE, title: TITLE });
  });
});

// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, screen, waitFor, within } from "@testing-library/react";
import { renderWithRemix } from "#tests/setup/render-route";
import userEvent from "@testing-library/user-event";
import { useLocation } from "@remix-run/react";
import { ToastProvider } from "~/ui/toaster";
import { StyleGenerator } from "~/features/studio/components/style-generator";
import type { ImageJson, StylizedImageJson } from "~/features/studio/types";

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const IMAGE: ImageJson = {
  id: "img1",
  userId: "u1",
  originalUrl: "/media/originals/abcdefghijkl.png?exp=1&sig=x",
  width: 512,
  height: 512,
  bytes: 1234,
  mimeType: "image/png",
  createdAt: "2026-11-22T10:00:00.000Z",
};

function Where() {
  const location = useLocation();
  return <p data-testid="location">{location.pathname + location.search}</p>;
}

function renderGenerator(pending: StylizedImageJson | null = null) {
  renderWithRemix([
    {
      path: "/dashboard",
      Component: () => (
        <ToastProvider flash={null}>
          <StyleGenerator image={IMAGE} pending={pending} pollIntervalMs={1} />
          <Where />
        </ToastProvider>
      ),
    },
  ], { url: "/dashboard?image=img1&step=style" });
}

const answer = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });

/** A fake API: the stylize call, then the given statuses for each poll. */
function fakeApi(statuses: string[], error: string | null = null) {
  const polls: string[] = [];
  const fetch = vi.fn(async (url: string, init?: RequestInit) => {
    if (url === "/api/token-images/img1/stylize") {
      expect(init?.method).toBe("POST");
      expect(JSON.parse(String(init?.body))).toEqual({ style: "cartoon" });
      return answer(202, { id: "sty9", status: "pending" });
    }
    polls.push(url);
    const status = statuses[Math.min(polls.length - 1, statuses.length - 1)];
    return answer(200, {
      id: "sty9",
      status,
      styledUrl: status === "completed" ? "/media/styled/x.jpg" : null,
      error: status === "failed" ? error : null,
    });
  });
  vi.stubGlobal("fetch", fetch);
  return { fetch, polls };
}

async function generateCartoon() {
  const user = userEvent.setup();
  expect(screen.getByRole("button", { name: "Generate" })).toBeDisabled();
  await user.click(screen.getByRole("radio", { name: /Cartoon/ }));
  await user.click(screen.getByRole("button", { name: "Generate Cartoon Style" }));
}

describe("StyleGenerator with JavaScript", () => {
  it("shows the four cards with their badges and the original", () => {
    fakeApi(["pending"]);
    renderGenerator();
    expect(screen.getAllByRole("radio")).toHaveLength(4);
    expect(screen.getByText("Earn $25-75")).toBeInTheDocument();
    expect(screen.getByText("Very High demand")).toBeInTheDocument();
    expect(screen.getByAltText("Your original selfie")).toHaveAttribute("src", IMAGE.originalUrl);
  });

  it("asks for the style, polls until completed, says 'AI Style Generated!' and moves to optimize", async () => {
    const { polls } = fakeApi(["pending", "processing", "completed"]);
    renderGenerator();
    await generateCartoon();
    expect(await screen.findByTestId("generating-overlay")).toHaveTextContent("Generating your Cartoon style…");
    expect(screen.getByRole("progressbar")).toHaveAttribute("aria-valuenow", "33");
    const toast = await screen.findByTestId("toast");
    expect(within(toast).getByText("AI Style Generated!")).toBeInTheDocument();
    expect(within(toast).getByText("Your Cartoon transformation is complete.")).toBeInTheDocument();
    expect(polls).toEqual([
      "/api/token-stylized-images/sty9",
      "/api/token-stylized-images/sty9",
      "/api/token-stylized-images/sty9",
    ]);
    await waitFor(() => expect(screen.getByTestId("location")).toHaveTextContent("/dashboard?styled=sty9&step=optimize"));
  });

  it("says 'Generation Failed' / 'AI processing failed' when the style failed", async () => {
    fakeApi(["processing", "failed"], "The model could not read this photo.");
    renderGenerator();
    await generateCartoon();
    const toast = await screen.findByTestId("toast");
    expect(within(toast).getByText("Generation Failed")).toBeInTheDocument();
    expect(within(toast).getByText("AI processing failed")).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByTestId("generating-overlay")).toBeNull());
    expect(screen.getByTestId("location")).toHaveTextContent("/dashboard?image=img1&step=style");
  });

  it("gives up after 30 polls with 'AI processing timed out'", async () => {
    const { polls } = fakeApi(["pending"]);
    renderGenerator();
    await generateCartoon();
    const toast = await screen.findByTestId("toast", {}, { timeout: 5000 });
    expect(within(toast).getByText("AI processing timed out")).toBeInTheDocument();
    expect(polls).toHaveLength(30);
  });

  it("after a reload, follows the style the server is still making until it is done (asks for no new one)", async () => {
    const { fetch, polls } = fakeApi(["processing", "completed"]);
    const inProgress = { id: "sty9", imageId: "img1", style: "anime", status: "processing" } as StylizedImageJson;
    renderGenerator(inProgress);
    expect(await screen.findByTestId("generating-overlay")).toHaveTextContent("Generating your Anime style…");
    const toast = await screen.findByTestId("toast");
    expect(within(toast).getByText("Your Anime transformation is complete.")).toBeInTheDocument();
    expect(polls).toEqual(["/api/token-stylized-images/sty9", "/api/token-stylized-images/sty9"]);
    expect(fetch.mock.calls.some(([url]) => String(url).endsWith("/stylize"))).toBe(false);
    await waitFor(() => expect(screen.getByTestId("location")).toHaveTextContent("/dashboard?styled=sty9&step=optimize"));
  });

  it("shows the server's reason when the request itself is refused", async () => {
    vi.stubGlobal(
      "fetch",
      vi.fn(async () => answer(429, { message: "You already have 8 styles in progress. Please wait for them to finish." })),
    );
    renderGenerator();
    await generateCartoon();
    const toast = await screen.findByTestId("toast");
    expect(within(toast).getByText("Generation Failed")).toBeInTheDocument();
    expect(within(toast).getByText(/8 styles in progress/)).toBeInTheDocument();
  });
});

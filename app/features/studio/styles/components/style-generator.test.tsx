// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, screen, waitFor } from "@testing-library/react";
import { renderWithRemix } from "#tests/setup/render-route";
import userEvent from "@testing-library/user-event";
import { useLocation } from "@remix-run/react";
import { redirect } from "@remix-run/node";
import { ToastProvider } from "~/ui/toaster";
import { StyleGenerator } from "~/features/studio/styles/components/style-generator";
import type { StylizedImageJson } from "~/features/studio/types";
import { TEST_IMAGE, stylizedJson } from "#tests/setup/studio-json";

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const IMAGE = TEST_IMAGE;

function Where() {
  const location = useLocation();
  return <p data-testid="location">{location.pathname + location.search}</p>;
}

function renderGenerator(pending: StylizedImageJson | null = null) {
  const posts: Record<string, FormDataEntryValue>[] = [];
  let answerPost: (() => void) | null = null;
  renderWithRemix(
    [
      {
        path: "/dashboard",
        Component: () => (
          <ToastProvider flash={null}>
            <StyleGenerator image={IMAGE} pending={pending} />
            <Where />
          </ToastProvider>
        ),
        // The dashboard's action: the style is asked for, and the page then waits for it by URL.
        action: async ({ request }) => {
          posts.push(Object.fromEntries(await request.formData()));
          await new Promise<void>((resolve) => (answerPost = resolve));
          return redirect("/dashboard?image=img1&step=style&pending=sty9#pipeline");
        },
      },
    ],
    { url: "/dashboard?image=img1&step=style" },
  );
  return { posts, answer: () => answerPost?.() };
}

const PENDING = stylizedJson({
  id: "sty9",
  style: "cartoon",
  status: "processing",
  styledUrl: null,
  stylizedUrl: null,
  width: null,
  height: null,
  bytes: null,
  createdAt: "2026-11-22T10:00:00.000Z",
  completedAt: null,
});

async function generateCartoon() {
  const user = userEvent.setup();
  expect(screen.getByRole("button", { name: "Generate" })).toBeDisabled();
  await user.click(screen.getByRole("radio", { name: /Cartoon/ }));
  await user.click(screen.getByRole("button", { name: "Generate Cartoon Style" }));
}

describe("StyleGenerator with JavaScript", () => {
  it("shows the four cards with their badges and the original", () => {
    renderGenerator();
    expect(screen.getAllByRole("radio")).toHaveLength(4);
    expect(screen.getByText("Earn $25-75")).toBeInTheDocument();
    expect(screen.getByText("Very High demand")).toBeInTheDocument();
    expect(screen.getByAltText("Your original selfie")).toHaveAttribute("src", IMAGE.originalUrl);
  });

  it("posts the style to the dashboard's action without leaving the page, showing the progress overlay meanwhile", async () => {
    const { posts, answer } = renderGenerator();
    await generateCartoon();
    expect(await screen.findByTestId("generating-overlay")).toBeInTheDocument();
    expect(screen.getByTestId("location")).toHaveTextContent("/dashboard?image=img1&step=style");
    answer();
    await waitFor(() =>
      expect(posts).toEqual([
        {
          intent: "stylize",
          id: "img1",
          back: "/dashboard?image=img1&step=style",
          style: "cartoon",
        },
      ]),
    );
    await waitFor(() =>
      expect(screen.getByTestId("location")).toHaveTextContent(
        "/dashboard?image=img1&step=style&pending=sty9",
      ),
    );
  });

  it("shows the overlay for a style the page waits for, and Generate stays off", () => {
    renderGenerator(PENDING);
    expect(screen.getByTestId("generating-overlay")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: /^Generate/ })).toBeDisabled();
  });
});

// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, screen, waitFor, within } from "@testing-library/react";
import { renderWithRemix } from "#tests/setup/render-route";
import userEvent from "@testing-library/user-event";
import { useLocation } from "@remix-run/react";
import { redirect } from "@remix-run/node";
import { ToastProvider } from "~/ui/toaster";
import { DemoFiguresProvider } from "~/ui/demo-figures";
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

function renderGenerator(pending: StylizedImageJson | null = null, demoFigures = false) {
  const posts: Record<string, FormDataEntryValue>[] = [];
  let answerPost: (() => void) | null = null;
  renderWithRemix(
    [
      {
        path: "/dashboard",
        Component: () => (
          <DemoFiguresProvider on={demoFigures}>
            <ToastProvider flash={null}>
              <StyleGenerator image={IMAGE} pending={pending} />
              <Where />
            </ToastProvider>
          </DemoFiguresProvider>
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
  it("with DEMO_FIGURES on, shows the four cards with the spec's badges, labelled, and the original", () => {
    renderGenerator(null, true);
    expect(screen.getAllByRole("radio")).toHaveLength(4);
    for (const [name, earn, demand] of [
      ["Professional", "$50-150", "High"],
      ["Cartoon", "$25-75", "Very High"],
      ["Anime", "$30-100", "High"],
      ["Fantasy", "$40-120", "Medium"],
    ]) {
      const card = screen.getByRole("radio", { name: new RegExp(name) }).closest("label")!;
      expect(card).toHaveTextContent(`Earn ${earn}`);
      expect(card).toHaveTextContent(`${demand} demand`);
      expect(within(card).getByTestId("illustrative")).toHaveTextContent("Example figures");
    }
    expect(screen.getByAltText("Your original selfie")).toHaveAttribute("src", IMAGE.originalUrl);
  });

  it("with DEMO_FIGURES off (a live store), shows the four cards with no invented earnings or demand", () => {
    renderGenerator();
    expect(screen.getAllByRole("radio")).toHaveLength(4);
    expect(screen.getByText("Cartoon")).toBeInTheDocument();
    expect(screen.getByTestId("style-generator")).not.toHaveTextContent(/Earn \$|demand|\$\d/);
    expect(screen.queryByTestId("style-figures")).toBeNull();
    expect(screen.queryByTestId("illustrative")).toBeNull();
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

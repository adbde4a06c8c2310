// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { renderWithRemix } from "#tests/setup/render-route";
import userEvent from "@testing-library/user-event";
import { ToastProvider } from "~/ui/toaster";
import { UploadWidget } from "~/features/studio/images/components/upload-widget";
import type { ImageJson } from "~/features/studio/types";
import { TEST_IMAGE } from "#tests/setup/studio-json";

afterEach(() => {
  cleanup();
});

const IMAGE = TEST_IMAGE;

/** The dashboard's action as the widget's fetcher reaches it: each post recorded, answered by `answerWith`. */
type Posted = { url: URL; method: string; form: FormData };
const posted: Posted[] = [];
let answerWith: (post: Posted) => Response | Promise<Response> = () => answer(500, {});
const action = vi.fn(async ({ request }: { request: Request }) => {
  const post = {
    url: new URL(request.url),
    method: request.method,
    form: await request.formData(),
  };
  posted.push(post);
  return answerWith(post);
});

beforeEach(() => {
  posted.length = 0;
  action.mockClear();
});

function renderWidget(uploaded: ImageJson | null = null) {
  renderWithRemix(
    [
      {
        path: "/dashboard",
        action,
        Component: () => (
          <ToastProvider flash={null}>
            <UploadWidget uploaded={uploaded} />
          </ToastProvider>
        ),
      },
    ],
    { url: "/dashboard" },
  );
  return {
    widget: screen.getByTestId("upload-widget"),
    input: screen.getByLabelText("Choose a selfie to upload") as HTMLInputElement,
    dropZone: screen
      .getByText(/Drag and drop your selfie here, or click to browse/)
      .closest("label")!,
  };
}

const file = (name: string, type: string, size: number) => {
  // Its name is its content too: the router's Request keeps a file's bytes, not its name, in this test environment.
  const f = new File([name], name, { type });
  Object.defineProperty(f, "size", { value: size });
  return f;
};

function answer(status: number, body: unknown) {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "Content-Type": "application/json" },
  });
}

const toast = () => screen.findByTestId("toast");

describe("UploadWidget", () => {
  it("starts idle with its copy, and shows the dragging state while a file is over it", async () => {
    const { widget, dropZone } = renderWidget();
    expect(widget).toHaveAttribute("data-state", "idle");
    expect(screen.getByText("JPG and PNG up to 10MB")).toBeInTheDocument();
    fireEvent.dragEnter(dropZone, { dataTransfer: { files: [] } });
    expect(widget).toHaveAttribute("data-state", "dragging");
    expect(screen.getByText("Drop your selfie here")).toBeInTheDocument();
    fireEvent.dragLeave(dropZone, { dataTransfer: { files: [] } });
    expect(widget).toHaveAttribute("data-state", "idle");
  });

  it("refuses a file over 10 MB with 'File Too Large', checking the size before the type", async () => {
    const { widget, input } = renderWidget();
    await userEvent
      .setup({ applyAccept: false })
      .upload(input, file("notes.txt", "text/plain", 11 * 1024 * 1024));
    expect(widget).toHaveAttribute("data-state", "error");
    const alert = screen.getByRole("alert");
    expect(alert).toHaveTextContent("File Too Large");
    expect(alert).toHaveTextContent("Please select a file smaller than 10MB.");
    expect(within(await toast()).getByText("File Too Large")).toBeInTheDocument();
    expect(action).not.toHaveBeenCalled();
  });

  it("refuses a file that is not an image with 'Invalid File Type'", async () => {
    const { widget, input } = renderWidget();
    await userEvent
      .setup({ applyAccept: false })
      .upload(input, file("notes.txt", "text/plain", 1000));
    expect(widget).toHaveAttribute("data-state", "error");
    expect(screen.getByRole("alert")).toHaveTextContent("Invalid File Type");
    expect(screen.getByRole("alert")).toHaveTextContent(
      "Please select a valid image file (JPG or PNG).",
    );
    expect(action).not.toHaveBeenCalled();
  });

  it("uploads: processing, then success with the toast and a Choose Style button", async () => {
    let finish!: (response: Response) => void;
    answerWith = () => new Promise<Response>((resolve) => (finish = resolve));
    const { widget, input } = renderWidget();
    const selfie = file("me.png", "image/png", 200_000);
    await userEvent.setup().upload(input, selfie);

    expect(widget).toHaveAttribute("data-state", "processing");
    expect(screen.getByText("Uploading your selfie…")).toBeInTheDocument();
    await waitFor(() => expect(action).toHaveBeenCalledTimes(1));
    // The dashboard's own action, marked so it answers the fetcher with data.
    const [{ url, method, form }] = posted;
    expect(`${url.pathname}${url.search}`).toBe("/dashboard?_js=1");
    expect(method).toBe("POST");
    expect(await (form.get("image") as Blob).text()).toBe(selfie.name);

    finish(answer(200, { ok: true, images: [IMAGE], refused: [] }));
    await waitFor(() => expect(widget).toHaveAttribute("data-state", "success"));
    const shown = await toast();
    expect(within(shown).getByText("Upload Successful")).toBeInTheDocument();
    expect(
      within(shown).getByText("Your selfie has been uploaded successfully!"),
    ).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Choose Style" })).toHaveAttribute(
      "href",
      "/dashboard?image=img1&step=style#pipeline",
    );
  });

  it("sends several dropped files in one request, checking each first, and names each refused one", async () => {
    const second = { ...IMAGE, id: "img2" };
    answerWith = () =>
      answer(200, {
        ok: true,
        images: [IMAGE, second],
        refused: [
          {
            index: 2,
            filename: "broken.jpg",
            status: 415,
            message: "Please select a valid image file (JPG or PNG).",
          },
        ],
      });
    const { widget, dropZone } = renderWidget();
    const files = [
      file("first.jpg", "image/jpeg", 1000),
      file("second.jpg", "image/jpeg", 1000),
      file("broken.jpg", "image/jpeg", 1000),
      file("huge.jpg", "image/jpeg", 11 * 1024 * 1024),
    ];
    fireEvent.drop(dropZone, { dataTransfer: { files } });
    await waitFor(() => expect(widget).toHaveAttribute("data-state", "success"));
    expect(action).toHaveBeenCalledTimes(1);
    // The file over 10 MB never leaves the browser; the other three go in one request.
    const sent = await Promise.all(
      posted[0]!.form.getAll("image").map((part) => (part as Blob).text()),
    );
    expect(sent).toEqual(files.slice(0, 3).map((chosen) => chosen.name));
    const alert = screen.getByRole("alert");
    expect(alert).toHaveTextContent("2 of 4 selfies uploaded.");
    expect(alert).toHaveTextContent("broken.jpg: Please select a valid image file (JPG or PNG).");
    expect(alert).toHaveTextContent("huge.jpg: Please select a file smaller than 10MB.");
    expect(within(await toast()).getByText("Some files were not uploaded")).toBeInTheDocument();
  });

  it("refuses more than 10 files at once without sending any", async () => {
    const { widget, dropZone } = renderWidget();
    const files = Array.from({ length: 11 }, (_, i) => file(`s${i}.jpg`, "image/jpeg", 1000));
    fireEvent.drop(dropZone, { dataTransfer: { files } });
    await waitFor(() => expect(widget).toHaveAttribute("data-state", "error"));
    expect(screen.getByRole("alert")).toHaveTextContent("Please select at most 10 images at once.");
    expect(action).not.toHaveBeenCalled();
  });

  it("lets the file input take several files", () => {
    const { input } = renderWidget();
    expect(input.multiple).toBe(true);
    expect(screen.getByText("Up to 10 selfies at once")).toBeInTheDocument();
  });

  it("shows the server's refusal: 'Invalid File Type' for 415, 'Upload Failed' with the message otherwise", async () => {
    const answers = [
      answer(415, {
        ok: false,
        status: 415,
        message: "Please select a valid image file (JPG or PNG).",
      }),
      answer(500, { ok: false, status: 500, message: "Something went wrong. Please try again." }),
    ];
    answerWith = () => answers.shift()!;
    const { widget, input } = renderWidget();
    const user = userEvent.setup();
    await user.upload(input, file("fake.png", "image/png", 1000));
    await waitFor(() => expect(widget).toHaveAttribute("data-state", "error"));
    expect(screen.getByRole("alert")).toHaveTextContent("Invalid File Type");

    await user.upload(input, file("photo.png", "image/png", 1000));
    await waitFor(() => expect(screen.getByRole("alert")).toHaveTextContent("Upload Failed"));
    expect(screen.getByRole("alert")).toHaveTextContent("Something went wrong. Please try again.");
    expect(within(await toast()).getByText("Upload Failed")).toBeInTheDocument();
  });

  it("says a signed-out creator is logged out when the action answers 401", async () => {
    answerWith = () =>
      answer(401, { ok: false, status: 401, message: "You are logged out. Logging in again..." });
    const { widget, input } = renderWidget();
    await userEvent.setup().upload(input, file("me.png", "image/png", 1000));
    const shown = await toast();
    expect(within(shown).getByText("Unauthorized")).toBeInTheDocument();
    expect(within(shown).getByText("You are logged out. Logging in again...")).toBeInTheDocument();
    expect(widget).toHaveAttribute("data-state", "idle");
    expect(screen.queryByRole("alert")).toBeNull();
  });

  it("opens in the success state for an image just uploaded by the form without JavaScript", () => {
    const { widget } = renderWidget(IMAGE);
    expect(widget).toHaveAttribute("data-state", "success");
    expect(screen.getByRole("link", { name: "Choose Style" })).toHaveAttribute(
      "href",
      "/dashboard?image=img1&step=style#pipeline",
    );
  });
});

// @vitest-environment jsdom
import "@testing-library/jest-dom/vitest";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { act, cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { getFormProps, getInputProps } from "@conform-to/react";
import type { SubmissionResult } from "@conform-to/react";
import { z } from "zod";
import { useScreenForm } from "~/ui/forms/use-screen-form";

const schema = z.object({
  email: z.string({ error: "Email is required" }).email("Enter a valid email"),
});

/** The schema, once the test lets it load (a deferred import in the app). */
let releaseSchema: () => void;
const loadSchema = vi.fn(
  () =>
    new Promise<typeof schema>((resolve) => {
      releaseSchema = () => resolve(schema);
    }),
);

function EmailForm({
  lastResult,
  defaultEmail,
}: {
  lastResult?: SubmissionResult<string[]> | null;
  defaultEmail?: string;
}) {
  const [form, fields] = useScreenForm({
    id: "test-form",
    loadSchema,
    lastResult,
    defaultValue: defaultEmail ? { email: defaultEmail } : undefined,
  });
  return (
    <form method="post" {...getFormProps(form)} data-testid="form">
      {form.errors?.length ? <p data-testid="form-errors">{form.errors[0]}</p> : null}
      <label htmlFor={fields.email.id}>Email</label>
      <input
        {...getInputProps(fields.email, { type: "email", ariaAttributes: true })}
        key={fields.email.key}
      />
      {fields.email.errors?.length ? (
        <p id={fields.email.errorId} data-testid="email-error">
          {fields.email.errors[0]}
        </p>
      ) : null}
      <button type="submit">Send</button>
    </form>
  );
}

/** Whether each submit event that reached the document was stopped (the client refused it). */
let submits: boolean[];
function recordSubmit(event: Event) {
  submits.push(event.defaultPrevented);
  // jsdom cannot navigate: stop the post that would follow an accepted submit.
  event.preventDefault();
}

/** Waits until the schema was asked for, lets it load, and lets the validator take its place. */
async function loadValidator() {
  await waitFor(() => expect(loadSchema).toHaveBeenCalled());
  await act(async () => {
    releaseSchema();
    await new Promise((resolve) => setTimeout(resolve, 0));
  });
}

function submit() {
  fireEvent.click(screen.getByRole("button", { name: "Send" }));
}

function typeEmail(value: string) {
  fireEvent.input(screen.getByLabelText("Email"), { target: { value } });
}

beforeEach(() => {
  submits = [];
  loadSchema.mockClear();
  document.addEventListener("submit", recordSubmit);
});

afterEach(() => {
  document.removeEventListener("submit", recordSubmit);
  cleanup();
});

describe("useScreenForm", () => {
  it("gives the form its id, the fields ids derived from it, and the default values", () => {
    render(<EmailForm defaultEmail="ada@example.com" />);
    const form = screen.getByTestId("form");
    expect(form).toHaveAttribute("id", "test-form");
    const input = screen.getByLabelText("Email");
    expect(input).toHaveAttribute("name", "email");
    expect(input.id).toContain("test-form");
    expect(input).toHaveValue("ada@example.com");
  });

  it("marks the fields and the form with the action's reply (a post without JavaScript)", () => {
    render(
      <EmailForm
        lastResult={{
          status: "error",
          initialValue: { email: "taken@example.com" },
          error: { email: ["That email is taken"], "": ["Try again later"] },
        }}
      />,
    );
    expect(screen.getByTestId("email-error")).toHaveTextContent("That email is taken");
    expect(screen.getByLabelText("Email")).toHaveAttribute("aria-invalid", "true");
    expect(screen.getByLabelText("Email")).toHaveValue("taken@example.com");
    expect(screen.getByTestId("form-errors")).toHaveTextContent("Try again later");
  });

  it("leaves validation to the server until the schema has loaded", async () => {
    render(<EmailForm />);
    await waitFor(() => expect(loadSchema).toHaveBeenCalled());
    typeEmail("not an email");
    submit();
    expect(submits).toEqual([false]);
    expect(screen.queryByTestId("email-error")).not.toBeInTheDocument();
  });

  it("checks the form with the schema on submit, not while typing before it", async () => {
    render(<EmailForm />);
    await loadValidator();
    typeEmail("not an email");
    await act(async () => {});
    expect(screen.queryByTestId("email-error")).not.toBeInTheDocument();

    submit();
    expect(submits).toEqual([true]);
    expect(await screen.findByTestId("email-error")).toHaveTextContent("Enter a valid email");
    expect(screen.getByLabelText("Email")).toHaveAttribute("aria-invalid", "true");
  });

  it("checks again on every input once submitted, and lets a valid form post", async () => {
    render(<EmailForm />);
    await loadValidator();
    submit();
    expect(await screen.findByTestId("email-error")).toHaveTextContent("Email is required");

    typeEmail("ada@");
    await waitFor(() =>
      expect(screen.getByTestId("email-error")).toHaveTextContent("Enter a valid email"),
    );
    typeEmail("ada@example.com");
    await waitFor(() => expect(screen.queryByTestId("email-error")).not.toBeInTheDocument());

    submits = [];
    submit();
    expect(submits).toEqual([false]);
  });
});

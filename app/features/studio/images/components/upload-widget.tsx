import { Form, Link, useFetcher } from "@remix-run/react";
import { useCallback, useEffect, useId, useRef, useState } from "react";
import type { DragEvent, FormEvent } from "react";
import { Spinner } from "~/ui/navigation-progress";
import { useToast } from "~/ui/toaster";
import { atPipeline, dashboardUrl } from "~/features/studio/workspace/dashboard-url";
import { MAX_UPLOAD_FILES, UPLOAD_FIELD, UPLOAD_MESSAGES } from "~/lib/limits";
import { ApiError } from "~/features/studio/studio-api";
import type { RefusedFile, UploadAnswer } from "~/features/studio/images/upload-toasts";
import {
  severalRefusedToast,
  UPLOAD_FETCHER_ACTION,
  uploadRefusedToast,
  uploadToast,
} from "~/features/studio/images/upload-toasts";
import type { ImageJson } from "~/features/studio/types";
import { checkUploadFile } from "~/lib/upload-check";
import { StudioImage } from "~/features/studio/images/components/studio-image";
import { useHydrated } from "~/ui/use-hydrated";
import { useSignInAgain } from "~/features/studio/workspace/components/use-sign-in-again";

export type UploadState = "idle" | "dragging" | "processing" | "success" | "error";

interface Problem {
  title: string;
  description: string;
}

/**
 * The upload widget: drag and drop or click to browse; idle, dragging,
 * processing, success and error; up to MAX_UPLOAD_FILES selfies at once (each
 * file's size checked before its type, the files that pass sent in one
 * request, and each refused one named with its reason). Without JavaScript it
 * is a plain multipart form posted to the dashboard, which runs the same upload.
 */
export function UploadWidget({
  uploaded,
}: {
  /** An image just uploaded (e.g. by the form without JavaScript): shown in the success state. */
  uploaded: ImageJson | null;
}) {
  const hydrated = useHydrated();
  const toast = useToast();
  const signInAgain = useSignInAgain();
  const inputId = useId();
  const input = useRef<HTMLInputElement>(null);
  const [state, setState] = useState<UploadState>(uploaded ? "success" : "idle");
  const [image, setImage] = useState<ImageJson | null>(uploaded);
  const [problem, setProblem] = useState<Problem | null>(null);
  /** How many selfies the upload in progress sends. */
  const [sending, setSending] = useState(1);
  const uploading = useFetcher<UploadAnswer>();
  /** The upload sent last: how many files were chosen, the ones refused before sending, and each sent file's place among them. */
  const asked = useRef<{ files: number; early: RefusedFile[]; sentIndexes: number[] }>({
    files: 1,
    early: [],
    sentIndexes: [],
  });

  const fail = useCallback(
    (next: { title: string; description?: string }) => {
      setProblem({ title: next.title, description: next.description ?? "" });
      setState("error");
      toast({ kind: "error", title: next.title, description: next.description });
    },
    [toast],
  );

  function upload(list: FileList | null | undefined) {
    const files = Array.from(list ?? []);
    if (input.current) input.current.value = "";
    if (files.length === 0) {
      setState(image ? "success" : "idle");
      return;
    }
    if (files.length > MAX_UPLOAD_FILES) {
      fail({ title: "Too many files", description: UPLOAD_MESSAGES.tooMany });
      return;
    }
    // Checked here first (size, then type); only the files that pass are sent.
    const early = files.flatMap((file, index) => {
      const invalid = checkUploadFile(file);
      return invalid ? [{ index, filename: file.name, message: invalid.description }] : [];
    });
    const sent = files.flatMap((file, index) =>
      early.some((item) => item.index === index) ? [] : [{ file, index }],
    );
    if (sent.length === 0) {
      if (files.length === 1) fail(checkUploadFile(files[0]!)!);
      else fail(severalRefusedToast(null, early));
      return;
    }
    const body = new FormData();
    for (const { file } of sent) body.append(UPLOAD_FIELD, file);
    asked.current = { files: files.length, early, sentIndexes: sent.map((item) => item.index) };
    setProblem(null);
    setSending(sent.length);
    setState("processing");
    uploading.submit(body, {
      method: "post",
      action: UPLOAD_FETCHER_ACTION,
      encType: "multipart/form-data",
    });
  }

  // The action's answer, once (the page's data is reloaded with it).
  const answered = useRef<UploadAnswer | null>(null);
  useEffect(() => {
    const answer = uploading.data;
    if (uploading.state !== "idle" || !answer || answered.current === answer) return;
    answered.current = answer;
    const { files, early, sentIndexes } = asked.current;
    if (!answer.ok) {
      if (signInAgain(new ApiError(answer.status, answer.message))) setState("idle");
      else if (files === 1) fail(uploadRefusedToast(answer));
      else fail(severalRefusedToast(answer.message, early));
      return;
    }
    const refused = [
      ...early,
      // The server counts the files it was sent; the creator counts the files they chose.
      ...answer.refused.map((item) => ({ ...item, index: sentIndexes[item.index] ?? item.index })),
    ];
    const told = uploadToast({ files, stored: answer.images.length, refused });
    setImage(answer.images.at(-1) ?? null);
    setState("success");
    setProblem(
      told.kind === "error" ? { title: told.title, description: told.description ?? "" } : null,
    );
    toast(told);
  }, [uploading.data, uploading.state, toast, signInAgain, fail]);

  const onDrag = (event: DragEvent, over: boolean) => {
    event.preventDefault();
    if (state === "processing") return;
    setState(over ? "dragging" : image ? "success" : problem ? "error" : "idle");
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    if (!hydrated) return;
    event.preventDefault();
    upload(input.current?.files);
  };

  return (
    <section
      aria-labelledby={`${inputId}-heading`}
      className="card p-6"
      data-testid="upload-widget"
      data-state={state}
    >
      <h2 id={`${inputId}-heading`} className="text-lg font-semibold text-slate-900">
        Upload your selfie
      </h2>
      <Form
        method="post"
        action="/dashboard"
        encType="multipart/form-data"
        onSubmit={onSubmit}
        className="mt-4 [&:has(input[type=file]:focus-visible)>label]:ring-2 [&:has(input[type=file]:focus-visible)>label]:ring-brand-500"
      >
        <label
          htmlFor={inputId}
          onDragEnter={(event) => onDrag(event, true)}
          onDragOver={(event) => onDrag(event, true)}
          onDragLeave={(event) => onDrag(event, false)}
          onDrop={(event) => {
            event.preventDefault();
            if (state !== "processing") upload(event.dataTransfer.files);
          }}
          className={`flex cursor-pointer flex-col items-center justify-center rounded-xl border-2 border-dashed px-6 py-10 text-center transition-colors ${
            state === "dragging"
              ? "border-brand-500 bg-brand-50"
              : state === "error"
                ? "border-red-300 bg-red-50"
                : "border-slate-300 bg-slate-50 hover:border-brand-400"
          }`}
        >
          {state === "processing" ? (
            <span className="flex flex-col items-center gap-3" role="status">
              <Spinner className="h-8 w-8" />
              <span className="font-medium text-slate-800">
                {sending > 1 ? `Uploading ${sending} selfies…` : "Uploading your selfie…"}
              </span>
            </span>
          ) : (
            <>
              <svg viewBox="0 0 24 24" className="h-10 w-10 text-brand-600" aria-hidden="true">
                <path
                  d="M12 16V4m0 0-4 4m4-4 4 4M4 16v2a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2v-2"
                  fill="none"
                  stroke="currentColor"
                  strokeWidth="2"
                  strokeLinecap="round"
                  strokeLinejoin="round"
                />
              </svg>
              <span className="mt-3 font-medium text-slate-900">
                {state === "dragging"
                  ? "Drop your selfie here"
                  : "Drag and drop your selfie here, or click to browse"}
              </span>
              <span className="mt-1 text-sm text-slate-600">JPG and PNG up to 10MB</span>
              <span className="text-sm text-slate-600">
                Up to {MAX_UPLOAD_FILES} selfies at once
              </span>
            </>
          )}
        </label>
        <div className={hydrated ? "sr-only" : "mt-4 flex flex-wrap items-center gap-3"}>
          <input
            ref={input}
            id={inputId}
            type="file"
            name="image"
            accept="image/*"
            multiple
            aria-label="Choose a selfie to upload"
            required
            disabled={state === "processing"}
            onChange={(event) => upload(event.currentTarget.files)}
            className="w-full max-w-full text-sm sm:w-auto"
          />
          {hydrated ? null : (
            <button type="submit" className="btn-primary">
              Upload
            </button>
          )}
        </div>
      </Form>

      {problem && (state === "error" || state === "success") ? (
        <div
          role="alert"
          className="mt-4 rounded-lg border border-red-200 bg-red-50 p-3 text-sm text-red-800"
        >
          <p className="font-semibold">{problem.title}</p>
          <p>{problem.description}</p>
        </div>
      ) : null}

      {state === "success" && image ? (
        <div className="mt-4 flex flex-wrap items-center gap-4 rounded-lg border border-emerald-200 bg-emerald-50 p-3">
          <StudioImage
            src={image.originalUrl}
            alt="Your uploaded selfie"
            className="h-16 w-16 rounded-lg object-cover"
          />
          <div className="flex-1">
            <p className="font-semibold text-emerald-900">Upload complete</p>
            <p className="text-sm text-emerald-800">
              {image.width} × {image.height} px. Next, pick one of the four AI styles.
            </p>
          </div>
          <Link
            to={atPipeline(dashboardUrl({ image: image.id, step: "style" }))}
            className="btn-primary"
          >
            Choose Style
          </Link>
        </div>
      ) : null}
    </section>
  );
}

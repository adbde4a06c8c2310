import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { PDFDocument } from "pdf-lib";
import { describe, expect, it } from "vitest";
import { HttpError } from "~/infra/errors.server";
import { findAppSourceFile } from "~/infra/app-source-file.server";
import {
  checkReleasePdf,
  RELEASE_PDF_LIMITS,
  RELEASE_PDF_WORKER,
} from "~/features/publishing/releases/release-pdf-check.server";
import { pdfWithManyObjects, pdfWithObjectStreamBomb } from "#tests/setup/hostile-files";

/**
 * The uploaded release's check: pdf-lib in a worker thread of its own, with a
 * limit on what the file's streams unpack to, on its heap and on its time.
 */

async function aPdf(pages: number, useObjectStreams = true): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  for (let page = 0; page < pages; page++) pdf.addPage().drawText(`Page ${page + 1}`);
  return Buffer.from(await pdf.save({ useObjectStreams }));
}

describe("checkReleasePdf", () => {
  it("counts the pages of a PDF, with object streams and without", async () => {
    expect(await checkReleasePdf(await aPdf(3))).toEqual({ readable: true, pages: 3 });
    expect(await checkReleasePdf(await aPdf(2, false))).toEqual({ readable: true, pages: 2 });
  });

  it("refuses bytes without a PDF header before starting anything, and a PDF pdf-lib cannot open", async () => {
    expect(await checkReleasePdf(Buffer.from("<html>not a pdf</html>"))).toEqual({
      readable: false,
      reason: "not-a-pdf",
    });
    expect(await checkReleasePdf(Buffer.from("%PDF-1.7\nnothing else at all"))).toEqual({
      readable: false,
      reason: "unreadable",
    });
  });

  it("refuses a file whose streams would unpack past the limit, without unpacking them", async () => {
    // Refused when measured ("too-complex"), not ended by the time limit ("timed-out"), however long it is.
    expect(
      await checkReleasePdf(pdfWithObjectStreamBomb(64), {
        ...RELEASE_PDF_LIMITS,
        deadlineMs: 60_000,
      }),
    ).toEqual({ readable: false, reason: "too-complex" });
    // Just under the limit is measured and opened.
    expect(
      await checkReleasePdf(pdfWithObjectStreamBomb(8), {
        ...RELEASE_PDF_LIMITS,
        deadlineMs: 60_000,
      }),
    ).toEqual({ readable: true, pages: 1 });
  });

  it("refuses an object stream packed other than with Flate", async () => {
    const hex = Buffer.from("10 0 [1 2 3]").toString("hex") + ">";
    const objectStream = `<< /Type /ObjStm /N 1 /First 5 /Filter /ASCIIHexDecode /Length ${hex.length} >>\nstream\n${hex}\nendstream`;
    const file = Buffer.from(
      "%PDF-1.7\n" +
        "1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n" +
        "2 0 obj\n<< /Type /Pages /Kids [3 0 R] /Count 1 >>\nendobj\n" +
        "3 0 obj\n<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>\nendobj\n" +
        `4 0 obj\n${objectStream}\nendobj\n` +
        "trailer\n<< /Size 5 /Root 1 0 R >>\n%%EOF\n",
      "latin1",
    );
    expect(await checkReleasePdf(file)).toEqual({ readable: false, reason: "too-complex" });
  });

  it("refuses a file of more objects than the limit by counting them, however long the deadline", async () => {
    const generous = { ...RELEASE_PDF_LIMITS, deadlineMs: 60_000 };
    expect(await checkReleasePdf(pdfWithManyObjects(50_000), generous)).toEqual({
      readable: false,
      reason: "too-complex",
    });
    // The page, its tree and the catalog are three more: just under the limit opens.
    const justUnder = pdfWithManyObjects(RELEASE_PDF_LIMITS.maxObjects - 3);
    expect(await checkReleasePdf(justUnder, generous)).toEqual({ readable: true, pages: 1 });
    const justOver = pdfWithManyObjects(RELEASE_PDF_LIMITS.maxObjects - 2);
    expect(await checkReleasePdf(justOver, generous)).toEqual({
      readable: false,
      reason: "too-complex",
    });
  });

  it("ends a worker that is still opening the file at the deadline", async () => {
    // A worker that says it is ready and then never answers: the deadline alone ends it.
    const folder = await mkdtemp(path.join(tmpdir(), "release-pdf-worker-"));
    const silent = path.join(folder, "never-answers.mjs");
    await writeFile(
      silent,
      'import { parentPort } from "node:worker_threads";\n' +
        'parentPort.on("message", () => {});\n' +
        "parentPort.postMessage({ ready: true });\n",
    );
    try {
      const started = performance.now();
      expect(await checkReleasePdf(await aPdf(1), RELEASE_PDF_LIMITS, silent)).toEqual({
        readable: false,
        reason: "timed-out",
      });
      const elapsed = performance.now() - started;
      expect(elapsed).toBeGreaterThanOrEqual(RELEASE_PDF_LIMITS.deadlineMs - 5);
      expect(elapsed).toBeLessThan(RELEASE_PDF_LIMITS.deadlineMs + 1500);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });

  it("ends the worker at the heap limit", async () => {
    // Uncounted objects, 200,000 of them: 50,000 sometimes fit in 16 MB, as the collector allows.
    const heavier = pdfWithManyObjects(200_000);
    expect(
      await checkReleasePdf(heavier, {
        ...RELEASE_PDF_LIMITS,
        deadlineMs: 60_000,
        heapMb: 16,
        maxObjects: Number.POSITIVE_INFINITY,
      }),
    ).toEqual({ readable: false, reason: "out-of-memory" });
  });

  it("answers 503 when the worker cannot even start by the deadline", async () => {
    const error = await checkReleasePdf(await aPdf(1), {
      ...RELEASE_PDF_LIMITS,
      deadlineMs: 1,
    }).then(
      () => null,
      (thrown: unknown) => thrown as HttpError,
    );
    expect(error?.status).toBe(503);
  });

  it("checks one file at a time, lets four wait, and answers 503 beyond them", async () => {
    // A deadline no worker start misses on a busy machine: only the gate may refuse here.
    const generous = { ...RELEASE_PDF_LIMITS, deadlineMs: 10_000 };
    const heavy = pdfWithManyObjects(50_000);
    const outcomes = await Promise.allSettled(
      Array.from({ length: 6 }, () => checkReleasePdf(heavy, generous)),
    );
    const refused = outcomes.filter((outcome) => outcome.status === "rejected");
    expect(refused).toHaveLength(1);
    const error = (refused[0] as PromiseRejectedResult).reason as HttpError;
    expect(error).toBeInstanceOf(HttpError);
    expect(error.status).toBe(503);
    expect(error.headers).toEqual({ "Retry-After": "5" });
    expect(outcomes.filter((outcome) => outcome.status === "fulfilled")).toHaveLength(5);
  });

  it("finds its worker's script in the source tree (the built server finds it under app/ beside build/)", () => {
    expect(findAppSourceFile(RELEASE_PDF_WORKER)).toMatch(
      /app\/features\/publishing\/releases\/release-pdf-worker\.mjs$/,
    );
  });
});

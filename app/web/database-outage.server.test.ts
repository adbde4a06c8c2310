import net from "node:net";
import { describe, expect, it } from "vitest";
import {
  isDatabaseUnavailable,
  startupRefusal,
  DATABASE_UNAVAILABLE_MESSAGE,
} from "~/infra/database-errors.server";
import { getDb, openDatabase } from "~/infra/db.server";
import { HttpError } from "~/infra/errors.server";
import { healthResponse } from "~/web/health.server";
import { errorResponse } from "~/web/http.server";
import { answerForOutage, noteDatabaseOutage } from "~/web/database-outage.server";
import { testTies } from "#tests/setup/ties";

/**
 * An unreachable database is an outage, not a bug: the health check says so
 * quickly, requests answer 503 with Retry-After, boot refuses with one line.
 * (tests/process/postgres-outage.spec.ts does it to a real server.)
 */
const refused = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), {
  code: "ECONNREFUSED",
});

describe("isDatabaseUnavailable", () => {
  it("knows connection failures from other errors", () => {
    expect(isDatabaseUnavailable(refused)).toBe(true);
    expect(isDatabaseUnavailable(new AggregateError([refused], ""))).toBe(true);
    expect(isDatabaseUnavailable({ code: "57P01", message: "terminating connection" })).toBe(true);
    expect(isDatabaseUnavailable({ code: "08006", message: "connection failure" })).toBe(true);
    expect(isDatabaseUnavailable(new Error("Connection terminated unexpectedly"))).toBe(true);
    expect(isDatabaseUnavailable(new Error("timeout exceeded when trying to connect"))).toBe(true);
    expect(isDatabaseUnavailable(new Error("wrapped", { cause: refused }))).toBe(true);
    expect(isDatabaseUnavailable({ code: "42601", message: "syntax error" })).toBe(false);
    expect(isDatabaseUnavailable({ code: "23505", message: "duplicate key" })).toBe(false);
    expect(isDatabaseUnavailable(new Error("SQLITE_CONSTRAINT"))).toBe(false);
    expect(isDatabaseUnavailable(new HttpError(503, "busy"))).toBe(false);
  });

  it("turns a failed first contact into one line for boot, and leaves a bug alone", () => {
    expect(startupRefusal(refused)?.message).toBe(
      "Not starting: The database is unreachable (connect ECONNREFUSED 127.0.0.1:5432). Check DATABASE_URL and that the database server is running.",
    );
    expect(
      startupRefusal({ code: "3D000", message: 'database "selfie" does not exist' })?.message,
    ).toBe(
      'Not starting: the database refused the connection: the database does not exist (database "selfie" does not exist). Check DATABASE_URL.',
    );
    expect(startupRefusal(new TypeError("x is undefined"))).toBeUndefined();
  });
});

describe("answers during an outage", () => {
  it("answers an /api call 503 JSON with Retry-After", async () => {
    const response = errorResponse(refused);
    expect(response.status).toBe(503);
    expect(response.headers.get("Retry-After")).toBe("5");
    expect(await response.json()).toEqual({ message: DATABASE_UNAVAILABLE_MESSAGE });
  });

  it("swaps a screen's 500 for a short 503 page when the request failed on the database", async () => {
    const context = { ties: testTies };
    const failed = new Response("error page", { status: 500 });
    expect(answerForOutage(context, "http://localhost/dashboard", failed)).toBeUndefined();
    expect(noteDatabaseOutage(context, new Error("a bug"))).toBe(false);
    expect(answerForOutage(context, "http://localhost/dashboard", failed)).toBeUndefined();
    expect(noteDatabaseOutage(context, refused)).toBe(true);
    const page = answerForOutage(context, "http://localhost/dashboard", failed)!;
    expect(page.status).toBe(503);
    expect(page.headers.get("Retry-After")).toBe("5");
    expect(page.headers.get("Content-Type")).toMatch(/text\/html/);
    expect(await page.text()).toContain(DATABASE_UNAVAILABLE_MESSAGE);
    const data = answerForOutage(
      context,
      "http://localhost/dashboard?_data=root",
      new Response(null, { status: 500 }),
    )!;
    expect(data.headers.get("Content-Type")).toMatch(/application\/json/);
    // A page that answered despite it (say, a 404) is left alone.
    expect(
      answerForOutage(context, "http://localhost/x", new Response(null, { status: 404 })),
    ).toBeUndefined();
  });
});

describe("/healthz", () => {
  it("is healthy when the database answers", async () => {
    const response = await healthResponse(getDb());
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: "ok" });
  });

  it("answers 503 quickly when the database refuses connections or never answers", async () => {
    // A port nothing listens on, and a server that accepts connections and never says a word.
    const closed = net.createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const closedPort = (closed.address() as net.AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const sockets: net.Socket[] = [];
    const silent = net.createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const silentPort = (silent.address() as net.AddressInfo).port;
    try {
      for (const port of [closedPort, silentPort]) {
        const db = openDatabase(`postgres://selfie@127.0.0.1:${port}/selfie`);
        try {
          const started = Date.now();
          const response = await healthResponse(db, 300);
          expect(response.status).toBe(503);
          expect(response.headers.get("Retry-After")).toBe("5");
          expect(await response.json()).toEqual({
            status: "error",
            message: "Database unavailable",
          });
          expect(Date.now() - started).toBeLessThan(2_000);
        } finally {
          for (const socket of sockets) socket.destroy();
          await db.destroy().catch(() => undefined);
        }
      }
    } finally {
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });
});

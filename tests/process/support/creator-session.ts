import fs from "node:fs";
import path from "node:path";
import { expect } from "@playwright/test";
import { DEMO_CREATOR } from "../../../db/demo-account";
import { ROOT, type RunningServer } from "./server-process";

/** The seeded demo creator, signed in by bearer token against one server process. */
export interface CreatorSession {
  token: string;
  call: (pathname: string, init?: RequestInit) => Promise<Response>;
  uploadImage: (fixture?: string) => Promise<{ id: string; originalUrl: string }>;
  stylize: (imageId: string, style: string) => Promise<{ id: string; status: string }>;
}

export async function signInCreator(server: Pick<RunningServer, "fetch">): Promise<CreatorSession> {
  const login = await server.fetch("/api/token-login", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ email: DEMO_CREATOR.email, password: DEMO_CREATOR.password }),
  });
  expect(login.status).toBe(200);
  const { token } = (await login.json()) as { token: string };
  const call = (pathname: string, init: RequestInit = {}) => {
    const headers = new Headers(init.headers);
    headers.set("Authorization", `Bearer ${token}`);
    return server.fetch(pathname, { ...init, headers });
  };
  return {
    token,
    call,
    async uploadImage(fixture = "portrait.png") {
      const form = new FormData();
      const bytes = fs.readFileSync(path.join(ROOT, "tests/fixtures", fixture));
      form.set(
        "image",
        new Blob([bytes], { type: fixture.endsWith(".png") ? "image/png" : "image/jpeg" }),
        fixture,
      );
      const response = await call("/api/token-images/upload", { method: "POST", body: form });
      expect(response.status, await response.clone().text()).toBe(201);
      return (await response.json()) as { id: string; originalUrl: string };
    },
    async stylize(imageId, style) {
      const response = await call(`/api/token-images/${imageId}/stylize`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ style }),
      });
      expect(response.status).toBe(202);
      return (await response.json()) as { id: string; status: string };
    },
  };
}

/** Polls `check` every `everyMs` until it answers a value (not undefined), for at most `ms`. */
export async function eventually<T>(
  what: string,
  check: () => T | undefined | Promise<T | undefined>,
  ms = 45_000,
  everyMs = 100,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`Timed out after ${ms} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

import type { AppLoadContext, ServerBuild } from "@remix-run/node";
import { describe, expect, it, vi } from "vitest";
import { apiRequestsFirst } from "./api-requests.server";

const context = { clientIp: "203.0.113.7" } as unknown as AppLoadContext;

function buildWith(module: Record<string, unknown>): ServerBuild {
  return {
    routes: {
      root: { id: "root", path: "", module: {} },
      "routes/api+/$": { id: "routes/api+/$", parentId: "root", path: "api/*", module },
      "routes/$": { id: "routes/$", parentId: "root", path: "*", module: {} },
    },
  } as unknown as ServerBuild;
}

const request = (path: string, method = "GET") =>
  new Request(`http://localhost${path}`, { method, body: method === "POST" ? "{}" : undefined });

describe("/api requests go to the /api route before Remix", () => {
  it("hands every /api path to the route's loader or action, and anything else to Remix", async () => {
    const loader = vi.fn(async (_args: unknown) => Response.json({ from: "loader" }));
    const action = vi.fn(async (_args: unknown) =>
      Response.json({ from: "action" }, { status: 201 }),
    );
    const remix = vi.fn(async () => new Response("page"));
    const handle = apiRequestsFirst(buildWith({ loader, action }), remix);

    expect(await (await handle(request("/api/marketplace?q=neon"), context)).json()).toEqual({
      from: "loader",
    });
    expect(loader.mock.calls[0][0]).toMatchObject({ context, params: {} });
    expect((await handle(request("/api/orders", "POST"), context)).status).toBe(201);
    expect((await handle(request("/api/marketplace", "HEAD"), context)).status).toBe(200);
    // Remix matches paths case-insensitively; so does this.
    expect((await handle(request("/API/marketplace"), context)).status).toBe(200);
    expect((await handle(request("/api"), context)).status).toBe(200);
    expect(loader).toHaveBeenCalledTimes(4);
    expect(action).toHaveBeenCalledTimes(1);
    expect(remix).not.toHaveBeenCalled();

    for (const path of ["/marketplace", "/apiary", "/", "/listings/api/x"])
      expect(await (await handle(request(path), context)).text()).toBe("page");
    expect(remix).toHaveBeenCalledTimes(4);
  });

  it("answers a thrown Response as Remix does, and leaves any other failure to the edge", async () => {
    const thrownResponse = apiRequestsFirst(
      buildWith({
        loader: async () => {
          throw Response.json({ message: "Not found" }, { status: 404 });
        },
        action: async () => {
          throw new Error("the database is gone");
        },
      }),
      async () => new Response("page"),
    );
    expect((await thrownResponse(request("/api/x"), context)).status).toBe(404);
    await expect(thrownResponse(request("/api/x", "POST"), context)).rejects.toThrow(
      "the database is gone",
    );

    const noResponse = apiRequestsFirst(
      buildWith({ loader: async () => ({ not: "a response" }), action: async () => null }),
      async () => new Response("page"),
    );
    await expect(noResponse(request("/api/x"), context)).rejects.toThrow("answered no Response");
  });

  it("refuses a build without the /api route, at start", () => {
    expect(() =>
      apiRequestsFirst({ routes: {} } as unknown as ServerBuild, async () => new Response()),
    ).toThrow("no /api route");
  });
});

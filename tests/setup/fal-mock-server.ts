import { afterAll, afterEach, beforeAll } from "vitest";
import { setupServer } from "msw/node";
import { createFalMock } from "#tests/mocks/fal";

/**
 * The fal.ai mock, answering the calling test file's requests to fal.ai (a
 * request no handler knows fails the test) and reset after each test.
 */
export function serveFalMock() {
  const fal = createFalMock();
  const server = setupServer(...fal.handlers);
  beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
  afterEach(() => {
    fal.reset();
    server.resetHandlers();
  });
  afterAll(() => server.close());
  return { fal, server };
}

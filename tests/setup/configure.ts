import { afterEach } from "vitest";
import { getConfig } from "~/infra/config.server";

/**
 * Answers `configure(values)`, which sets values of the running configuration
 * for one test; after each test every value it changed is put back as it was
 * before the first change. Call once at the top of a test file.
 */
export function restoringConfigure(): (values: Record<string, unknown>) => void {
  const saved: Record<string, unknown> = {};
  afterEach(() => {
    Object.assign(getConfig() as unknown as Record<string, unknown>, saved);
    for (const key of Object.keys(saved)) delete saved[key];
  });
  return (values) => {
    const config = getConfig() as unknown as Record<string, unknown>;
    for (const key of Object.keys(values)) if (!(key in saved)) saved[key] = config[key];
    Object.assign(config, values);
  };
}

import type { ImageJson, StylizedImageJson } from "~/features/studio/types";

/** The studio's JSON for the components' tests: one upload and its stylized images. */

/** An uploaded 512 px PNG. */
export const TEST_IMAGE: ImageJson = {
  id: "img1",
  userId: "u1",
  originalUrl: "/media/originals/abcdefghijkl.png?exp=1&sig=x",
  width: 512,
  height: 512,
  bytes: 1234,
  mimeType: "image/png",
  createdAt: "2026-11-22T10:00:00.000Z",
  likeness: "unverified",
};

/** A completed professional style of TEST_IMAGE; `fields` replace any of its values. */
export function stylizedJson(fields: Partial<StylizedImageJson> = {}): StylizedImageJson {
  return {
    id: "sty1",
    imageId: "img1",
    style: "professional",
    status: "completed",
    styledUrl: "/media/styled/abcdefghijkl.jpg?exp=1&sig=y",
    stylizedUrl: "/media/styled/abcdefghijkl.jpg?exp=1&sig=y",
    originalUrl: TEST_IMAGE.originalUrl,
    optimizedUrl: null,
    format: null,
    quality: null,
    resolution: null,
    watermark: null,
    socialOptimized: null,
    width: 1024,
    height: 1024,
    bytes: 100_000,
    price: "25",
    licensingEnabled: true,
    nftEnabled: false,
    createdAt: "2026-11-22T10:01:00.000Z",
    completedAt: "2026-11-22T10:01:05.000Z",
    error: null,
    provider: "local",
    seed: null,
    ...fields,
  };
}

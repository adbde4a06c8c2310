import type { ApiRoute } from "~/infra/api-entry.server";
import { shaping } from "~/infra/api-entry.server";
import {
  deleteImage,
  getImage,
  listImages,
  uploadImage,
} from "~/features/studio/images/procedures.server";
import {
  deleteStylizedImage,
  getStylizedImage,
  listStylizedImages,
  rerollStyle,
  stylizeAllStyles,
  stylizeImage,
} from "~/features/studio/styles/procedures.server";
import { optimizeImage } from "~/features/studio/optimize/procedures.server";
import { creatorStats } from "~/features/studio/workspace/procedures.server";

/**
 * The /api endpoints of studio: originals and their styles, optimization, and the creator's numbers. The table
 * (app/routes/api+/api-route-table.server.ts) puts every feature's entries together, in a fixed
 * order of features; the router answers from it and the OpenAPI document describes it.
 */
export const STUDIO_API: readonly ApiRoute[] = [
  shaping({
    method: "POST",
    path: "/api/token-images/upload",
    summary:
      "Upload an original image (multipart, file field `image`, at most 10 MB a file). One file answers the image. Up to 10 files (the field repeated) are each checked and stored on their own, in order: the answer is `{images, refused}`, the images stored and, for each file not stored, `{index, filename, status, message}` (not an image: 415; past today's uploads or the storage room: 429). When every file is refused the first refusal is the answer; 400 for an 11th file (nothing stored).",
    procedure: uploadImage,
    auth: "bearer-or-cookie",
    input: "multipart",
    status: 201,
    errors: [415, 429, 507],
    shape: (outcome) =>
      outcome.files === 1
        ? outcome.images[0]
        : { images: outcome.images, refused: outcome.refused },
  }),
  {
    method: "GET",
    path: "/api/token-images",
    summary: "The caller's originals, newest first, each with its stylized versions.",
    procedure: listImages,
    auth: "bearer-or-cookie",
    input: "query",
    status: 200,
  },
  {
    method: "GET",
    path: "/api/token-images/{id}",
    summary: "One original with its stylized versions.",
    procedure: getImage,
    auth: "bearer-or-cookie",
    input: "query",
    status: 200,
    errors: [404],
  },
  {
    method: "DELETE",
    path: "/api/token-images/{id}",
    summary: "Delete an original, its stylized versions and their files.",
    procedure: deleteImage,
    auth: "bearer-or-cookie",
    input: "none",
    status: 204,
    errors: [404],
  },
  shaping({
    method: "POST",
    path: "/api/token-images/{id}/stylize",
    summary:
      "Ask for a style; answers `{id, status}` at once while a job does the work. 409 without the caller's consent to face processing (POST /api/account/consent).",
    procedure: stylizeImage,
    auth: "bearer-or-cookie",
    input: "json",
    status: 202,
    errors: [404, 409, 429, 507],
    shape: (stylized) => ({ id: stylized.id, status: stylized.status }),
  }),
  {
    method: "POST",
    path: "/api/token-images/{id}/stylize-all",
    summary:
      "Ask for all four styles of an original at once; answers the four new stylized images (each `pending`, with its `seed`) while jobs do the work. All or nothing: 429 when the four would pass the styles in progress or today's styles, and none is asked for.",
    procedure: stylizeAllStyles,
    auth: "bearer-or-cookie",
    input: "none",
    status: 202,
    errors: [404, 409, 429, 507],
  },
  {
    method: "POST",
    path: "/api/token-stylized-images/{id}/reroll",
    summary:
      "Re-roll a style: the same original and style again with a new seed, as a new stylized image (answered `pending`, with its `seed`); the earlier one stays until deleted. 404 when the original is no longer held.",
    procedure: rerollStyle,
    auth: "bearer-or-cookie",
    input: "none",
    status: 202,
    errors: [404, 409, 429, 507],
  },
  {
    method: "GET",
    path: "/api/token-stylized-images",
    summary: "The caller's stylized images, newest first.",
    procedure: listStylizedImages,
    auth: "bearer-or-cookie",
    input: "query",
    status: 200,
  },
  {
    method: "GET",
    path: "/api/token-stylized-images/{id}",
    summary: "One stylized image (polled while it is being styled).",
    procedure: getStylizedImage,
    auth: "bearer-or-cookie",
    input: "query",
    status: 200,
    errors: [404],
  },
  {
    method: "DELETE",
    path: "/api/token-stylized-images/{id}",
    summary: "Delete a stylized image and its files.",
    procedure: deleteStylizedImage,
    auth: "bearer-or-cookie",
    input: "none",
    status: 204,
    errors: [404],
  },
  {
    method: "POST",
    path: "/api/images/optimize",
    summary:
      "Make a delivery version of a completed stylized image; answers the stylized image, whose `optimizedUrl` downloads the copy (Content-Disposition: attachment).",
    procedure: optimizeImage,
    auth: "bearer-or-cookie",
    input: "json",
    status: 200,
    errors: [404, 429, 507],
  },
  {
    method: "GET",
    path: "/api/token-stats",
    summary: "The signed-in creator's studio and sales numbers.",
    procedure: creatorStats,
    auth: "bearer-or-cookie",
    input: "query",
    status: 200,
  },
];

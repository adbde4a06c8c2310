/** Optimization settings: formats, resolutions, quality range, presets and defaults. */

export const IMAGE_FORMATS = ["webp", "jpg", "png"] as const;
export type ImageFormat = (typeof IMAGE_FORMATS)[number];

export const RESOLUTIONS = ["original", "2048x2048", "1200x1200", "1080x1080", "800x800"] as const;
export type Resolution = (typeof RESOLUTIONS)[number];

export const QUALITY_MIN = 50;
export const QUALITY_MAX = 100;
export const QUALITY_STEP = 5;

export interface OptimizationSettings {
  quality: number;
  format: ImageFormat;
  resolution: Resolution;
  watermark: boolean;
  socialOptimized: boolean;
}

export const OPTIMIZATION_DEFAULTS: OptimizationSettings = {
  quality: 85,
  format: "webp",
  resolution: "original",
  // The optimized file is the creator's own copy (their download, the other platforms): no mark unless they ask.
  watermark: false,
  socialOptimized: true,
};

export const PRESETS = {
  web: { quality: 75, format: "webp", resolution: "1200x1200" },
  social: { quality: 80, format: "jpg", resolution: "1080x1080" },
  print: { quality: 95, format: "png", resolution: "original" },
  marketplace: { quality: 90, format: "png", resolution: "2048x2048" },
} as const satisfies Record<
  string,
  Pick<OptimizationSettings, "quality" | "format" | "resolution">
>;
export type PresetId = keyof typeof PRESETS;

/** The slider's label: High at 90 and above, Good at 70 and above, otherwise Basic. */
export function qualityLabel(quality: number): "High" | "Good" | "Basic" {
  if (quality >= 90) return "High";
  if (quality >= 70) return "Good";
  return "Basic";
}

/** Licensing and NFT defaults for a new listing. */
export const LISTING_DEFAULTS = { licensingEnabled: true, nftEnabled: false };

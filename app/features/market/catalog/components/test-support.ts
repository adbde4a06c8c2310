/** Test-only fixtures shared by the market screens' component tests. */

/** Ada's Neon Dream, an anime portrait at $25, as the marketplace lists it. */
export const NEON_LISTING = {
  id: "lst1",
  title: "Neon Dream",
  description: "A neon anime portrait",
  style: "anime",
  price: "25",
  priceCents: 2500,
  previewUrl: "/media/previews/abcdefgh.jpg",
  previewWidth: 640,
  creator: { id: "u1", firstName: "Ada" },
  tags: ["neon"],
  licensingEnabled: true,
  createdAt: "2026-11-22T10:00:00.000Z",
  aiLabel: "AI-edited" as const,
  licenses: [{ type: "standard" as const, price: "25" }],
};

/** What GET /api/payment-status answers for checkout cs_1 ($25, live mode, still processing); `fields` changes what a test needs. */
export function paymentResult<T extends object>(fields: T) {
  return {
    success: false,
    paymentStatus: "processing",
    customerEmail: "a@example.com",
    total: 25,
    sessionId: "cs_1",
    error: null,
    licenseUrl: null,
    testMode: false,
    downloads: [],
    ...fields,
  };
}

/** A model release as the API and the release page show it. */
export interface ModelReleaseJson {
  id: string;
  stylizedImageId: string;
  kind: "signed" | "uploaded";
  modelName: string | null;
  signedOn: string | null;
  drawnSignature: boolean;
  /** The PDF names a photographer other than the model who has yet to sign it (no stock agency is sent the image until a signed copy is uploaded). */
  awaitingPhotographer: boolean;
  bytes: number;
  createdAt: string;
  /** The PDF (owner only). */
  downloadUrl: string;
}

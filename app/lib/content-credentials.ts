/**
 * What the public Content Credentials check (/provenance, POST
 * /api/provenance/check) answers of a file: whether it carries a C2PA
 * manifest and, when it does, whether it validates (unchanged since it was
 * signed, by a well-formed certificate), who signed it, how it was made (the
 * IPTC digital source type of its first action that states one), the tool
 * that wrote the manifest and when the file was made.
 */
export type ProvenanceReport =
  | { manifest: false }
  | {
      manifest: true;
      valid: boolean;
      /** The signing certificate's organization (else its common name). */
      signer: string | null;
      /** An IPTC digital source type URI, e.g. http://cv.iptc.org/newscodes/digitalsourcetype/trainedAlgorithmicMedia. */
      digitalSourceType: string | null;
      claimGenerator: string | null;
      /** ISO 8601: the first action's `when`, else the signature's timestamp. */
      createdAt: string | null;
    };

/** The multipart field the file to check arrives in. */
export const PROVENANCE_FIELD = "file";

/** The code of an IPTC digital source type URI (`trainedAlgorithmicMedia`), or the value as it is. */
export function sourceTypeCode(uri: string): string {
  return uri.slice(uri.lastIndexOf("/") + 1) || uri;
}

/** How the common IPTC digital source types read to a buyer. */
const SOURCE_TYPE_WORDS: Record<string, string> = {
  trainedAlgorithmicMedia: "made by a generative AI model",
  compositeWithTrainedAlgorithmicMedia: "a composite with parts made by a generative AI model",
  algorithmicMedia: "made by an algorithm, without a trained model",
  composite: "a composite: a photo's own pixels edited and combined with made elements",
  digitalCapture: "a photo, captured by a camera",
  minorHumanEdits: "a photo with minor edits",
  compositeCapture: "a composite of photos",
};

/** A sentence part for a digital source type ("made by a generative AI model"), or its code. */
export function sourceTypeWords(uri: string): string {
  const code = sourceTypeCode(uri);
  return SOURCE_TYPE_WORDS[code] ?? code;
}

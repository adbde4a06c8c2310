/** The title and description a new listing starts with (no zod here: client components import it). */
/** The title the list-for-sale dialog suggests: the style plus 'Style Selfie'. */
export function defaultListingTitle(styleName: string): string {
  return `${styleName} Style Selfie`;
}

export function defaultListingDescription(styleName: string): string {
  return `An AI-stylized selfie in the ${styleName.toLowerCase()} style.`;
}

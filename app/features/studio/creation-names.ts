import { styleName } from "~/lib/styles";

/**
 * What each creation card calls its image, for the names of its links and
 * buttons ("Optimize: Anime image"): the style's name, and a number when the
 * grid holds more than one image of that style ("Anime image 2"), counted in
 * the order the grid shows them, so no two cards' controls share a name.
 */
export function creationNames(images: { id: string; style: string }[]): Map<string, string> {
  const perStyle = new Map<string, number>();
  for (const image of images) perStyle.set(image.style, (perStyle.get(image.style) ?? 0) + 1);
  const seen = new Map<string, number>();
  const names = new Map<string, string>();
  for (const image of images) {
    const index = (seen.get(image.style) ?? 0) + 1;
    seen.set(image.style, index);
    const base = `${styleName(image.style)} image`;
    names.set(image.id, (perStyle.get(image.style) ?? 0) > 1 ? `${base} ${index}` : base);
  }
  return names;
}

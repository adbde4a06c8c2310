import { PRODUCT_NAME } from "./product";

/**
 * The standard commercial license every marketplace purchase carries. Plain
 * terms, the same for every order; the license page adds the order's
 * particulars.
 */
export const LICENSE_NAME = "Standard Commercial License";

export const LICENSE_TERMS: readonly { heading: string; text: string }[] = [
  {
    heading: "Grant",
    text: `The creator, through ${PRODUCT_NAME}, grants the licensee named on this page a perpetual, worldwide, non-exclusive, non-transferable license to use the licensed image in personal and commercial projects.`,
  },
  {
    heading: "Permitted uses",
    text: "Websites, social media, advertising, marketing material, presentations, packaging, printed products and merchandise, editorial use, and as part of a larger design or derivative work. You may crop, resize, recolour and otherwise edit the image.",
  },
  {
    heading: "Not permitted",
    text: "Reselling, sublicensing or giving away the image on its own or as a file others can extract (including stock, template and wallpaper sites); using it in a trademark or logo; using it to train or fine-tune machine-learning models; or using it in a way that is defamatory, deceptive or unlawful, or that suggests the person shown endorses a product or view.",
  },
  {
    heading: "AI-generated content",
    text: "The image was made with AI from a photo supplied by the creator, who confirmed the right to use it. Where the law requires, disclose that the image is AI-generated; the file carries this disclosure in its metadata.",
  },
  {
    heading: "Ownership",
    text: "The creator keeps the copyright and may license the same image to others. This license is for the licensee only and ends if its terms are broken.",
  },
  {
    heading: "No warranty",
    text: "The image is provided as is. To the extent the law allows, neither the creator nor the platform is liable for any loss arising from its use beyond the price paid.",
  },
];

import type { MetaDescriptor } from "@remix-run/node";
import { jsonForScript } from "~/lib/html";
import { PRODUCT_NAME } from "~/lib/product";

/**
 * The tags a shared link is shown with: the page's title and description,
 * its canonical address, Open Graph (what chat apps and most social sites
 * read) and the Twitter card. Values are attributes, escaped by React.
 */
export function shareMetaTags(page: {
  /** The document's title. */
  title: string;
  /** The title a shared link shows (without the site's name). */
  shareTitle: string;
  description: string;
  /** The page's absolute address. */
  url: string;
  type: "product" | "profile" | "website";
  image?: { url: string; width: number; height: number; alt: string } | null;
}): MetaDescriptor[] {
  const tags: MetaDescriptor[] = [
    { title: page.title },
    { name: "description", content: page.description },
    { tagName: "link", rel: "canonical", href: page.url },
    { property: "og:title", content: page.shareTitle },
    { property: "og:description", content: page.description },
    { property: "og:url", content: page.url },
    { property: "og:type", content: page.type },
    { property: "og:site_name", content: PRODUCT_NAME },
    { name: "twitter:card", content: page.image ? "summary_large_image" : "summary" },
    { name: "twitter:title", content: page.shareTitle },
    { name: "twitter:description", content: page.description },
  ];
  if (page.image) {
    tags.push(
      { property: "og:image", content: page.image.url },
      { property: "og:image:width", content: String(page.image.width) },
      { property: "og:image:height", content: String(page.image.height) },
      { property: "og:image:alt", content: page.image.alt },
      { name: "twitter:image", content: page.image.url },
      { name: "twitter:image:alt", content: page.image.alt },
    );
  }
  return tags;
}

/**
 * Structured data for search engines (`application/ld+json`): a data block
 * that never runs, written so no text in it can end the script element.
 */
export function JsonLd({ data }: { data: unknown }) {
  return (
    <script type="application/ld+json" dangerouslySetInnerHTML={{ __html: jsonForScript(data) }} />
  );
}

import { describe, expect, it } from "vitest";
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { JsonLd, shareMetaTags } from "~/ui/share-meta";

const HOSTILE = `</script><script>alert("x")</script> & 'quotes' "double" 😀 <b>bold</b>`;

/** The tags as the document's head carries them (React writes attribute values escaped). */
function headHtml(tags: ReturnType<typeof shareMetaTags>): string {
  return tags
    .map((tag) => {
      if ("title" in tag) return renderToString(createElement("title", null, String(tag.title)));
      if ("tagName" in tag) {
        const { tagName, ...rest } = tag as { tagName: string };
        return renderToString(createElement(tagName, rest));
      }
      return renderToString(createElement("meta", tag as Record<string, string>));
    })
    .join("\n");
}

describe("share tags of a page with a hostile title", () => {
  const tags = shareMetaTags({
    title: `${HOSTILE} | Selfie Studio`,
    shareTitle: HOSTILE,
    description: HOSTILE,
    url: "https://selfie.example/marketplace/abc",
    type: "product",
    image: {
      url: "https://selfie.example/media/previews/abc_card.jpg?v=1",
      width: 1200,
      height: 630,
      alt: HOSTILE,
    },
  });

  it("has every Open Graph and Twitter tag a shared link needs", () => {
    const byKey = new Map(
      tags.flatMap((tag) =>
        "property" in tag
          ? [[tag.property, tag.content]]
          : "name" in tag
            ? [[tag.name, tag.content]]
            : [],
      ),
    );
    expect(byKey.get("og:title")).toBe(HOSTILE);
    expect(byKey.get("og:image:width")).toBe("1200");
    expect(byKey.get("og:image:height")).toBe("630");
    expect(byKey.get("og:url")).toBe("https://selfie.example/marketplace/abc");
    expect(byKey.get("og:type")).toBe("product");
    expect(byKey.get("twitter:card")).toBe("summary_large_image");
    expect(tags).toContainEqual({
      tagName: "link",
      rel: "canonical",
      href: "https://selfie.example/marketplace/abc",
    });
  });

  it("writes the title as text in every attribute: no element, quote or script breaks out", () => {
    const html = headHtml(tags);
    expect(html).not.toContain("<script");
    expect(html).not.toContain("<b>");
    expect(html).toContain(
      'content="&lt;/script&gt;&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#x27;quotes&#x27; &quot;double&quot; 😀 &lt;b&gt;bold&lt;/b&gt;"',
    );
  });

  it("JSON-LD: one script element whose text parses back to the same title", () => {
    const html = renderToString(
      createElement(JsonLd, {
        data: { "@type": "Product", name: HOSTILE, offers: { price: "25.00" } },
      }),
    );
    expect(html.match(/<script/g)).toHaveLength(1);
    expect(html.match(/<\/script>/g)).toHaveLength(1);
    const body = /^<script type="application\/ld\+json">([\s\S]*)<\/script>$/.exec(html)?.[1];
    expect(JSON.parse(body!)).toEqual({
      "@type": "Product",
      name: HOSTILE,
      offers: { price: "25.00" },
    });
  });
});

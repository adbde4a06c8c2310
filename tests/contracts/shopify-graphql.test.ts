import { setupServer } from "msw/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { GraphQLField, GraphQLInputType, GraphQLSchema } from "graphql";
import {
  getNamedType,
  getNullableType,
  GraphQLList,
  GraphQLEnumType,
  isInputObjectType,
  isInputType,
  typeFromAST,
  NoDeprecatedCustomRule,
  parse,
  specifiedRules,
  TypeInfo,
  validate,
  visit,
  visitWithTypeInfo,
} from "graphql";
import { getVariableValues } from "graphql/execution/values";
import { ShopifyAdminClient, SHOPIFY_API_VERSION } from "~/infra/shopify/shopify-admin.server";
import { SHOPIFY_SCOPES } from "~/infra/shopify/shopify-oauth.server";
import * as products from "~/infra/shopify/shopify-products.server";
import { verifyShopifyToken } from "~/features/publishing/integrations/oauth-connections.server";
import { shopifyHandlers, shopifyMock } from "#tests/mocks/shopify";
import {
  ADMIN_SCHEMA_VERSION,
  loadShopifyAdminSchema,
} from "#tests/contracts/shopify-admin-schema";

/**
 * Every Admin GraphQL document the app sends, and the variables it really
 * sends with them, checked offline against Shopify's published Admin schema
 * for the pinned API version (tests/contracts/shopify-admin-schema.ts fetches
 * it): valid, no deprecated field, argument, input field or enum value, and
 * nothing beyond the access scopes the app asks for.
 */

const SHOP = "contract-store.myshopify.com";
const server = setupServer(...shopifyHandlers);
let schema: GraphQLSchema;

/** Each root field the app uses and the scope Shopify's docs say it needs (null: none). */
const ROOT_FIELD_SCOPES: Record<string, string | null> = {
  "Mutation.productCreate": "write_products",
  "Mutation.productUpdate": "write_products",
  "Mutation.productVariantsBulkUpdate": "write_products",
  "Mutation.publishablePublish": "write_publications",
  "QueryRoot.product": "read_products",
  "QueryRoot.publications": "read_publications",
  "QueryRoot.shop": null,
  "QueryRoot.onlineStore": null,
};

/** Scopes granted: each write_ scope implies its read_ one. */
function granted(scopes: readonly string[]): Set<string> {
  return new Set(
    scopes.flatMap((scope) =>
      scope.startsWith("write_") ? [scope, `read_${scope.slice(6)}`] : [scope],
    ),
  );
}

const SCOPE_MENTION = /`((?:read|write)_[a-z_]+)`/g;

/** Everything wrong with one document (and, when given, its variables). */
function problems(
  schemaToCheck: GraphQLSchema,
  query: string,
  variables?: Record<string, unknown>,
  scopes: readonly string[] = SHOPIFY_SCOPES,
): string[] {
  const found: string[] = [];
  let document;
  try {
    document = parse(query);
  } catch (error) {
    return [`does not parse: ${String(error)}`];
  }
  found.push(
    ...validate(schemaToCheck, document, [...specifiedRules, NoDeprecatedCustomRule]).map(
      (error) => error.message,
    ),
  );
  if (found.length > 0) return found;

  const allowed = granted(scopes);
  const typeInfo = new TypeInfo(schemaToCheck);
  visit(
    document,
    visitWithTypeInfo(typeInfo, {
      Field() {
        const parent = typeInfo.getParentType();
        const field = typeInfo.getFieldDef() as GraphQLField<unknown, unknown> | null;
        if (!parent || !field) return;
        const key = `${parent.name}.${field.name}`;
        if (parent === schemaToCheck.getQueryType() || parent === schemaToCheck.getMutationType()) {
          if (!(key in ROOT_FIELD_SCOPES))
            found.push(`${key}: no documented scope for this root field in the test's table`);
          else if (ROOT_FIELD_SCOPES[key] && !allowed.has(ROOT_FIELD_SCOPES[key]!))
            found.push(`${key} needs ${ROOT_FIELD_SCOPES[key]}`);
        }
        // A field whose description names access scopes needs one of them.
        const description = field.description ?? "";
        if (/access scope/i.test(description)) {
          const named = [...description.matchAll(SCOPE_MENTION)].map((match) => match[1]);
          if (named.length > 0 && !named.some((scope) => allowed.has(scope)))
            found.push(`${key} needs one of ${named.join(", ")}`);
        }
      },
    }),
  );

  if (variables) {
    const operation = document.definitions.find(
      (definition) => definition.kind === "OperationDefinition",
    );
    if (operation?.kind === "OperationDefinition") {
      const coerced = getVariableValues(
        schemaToCheck,
        operation.variableDefinitions ?? [],
        variables,
      );
      if (coerced.errors) found.push(...coerced.errors.map((error) => error.message));
      for (const definition of operation.variableDefinitions ?? []) {
        const type = typeFromAST(schemaToCheck, definition.type);
        if (type && isInputType(type))
          found.push(
            ...deprecatedInVariables(
              type,
              variables[definition.variable.name.value],
              `$${definition.variable.name.value}`,
            ),
          );
      }
    }
  }
  return found;
}

/** Deprecated input fields and enum values used in a variable's value. */
function deprecatedInVariables(type: GraphQLInputType, value: unknown, at: string): string[] {
  if (value === null || value === undefined) return [];
  const nullable = getNullableType(type);
  if (nullable instanceof GraphQLList) {
    return Array.isArray(value)
      ? value.flatMap((item, index) =>
          deprecatedInVariables(nullable.ofType, item, `${at}[${index}]`),
        )
      : [];
  }
  const named = getNamedType(type);
  if (named instanceof GraphQLEnumType) {
    const entry = named.getValue(String(value));
    return entry?.deprecationReason
      ? [`${at}: enum value ${named.name}.${entry.name} is deprecated`]
      : [];
  }
  if (isInputObjectType(named) && typeof value === "object") {
    const fields = named.getFields();
    return Object.entries(value as Record<string, unknown>).flatMap(([name, inner]) => {
      const field = fields[name];
      if (!field) return [];
      const own = field.deprecationReason
        ? [`${at}.${name}: input field ${named.name}.${name} is deprecated`]
        : [];
      return [...own, ...deprecatedInVariables(field.type, inner, `${at}.${name}`)];
    });
  }
  return [];
}

beforeAll(async () => {
  schema = await loadShopifyAdminSchema();
  server.listen({ onUnhandledRequest: "error" });
}, 300_000);
afterAll(() => server.close());

describe(`Shopify Admin GraphQL ${ADMIN_SCHEMA_VERSION}`, () => {
  it("is the version the app pins", () => {
    expect(SHOPIFY_API_VERSION).toBe(ADMIN_SCHEMA_VERSION);
  });

  it("every document the app defines is valid, uses nothing deprecated and stays within the requested scopes", () => {
    const documents = Object.entries(products).filter(
      ([, value]) => typeof value === "string" && /^(query|mutation) /.test(value),
    );
    expect(documents.map(([name]) => name).sort()).toEqual([
      "PRODUCT_CREATE",
      "PRODUCT_MEDIA",
      "PRODUCT_STATE",
      "PRODUCT_UPDATE",
      "PUBLICATIONS",
      "PUBLISH",
      "STOREFRONT_PASSWORD",
      "VARIANT_PRICE",
    ]);
    for (const [name, query] of documents)
      expect(problems(schema, query as string), name).toEqual([]);
  });

  it("every request the app really sends (create, update, price, publish, state, password, token check) validates with its variables", async () => {
    shopifyMock.reset();
    shopifyMock.acceptToken(SHOP, "shpat_contract");
    const sent: { query: string; variables: Record<string, unknown> }[] = [];
    const recording: typeof fetch = async (input, init) => {
      const body = JSON.parse(String(init?.body)) as {
        query: string;
        variables: Record<string, unknown>;
      };
      sent.push(body);
      return fetch(input, init);
    };
    const client = new ShopifyAdminClient(SHOP, "shpat_contract", recording);
    const input = {
      title: "Portrait in watercolour",
      descriptionHtml: "<p>A watercolour portrait.</p>",
      tags: ["portrait", "watercolour"],
      price: "12.00",
      imageUrl: "https://studio.example/files/signed/abc.jpg",
      imageAlt: "Portrait in watercolour",
    };
    const created = await products.upsertShopifyProduct(client, input, {
      mediaPolling: { attempts: 1, delayMs: 0 },
    });
    await products.upsertShopifyProduct(client, input, {
      existingProductId: created.productId,
      mediaPolling: { attempts: 1, delayMs: 0 },
    });
    await products.storefrontPasswordProtected(client);
    await verifyShopifyToken(SHOP, "shpat_contract", recording);

    const operations = new Set(
      sent.map((request) => /(?:query|mutation)\s+(\w+)/.exec(request.query)?.[1]),
    );
    expect([...operations].sort()).toEqual([
      "SelfieStudioProductCreate",
      "SelfieStudioProductMedia",
      "SelfieStudioProductState",
      "SelfieStudioProductUpdate",
      "SelfieStudioPublications",
      "SelfieStudioPublish",
      "SelfieStudioShop",
      "SelfieStudioStorefrontPassword",
      "SelfieStudioVariantPrice",
    ]);
    for (const request of sent)
      expect(problems(schema, request.query, request.variables), request.query).toEqual([]);
  });

  it("the checks catch what they are for: an unknown or deprecated field, a wrong variable, an extra scope", () => {
    expect(problems(schema, "query Q { shop { nameTypo } }").join()).toMatch(
      /Cannot query field "nameTypo"/,
    );
    expect(
      problems(schema, "query Q { publications(first: 5) { nodes { id name } } }").join(),
    ).toMatch(/deprecated/);
    expect(
      problems(schema, products.VARIANT_PRICE, {
        productId: "gid://shopify/Product/1",
        variants: [{ id: "gid://shopify/ProductVariant/1", price: 12, priceTypo: "1" }],
      }).join(),
    ).toMatch(/priceTypo/);
    expect(problems(schema, "query Q { orders(first: 1) { nodes { id } } }").join()).toMatch(
      /QueryRoot\.orders/,
    );
    expect(problems(schema, products.PUBLISH, undefined, ["write_products"]).join()).toMatch(
      /needs write_publications/,
    );
  });
});

import { describe, expect, it } from "vitest";
import {
  conversionOf,
  formatConversion,
  isAnalyticsRange,
  listingOrder,
  sortListings,
  type AnalyticsListing,
} from "./analytics";

const listing = (
  listingId: string,
  title: string,
  views: number,
  sales: number,
  earnings: string,
  saves = 0,
): AnalyticsListing => ({
  listingId,
  title,
  views,
  saves,
  sales,
  conversion: conversionOf(sales, views),
  earnings,
});
const LISTINGS = [
  listing("a", "Beta", 10, 1, "8.50", 2),
  listing("b", "alpha", 0, 1, "20", 0),
  listing("c", "Gamma", 40, 2, "17", 1),
  listing("d", "Delta", 5, 0, "0", 3),
];
const ids = (rows: AnalyticsListing[]) => rows.map((row) => row.listingId);

describe("the listing table's order", () => {
  it("sorts by each column both ways; a listing without views sorts below every conversion", () => {
    expect(ids(sortListings(LISTINGS, "views", "desc"))).toEqual(["c", "a", "d", "b"]);
    expect(ids(sortListings(LISTINGS, "views", "asc"))).toEqual(["b", "d", "a", "c"]);
    expect(ids(sortListings(LISTINGS, "earnings", "desc"))).toEqual(["b", "c", "a", "d"]);
    expect(ids(sortListings(LISTINGS, "conversion", "desc"))).toEqual(["a", "c", "d", "b"]);
    expect(ids(sortListings(LISTINGS, "title", "asc"))).toEqual(["b", "a", "d", "c"]);
    expect(ids(sortListings(LISTINGS, "saves", "desc"))).toEqual(["d", "a", "c", "b"]);
    expect(ids(sortListings(LISTINGS, "saves", "asc"))).toEqual(["b", "c", "a", "d"]);
    // Ties (one sale each) by title.
    expect(ids(sortListings(LISTINGS, "sales", "desc"))).toEqual(["c", "b", "a", "d"]);
  });

  it("reads the query, and anything unknown is earnings high to low", () => {
    expect(listingOrder("views", "asc")).toEqual({ sort: "views", dir: "asc" });
    expect(listingOrder("saves", null)).toEqual({ sort: "saves", dir: "desc" });
    expect(listingOrder("title", null)).toEqual({ sort: "title", dir: "asc" });
    expect(listingOrder("password", "sideways")).toEqual({ sort: "earnings", dir: "desc" });
    expect(listingOrder(null, null)).toEqual({ sort: "earnings", dir: "desc" });
  });

  it("knows the ranges and writes conversions for people", () => {
    expect([7, "30", "90"].every(isAnalyticsRange)).toBe(true);
    expect(["14", "7.0", "", null, 0].some(isAnalyticsRange)).toBe(false);
    expect([conversionOf(1, 8), conversionOf(1, 0), conversionOf(1, 3)]).toEqual([
      0.125,
      null,
      0.3333,
    ]);
    expect([formatConversion(0.125), formatConversion(0.5), formatConversion(null)]).toEqual([
      "12.5%",
      "50%",
      "–",
    ]);
  });
});

// The part of autocannon's API the bench uses (the package ships no types).
declare module "autocannon" {
  interface Histogram {
    average: number;
    p50: number;
    p99: number;
  }
  interface Result {
    requests: Histogram & { total: number };
    latency: Histogram;
    errors: number;
    non2xx: number;
  }
  function autocannon(options: {
    url: string;
    connections?: number;
    duration?: number;
    headers?: Record<string, string>;
    /** Each request made from the last, its path and more set by `setupRequest`. */
    requests?: {
      setupRequest?: (request: Record<string, unknown>) => Record<string, unknown>;
    }[];
  }): Promise<Result>;
  export default autocannon;
}

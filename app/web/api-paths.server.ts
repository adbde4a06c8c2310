/** A route table path compiled for matching request paths. */
export interface ApiPathPattern {
  /** Case-insensitive, trailing slashes ignored, each parameter one segment (captured). */
  matcher: RegExp;
  /** The parameters' names, in the order of the matcher's groups. */
  names: string[];
  /** Remix's ranking: a static segment outweighs a parameter (`/upload` before `/{id}`). */
  score: number;
}

/**
 * `/api/token-images/{id}/stylize` as a matcher, the way Remix compiles
 * `/api/token-images/:id/stylize`: the router matches requests with it, and
 * the edge finds with it which requests an entry's upload limit or webhook
 * exemption applies to.
 */
export function apiPathPattern(path: string): ApiPathPattern {
  const names: string[] = [];
  const segments = path.split("/").filter(Boolean);
  const source = segments
    .map((segment) => {
      const parameter = /^\{(\w+)\}$/.exec(segment);
      if (parameter) {
        names.push(parameter[1]);
        return "\\/([^\\/]+)";
      }
      return `\\/${segment.replace(/[\\.*+^${}|()[\]]/g, "\\$&")}`;
    })
    .join("");
  const score = segments.reduce((total, segment) => total + (segment.startsWith("{") ? 3 : 10), 0);
  return { matcher: new RegExp(`^${source}\\/*$`, "i"), names, score };
}

/** The requests an entry's path matches, as the router matches them (on the path as sent). */
export function apiPathMatcher(path: string): RegExp {
  return apiPathPattern(path).matcher;
}

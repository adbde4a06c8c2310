import type { MetaFunction } from "@remix-run/node";
import { ErrorPanel, PAGE_NOT_FOUND } from "~/ui/error-panel";

export const meta: MetaFunction = () => [{ title: "Page Not Found | Selfie Studio" }];

/** Any path no route claims: the 404 page, with a 404 status. */
export function loader() {
  throw new Response("Not Found", { status: 404 });
}

export default function NotFound() {
  return null;
}

export function ErrorBoundary() {
  return <ErrorPanel {...PAGE_NOT_FOUND} />;
}

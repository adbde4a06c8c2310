/** What publishing lends other features: plain service calls on its tables, not operations of their own. */

export { cancelQueuedPublications } from "~/features/publishing/publication-cancels.server";

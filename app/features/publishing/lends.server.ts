// What other features (and the OAuth callback route) use of publishing: plain service calls on its tables, not operations.
export { removePublishingArtifacts } from "~/features/publishing/publications.server";
export { cancelQueuedPublications } from "~/features/publishing/publication-cancels.server";
export { OAuthCallbackError } from "~/features/publishing/oauth-connections.server";
export {
  cancelPublicationsOfErasedCreator,
  erasePublishingDataOf,
} from "~/features/publishing/creator-erasure.server";

// What other features (and the OAuth callback route) use of publishing: plain service calls on its tables, not operations.
export { removePublishingArtifacts } from "~/features/publishing/publications/publications.server";
export {
  withdrawPublicationsForReport,
  type PublicationLeftUp,
} from "~/features/publishing/publications/report-withdrawals.server";
export { cancelQueuedPublications } from "~/features/publishing/publications/publication-cancels.server";
export { OAuthCallbackError } from "~/features/publishing/integrations/oauth-connections.server";
export {
  cancelPublicationsOfErasedCreator,
  erasePublishingDataOf,
} from "~/features/publishing/creator-erasure.server";

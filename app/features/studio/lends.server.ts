/** What the studio lends other features: plain service calls on its tables, not operations of their own. */

export { cancelOpenStyles, ownStylizedImage, studioCountsOf } from "~/features/studio/stylized-images.server";
export { listEveryImage } from "~/features/studio/images.server";

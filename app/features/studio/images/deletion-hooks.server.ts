/** What the caller of an image deletion wants done on the way (the services stay free of other features). */
export interface DeletionHooks {
  /** Runs before the rows go, once per stylized image (e.g. withdraw its marketplace listings). */
  beforeStylizedDelete?: (stylizedImageId: string) => Promise<void>;
}

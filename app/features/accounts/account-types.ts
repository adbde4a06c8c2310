/** The person's own account, as `GET /api/account` answers it and the settings show it. */
export interface Account {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  profileImageUrl: string | null;
  handle: string | null;
  bio: string | null;
  createdAt: string;
  /** The new address of an email change waiting for its mailed link, if any. */
  pendingEmail: string | null;
  consent: {
    faceProcessing: {
      given: boolean;
      /** When it was given (null when not given). */
      at: string | null;
      /** The version of the text agreed to (null when not given). */
      version: string | null;
    };
  };
}

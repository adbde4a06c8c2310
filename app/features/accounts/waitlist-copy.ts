/** What the waitlist form answers: the Register tab shows it and the procedure returns it. */
export const WAITLIST_JOINED =
  "You're on the waitlist. We sent a confirmation to that address, and we'll email you an invitation when a spot opens.";
export const WAITLIST_ALREADY =
  "This address is already on the waitlist. We'll email it an invitation when a spot opens.";

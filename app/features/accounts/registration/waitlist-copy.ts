/**
 * What the waitlist form answers, whether or not the address was on the list
 * already (the answer must not tell): the Register tab shows it and the
 * procedure returns it.
 */
export const WAITLIST_JOINED =
  "You're on the waitlist. We sent a confirmation to that address, and we'll email you an invitation when a spot opens.";

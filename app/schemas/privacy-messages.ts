/**
 * The words of the privacy pages' answers, without any code: the /enquiry page's "Where is my enquiry?" and /me
 * import them, and nothing else comes with them into the page's JavaScript.
 */

/** "Where is my enquiry?" answers the same whatever the address. */
export const ME_LINK_SENT =
  "Thank you. If we have an enquiry or message from that address, we have just e-mailed it a link to your page. Please check your inbox (and the spam folder).";
export const ME_LINK_INVALID = "This link is not valid. Please check that you opened the whole link from the e-mail, or ask for a new one below.";
export const ME_LINK_EXPIRED = "This link has expired. Ask for a new one below: we e-mail it to the address you gave us.";

/** An erasure from /me is confirmed by ticking a box (no JavaScript needed, no dialog). */
export const ERASE_CONFIRM_MESSAGE = "Tick the box to confirm that you want your data erased";

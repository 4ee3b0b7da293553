// Back-office error texts of spec §8 that the schemas do not already carry; word for word.
export const ENQUIRY_LOAD_FAILED = "Failed to load enquiries. Please try again.";
export const ENQUIRY_STATUS_FAILED = "Failed to update status. Please try again.";
export const ENQUIRY_DELETE_FAILED = "Failed to delete enquiry. Please try again.";

export const CONTACT_QUERY_LOAD_FAILED = "Failed to load contact queries. Please try again.";
export const CONTACT_QUERY_STATUS_FAILED = "Failed to update status. Please try again.";
export const CONTACT_QUERY_DELETE_FAILED = "Failed to delete contact query. Please try again.";

/** Not in the spec: a course save after the session ran out, with the form still open and filled in. */
export const SESSION_ENDED_WHILE_EDITING =
  "Your session has ended, so the course was not saved. Sign in again at /admin/login in another tab, then press Save Course here: what you typed is kept.";

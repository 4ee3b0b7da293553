/**
 * What the site says for a course without a fee, never ₹0 (issue 27, item 4). Apart from ./fee.ts so the public
 * pages' code can show it without loading zod (DESIGN.md §6's script budget).
 */
export const FEE_ON_REQUEST = "Fee on request";

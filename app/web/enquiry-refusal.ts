/**
 * A save of one of the enquiry details' forms that was refused, as the action answers it: which form, the rule's
 * code and words, the message per field, and what the person had chosen (shown again in that form, so nothing they
 * chose is lost to a refusal).
 */
export type FormRefusal = {
  form: "log" | "owner" | "follow-up" | "batch" | "add-seat" | "status";
  code: string;
  message: string;
  fields: Record<string, string>;
  typed: Record<string, string>;
};

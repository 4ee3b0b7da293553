/**
 * A staff form's save refused because someone changed the record since the form was drawn (409 edit_conflict):
 * their message ("This batch was changed by … Here is what it holds now.") and what this person had entered that
 * differs from what is stored now, by the form's labels (app/web/admin-actions.server.ts editConflictShown).
 */
export type EditConflict = { message: string; yours: { label: string; value: string }[] };

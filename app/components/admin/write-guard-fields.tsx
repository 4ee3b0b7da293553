/**
 * What a staff form says it was drawn from (app/schemas/enquiry-pipeline.ts writeGuardSchema): the record's version,
 * so a save over a newer change is refused, and a key of its own for this drawing of the form, so posting it twice
 * (a double click, a refresh, a resubmit) changes nothing the second time.
 */
export function WriteGuardFields({ version, formKey, form }: { version?: number; formKey: string; form: string }) {
  return (
    <>
      {version !== undefined ? <input type="hidden" name="version" value={version} /> : null}
      <input type="hidden" name="formKey" value={`${formKey}.${form}`} />
    </>
  );
}

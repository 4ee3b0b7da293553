import { lazy, Suspense, useEffect, useId, useRef, useState } from "react";
import { INPUT_CLASS } from "./form-field";
import { useHydrated } from "./course-file-fields";

// Only this screen loads the editor, and only in the browser (the .client module never reaches the server).
const SyllabusEditor = lazy(() => import("./syllabus-editor.client"));

/**
 * Course Syllabus Content. Without JavaScript (and until the editor has loaded) it is a plain textarea of
 * Markdown; with JavaScript the rich-text editor writes Markdown into a hidden input of the same name.
 */
export function SyllabusField({ defaultValue, onUploadError }: { defaultValue: string; onUploadError: (message: string | null) => void }) {
  const hydrated = useHydrated();
  const id = useId();
  const [value, setValue] = useState(defaultValue);
  // Markdown typed into the plain textarea before the page hydrated (its onChange was not attached yet) is kept
  // when the editor takes its place.
  const plain = useRef<HTMLTextAreaElement>(null);
  useEffect(() => {
    if (plain.current && plain.current.value !== defaultValue) setValue(plain.current.value);
    // Only the server's textarea, once: later the editor owns the value.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  return (
    <div>
      <label htmlFor={id} id={`${id}-label`} className="mb-1 block text-sm font-semibold text-slate-800">
        Course Syllabus Content
      </label>
      {hydrated ? (
        <>
          <input type="hidden" name="syllabus" value={value} />
          <Suspense fallback={<textarea id={id} readOnly rows={10} value={value} className={INPUT_CLASS} aria-describedby={`${id}-hint`} />}>
            <SyllabusEditor markdown={value} onChange={setValue} labelledBy={`${id}-label`} onUploadError={onUploadError} />
          </Suspense>
        </>
      ) : (
        <textarea
          ref={plain}
          id={id}
          name="syllabus"
          rows={10}
          defaultValue={defaultValue}
          onChange={(e) => setValue(e.currentTarget.value)}
          className={`${INPUT_CLASS} font-mono`}
          aria-describedby={`${id}-hint`}
        />
      )}
      <p id={`${id}-hint`} className="mt-1 text-xs text-slate-600">
        {hydrated
          ? "Headings, lists, colours, links and images are kept as Markdown."
          : "Markdown: # Heading, **bold**, *italic*, - list item, [link](https://…)."}
      </p>
    </div>
  );
}

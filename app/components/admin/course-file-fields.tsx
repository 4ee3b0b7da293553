import { useEffect, useId, useRef, useState } from "react";
import { acceptList, looksAccepted, typeNames } from "~/schemas/uploads";
import { IMAGE_MAX_BYTES, IMAGE_SIZE_MESSAGE, IMAGE_TYPE_MESSAGE, SYLLABUS_MAX_BYTES, SYLLABUS_SIZE_MESSAGE, SYLLABUS_TYPE_MESSAGE } from "~/schemas/course";

/** True once the browser runs our code: the no-JavaScript controls are swapped for richer ones. */
export function useHydrated() {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}

const FILE_INPUT =
  "block w-full text-sm text-slate-700 file:mr-3 file:rounded-md file:border-0 file:bg-brand-50 file:px-3 file:py-2 file:font-semibold file:text-brand-800 hover:file:bg-brand-100";
const SMALL_BUTTON = "rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-semibold text-slate-800 hover:bg-slate-50";

/** Checks in the browser with the spec's messages; the server checks again by content. */
export function checkImageFile(file: File): string | null {
  if (!looksAccepted("image", file)) return IMAGE_TYPE_MESSAGE;
  if (file.size >= IMAGE_MAX_BYTES) return IMAGE_SIZE_MESSAGE;
  return null;
}

export function checkSyllabusFile(file: File): string | null {
  if (!looksAccepted("syllabus", file)) return SYLLABUS_TYPE_MESSAGE;
  if (file.size >= SYLLABUS_MAX_BYTES) return SYLLABUS_SIZE_MESSAGE;
  return null;
}

function FieldError({ id, message }: { id: string; message?: string | null }) {
  return message ? (
    <p id={id} className="mt-1 text-sm font-medium text-red-700">
      {message}
    </p>
  ) : null;
}

/**
 * Course Image: the stored image (or a preview of the chosen file) with Remove. Without JavaScript the
 * file input and a "Remove image" checkbox post as they are. Choosing a file replaces the stored image;
 * removing clears both (spec §4).
 */
export function CourseImageField({
  current,
  removeRequested = false,
  serverError,
}: {
  current: string | null;
  removeRequested?: boolean;
  serverError?: string;
}) {
  const hydrated = useHydrated();
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [preview, setPreview] = useState<string | null>(null);
  const [removed, setRemoved] = useState(removeRequested);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => () => void (preview && URL.revokeObjectURL(preview)), [preview]);

  const shown = preview ?? (removed ? null : current);
  const message = error ?? serverError;
  const clear = () => {
    if (input.current) input.current.value = "";
    setPreview(null);
    setRemoved(true);
  };
  return (
    <fieldset>
      <legend className="mb-1 text-sm font-semibold text-slate-800">Course Image</legend>
      <div className="flex flex-wrap items-start gap-4">
        {shown ? (
          <img
            src={shown}
            alt={preview ? "Preview of the chosen image" : "Current course image"}
            width={120}
            height={80}
            className="h-20 w-30 rounded-md border border-slate-200 object-cover"
          />
        ) : null}
        <div className="min-w-0 flex-1 space-y-2">
          <label htmlFor={`${id}-file`} className="sr-only">
            Choose a course image
          </label>
          <input
            ref={input}
            id={`${id}-file`}
            type="file"
            name="image"
            accept={acceptList("image")}
            aria-describedby={`${id}-hint${message ? ` ${id}-error` : ""}`}
            aria-invalid={message ? true : undefined}
            className={FILE_INPUT}
            onChange={(event) => {
              const file = event.currentTarget.files?.[0];
              setError(null);
              if (!file) return setPreview(null);
              const problem = checkImageFile(file);
              if (problem) {
                event.currentTarget.value = "";
                setPreview(null);
                return setError(problem);
              }
              setPreview(URL.createObjectURL(file));
              setRemoved(false);
            }}
          />
          <p id={`${id}-hint`} className="text-xs text-slate-600">
            {typeNames("image")}, less than 5 MB.
          </p>
          {hydrated ? (
            <>
              {shown ? (
                <button type="button" onClick={clear} className={SMALL_BUTTON}>
                  Remove image
                </button>
              ) : null}
              {removed && current ? <input type="hidden" name="removeImage" value="on" /> : null}
            </>
          ) : current ? (
            <label className="flex items-center gap-2 text-sm text-slate-800">
              <input type="checkbox" name="removeImage" defaultChecked={removeRequested} className="size-4 accent-brand-700" /> Remove image
            </label>
          ) : null}
          <FieldError id={`${id}-error`} message={message} />
        </div>
      </div>
    </fieldset>
  );
}

/**
 * The optional syllabus file (PDF, DOC, DOCX) with download and remove. `removeRequested`: the form came
 * back from the server with "remove" chosen, which stays chosen.
 */
export function SyllabusFileField({
  current,
  currentName,
  removeRequested = false,
  serverError,
}: {
  current: string | null;
  currentName: string;
  removeRequested?: boolean;
  serverError?: string;
}) {
  const hydrated = useHydrated();
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [chosen, setChosen] = useState<string | null>(null);
  const [removed, setRemoved] = useState(removeRequested);
  const [error, setError] = useState<string | null>(null);
  const message = error ?? serverError;
  const stored = current && !removed && !chosen;
  return (
    <fieldset>
      <legend className="mb-1 text-sm font-semibold text-slate-800">Syllabus File (optional)</legend>
      {stored ? (
        <p className="mb-2 text-sm">
          <a href={current} download={currentName} className="font-semibold text-brand-700 underline">
            Download {currentName}
          </a>
        </p>
      ) : null}
      {chosen ? <p className="mb-2 text-sm text-slate-700">Chosen: {chosen}</p> : null}
      <label htmlFor={`${id}-file`} className="sr-only">
        Choose a syllabus file
      </label>
      <input
        ref={input}
        id={`${id}-file`}
        type="file"
        name="syllabusFile"
        accept={acceptList("syllabus")}
        aria-describedby={`${id}-hint${message ? ` ${id}-error` : ""}`}
        aria-invalid={message ? true : undefined}
        className={FILE_INPUT}
        onChange={(event) => {
          const file = event.currentTarget.files?.[0];
          setError(null);
          if (!file) return setChosen(null);
          const problem = checkSyllabusFile(file);
          if (problem) {
            event.currentTarget.value = "";
            setChosen(null);
            return setError(problem);
          }
          setChosen(file.name);
          setRemoved(false);
        }}
      />
      <p id={`${id}-hint`} className="mt-1 text-xs text-slate-600">
        {typeNames("syllabus")}, less than 10 MB.
      </p>
      {hydrated ? (
        <>
          {stored || chosen ? (
            <button
              type="button"
              className={`mt-2 ${SMALL_BUTTON}`}
              onClick={() => {
                if (input.current) input.current.value = "";
                setChosen(null);
                setRemoved(true);
              }}
            >
              Remove file
            </button>
          ) : null}
          {removed && current ? <input type="hidden" name="removeSyllabusFile" value="on" /> : null}
        </>
      ) : current ? (
        <label className="mt-2 flex items-center gap-2 text-sm text-slate-800">
          <input type="checkbox" name="removeSyllabusFile" defaultChecked={removeRequested} className="size-4 accent-brand-700" /> Remove syllabus file
        </label>
      ) : null}
      <FieldError id={`${id}-error`} message={message} />
    </fieldset>
  );
}

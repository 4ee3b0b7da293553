import "@mdxeditor/editor/style.css";
import "./syllabus-editor.css";
import {
  activeEditor$,
  BlockTypeSelect,
  BoldItalicUnderlineToggles,
  ButtonOrDropdownButton,
  ButtonWithTooltip,
  CreateLink,
  headingsPlugin,
  imagePlugin,
  InsertImage,
  linkDialogPlugin,
  linkPlugin,
  listsPlugin,
  ListsToggle,
  markdownShortcutPlugin,
  MDXEditor,
  quotePlugin,
  Separator,
  StrikeThroughSupSubToggles,
  toolbarPlugin,
  useCellValue,
} from "@mdxeditor/editor";
import { $patchStyleText } from "@lexical/selection";
import { $getSelection, $isRangeSelection, $isTextNode } from "lexical";
import { useState } from "react";
import { BACKGROUND_COLORS, TEXT_COLORS } from "~/config/palette";

const HEADINGS = [1, 2, 3, 4, 5, 6] as const;

/** Sends an image picked in the editor to the server; the syllabus keeps its URL, never inline base64. */
async function uploadSyllabusImage(file: File): Promise<string> {
  const body = new FormData();
  body.append("image", file);
  const res = await fetch("/admin/courses/syllabus-image", { method: "POST", body, headers: { Accept: "application/json" } });
  const data = (await res.json().catch(() => null)) as { url?: string; error?: string } | null;
  if (!res.ok || !data?.url) throw new Error(data?.error ?? "The image could not be uploaded. Please try again.");
  return data.url;
}

function Swatch({ color, background }: { color?: string; background?: string }) {
  return (
    <span
      aria-hidden="true"
      style={{
        display: "inline-block",
        width: 14,
        height: 14,
        marginRight: 6,
        borderRadius: 3,
        border: "1px solid #94a3b8",
        background: background || color || "transparent",
        verticalAlign: "middle",
      }}
    />
  );
}

/**
 * Text colour and background from the palette (app/config/palette.ts): the selected text gets
 * `<span style="color: …">` in the Markdown, which the server's sanitiser keeps for these values only.
 */
function ColourMenus() {
  const editor = useCellValue(activeEditor$);
  const apply = (property: "color" | "background-color", value: string) => {
    editor?.update(() => {
      const selection = $getSelection();
      if ($isRangeSelection(selection)) $patchStyleText(selection, { [property]: value || null });
    });
    editor?.focus();
  };
  return (
    <>
      <ButtonOrDropdownButton
        title="Text colour"
        onChoose={(v) => apply("color", v === "none" ? "" : v)}
        items={TEXT_COLORS.map((c) => ({
          value: c.value || "none",
          label: (
            <span>
              <Swatch color={c.value} />
              {c.name}
            </span>
          ),
        }))}
      >
        <span style={{ fontWeight: 700, textDecoration: "underline", textDecorationColor: "#b91c1c", textDecorationThickness: 3 }}>A</span>
      </ButtonOrDropdownButton>
      <ButtonOrDropdownButton
        title="Background"
        onChoose={(v) => apply("background-color", v === "none" ? "" : v)}
        items={BACKGROUND_COLORS.map((c) => ({
          value: c.value || "none",
          label: (
            <span>
              <Swatch background={c.value} />
              {c.name}
            </span>
          ),
        }))}
      >
        <span style={{ fontWeight: 700, background: "#fef08a", padding: "0 3px" }}>A</span>
      </ButtonOrDropdownButton>
    </>
  );
}

/** "Clean": drops bold, italic, underline, strike, colours and backgrounds from the selected text. */
function ClearFormatting() {
  const editor = useCellValue(activeEditor$);
  return (
    <ButtonWithTooltip
      title="Clear formatting"
      onClick={() => {
        editor?.update(() => {
          const selection = $getSelection();
          if (!$isRangeSelection(selection)) return;
          for (const node of selection.extract()) {
            if ($isTextNode(node)) {
              node.setFormat(0);
              node.setStyle("");
            }
          }
        });
        editor?.focus();
      }}
    >
      {/* A drawn "T with a cross", no text: the button's name is its title, and visible text ("Tx") that is not part of
          that name fails WCAG 2.5.3 (label in name). */}
      <svg
        aria-hidden="true"
        focusable="false"
        width="18"
        height="18"
        viewBox="0 0 24 24"
        fill="none"
        stroke="currentColor"
        strokeWidth="2.2"
        strokeLinecap="round"
      >
        <path d="M4 5h12M10 5v13" />
        <path d="M15 15l5 5M20 15l-5 5" />
      </svg>
    </ButtonWithTooltip>
  );
}

/** MDXEditor's English texts, with the content area named after its label; {{placeholders}} filled in. */
function translate(key: string, defaultValue: string, interpolations?: Record<string, unknown>): string {
  if (key === "contentArea.editableMarkdown") return "Course Syllabus Content";
  return defaultValue.replace(/\{\{(\w+)\}\}/g, (match, name: string) => (interpolations && name in interpolations ? String(interpolations[name]) : match));
}

export default function SyllabusEditor({
  markdown,
  onChange,
  labelledBy,
  onUploadError,
}: {
  markdown: string;
  onChange: (markdown: string) => void;
  labelledBy: string;
  /** A failed image upload's message; null once an upload succeeds, so an old failure does not linger. */
  onUploadError: (message: string | null) => void;
}) {
  // Menus and the link dialog render here, inside the modal <dialog>: anything outside it is inert.
  const [overlay, setOverlay] = useState<HTMLDivElement | null>(null);
  return (
    <div role="group" aria-labelledby={labelledBy} className="syllabus-editor rounded-md border border-slate-300 bg-white">
      <div ref={setOverlay} className="syllabus-editor-overlays" />
      {overlay ? (
        <MDXEditor
          overlayContainer={overlay}
          markdown={markdown}
          onChange={(md, initialNormalize) => {
            if (!initialNormalize) onChange(md);
          }}
          translation={translate}
          contentEditableClassName="syllabus-content min-h-48 max-w-none px-3 py-2 text-sm"
          plugins={[
            headingsPlugin({ allowedHeadingLevels: [...HEADINGS] }),
            listsPlugin(),
            quotePlugin(),
            linkPlugin(),
            linkDialogPlugin(),
            imagePlugin({
              disableImageResize: true,
              imageUploadHandler: async (file) => {
                try {
                  const url = await uploadSyllabusImage(file);
                  onUploadError(null);
                  return url;
                } catch (error) {
                  onUploadError(error instanceof Error ? error.message : String(error));
                  throw error;
                }
              },
            }),
            markdownShortcutPlugin(),
            toolbarPlugin({
              toolbarContents: () => (
                <>
                  <BlockTypeSelect />
                  <Separator />
                  <BoldItalicUnderlineToggles />
                  <StrikeThroughSupSubToggles options={["Strikethrough"]} />
                  <Separator />
                  <ListsToggle options={["number", "bullet"]} />
                  <Separator />
                  <ColourMenus />
                  <Separator />
                  <CreateLink />
                  <InsertImage />
                  <Separator />
                  <ClearFormatting />
                </>
              ),
            }),
          ]}
        />
      ) : null}
    </div>
  );
}

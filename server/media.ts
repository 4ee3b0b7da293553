import path from "node:path";
import express, { type Express } from "express";
import { env } from "~/env.server";

// Should a browser ever render an uploaded file as a document, it runs as an opaque origin with nothing allowed.
const MEDIA_CSP = "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; sandbox";

/**
 * Uploaded course images and syllabus files. Names are random and server-chosen, so they never change:
 * cache them long. Syllabus files always download; enquiry attachments are never served here
 * (staff fetch them through the admin routes).
 */
export function registerMedia(app: Express) {
  const root = path.resolve(env().UPLOAD_DIR);
  app.use(
    "/media/images",
    express.static(path.join(root, "images"), {
      index: false,
      dotfiles: "deny",
      immutable: true,
      maxAge: "365d",
      setHeaders(res) {
        res.setHeader("X-Content-Type-Options", "nosniff");
        res.setHeader("Content-Security-Policy", MEDIA_CSP);
      },
    }),
  );
  app.use(
    "/media/syllabus",
    express.static(path.join(root, "syllabus"), {
      index: false,
      dotfiles: "deny",
      immutable: true,
      maxAge: "365d",
      setHeaders(res) {
        res.setHeader("X-Content-Type-Options", "nosniff");
        res.setHeader("Content-Disposition", "attachment");
        res.setHeader("Content-Security-Policy", MEDIA_CSP);
      },
    }),
  );
  app.use(["/media/images", "/media/syllabus"], (_req, res) => {
    res.status(404).type("text/plain").send("Not found");
  });
}

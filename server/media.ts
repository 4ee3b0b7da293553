import path from "node:path";
import type { Express, Request, Response } from "express";
import { fileStore } from "~/infra/file-store.server";

// Should a browser ever render an uploaded file as a document, it runs as an opaque origin with nothing allowed.
const MEDIA_CSP = "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; sandbox";

const TYPES: Record<string, string> = {
  ".webp": "image/webp",
  ".pdf": "application/pdf",
  ".doc": "application/msword",
  ".docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
};

/**
 * Uploaded course images and syllabus files, read from the file store (so any instance serves what another
 * stored). Names are random and server-chosen, so they never change: cached for a year, with the name as ETag.
 * Syllabus files always download; enquiry attachments are never served here (staff fetch them through the
 * admin routes).
 */
export function registerMedia(app: Express) {
  for (const folder of ["images", "syllabus"] as const) {
    app.get(`/media/${folder}/:name`, async (req: Request, res: Response, next) => {
      try {
        const name = String(req.params.name);
        if (!/^[a-f0-9]{32}\.[a-z0-9]+$/.test(name)) return void notFound(res);
        const etag = `"${name}"`;
        const common = () => {
          res.setHeader("X-Content-Type-Options", "nosniff");
          res.setHeader("Content-Security-Policy", MEDIA_CSP);
          res.setHeader("Cache-Control", "public, max-age=31536000, immutable");
          res.setHeader("ETag", etag);
        };
        if (req.headers["if-none-match"] === etag) {
          common();
          return void res.status(304).end();
        }
        const file = await fileStore().get(`${folder}/${name}`);
        if (!file) return void notFound(res);
        common();
        res.setHeader("Content-Type", TYPES[path.extname(name)] ?? "application/octet-stream");
        res.setHeader("Content-Length", String(file.size));
        res.setHeader("Last-Modified", new Date(file.modifiedAt).toUTCString());
        if (folder === "syllabus") res.setHeader("Content-Disposition", "attachment");
        if (req.method === "HEAD") {
          file.body.destroy();
          return void res.end();
        }
        file.body.on("error", (error) => (res.headersSent ? res.destroy(error) : next(error)));
        file.body.pipe(res);
      } catch (error) {
        next(error);
      }
    });
  }
  app.use(["/media/images", "/media/syllabus"], (req, res, next) => (req.method === "GET" || req.method === "HEAD" ? notFound(res) : next()));
}

function notFound(res: Response) {
  res.status(404).type("text/plain").send("Not found");
}

import { type Kysely, sql } from "kysely";

// Portable across SQLite and MySQL/MariaDB: varchar/text/integer only, ids made in the app,
// booleans as integer 0/1, timestamps as ISO-8601 UTC text (sorts the same as time).
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("users")
    .addColumn("id", "varchar(36)", (c) => c.primaryKey())
    .addColumn("name", "varchar(100)", (c) => c.notNull())
    .addColumn("email", "varchar(254)", (c) => c.notNull().unique())
    .addColumn("passwordHash", "varchar(255)", (c) => c.notNull())
    .addColumn("role", "varchar(10)", (c) => c.notNull().defaultTo("editor"))
    .addColumn("sessionVersion", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("createdAt", "varchar(24)", (c) => c.notNull())
    .addColumn("updatedAt", "varchar(24)", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("courses")
    .addColumn("id", "varchar(36)", (c) => c.primaryKey())
    .addColumn("slug", "varchar(120)", (c) => c.notNull().unique())
    .addColumn("title", "varchar(200)", (c) => c.notNull())
    .addColumn("category", "varchar(20)", (c) => c.notNull())
    .addColumn("duration", "varchar(100)", (c) => c.notNull().defaultTo(""))
    .addColumn("description", "text", (c) => c.notNull())
    .addColumn("image", "varchar(500)")
    .addColumn("featured", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("highlights", "text", (c) => c.notNull())
    .addColumn("modes", "text", (c) => c.notNull())
    .addColumn("schedules", "text", (c) => c.notNull())
    .addColumn("syllabus", sql`mediumtext`, (c) => c.notNull())
    .addColumn("syllabusFile", "varchar(500)")
    .addColumn("syllabusFileName", "varchar(255)", (c) => c.notNull().defaultTo("course-syllabus.pdf"))
    .addColumn("createdAt", "varchar(24)", (c) => c.notNull())
    .addColumn("updatedAt", "varchar(24)", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("courses_category_created").on("courses").columns(["category", "createdAt"]).execute();
  await db.schema.createIndex("courses_featured_created").on("courses").columns(["featured", "createdAt"]).execute();
  await db.schema.createIndex("courses_created").on("courses").column("createdAt").execute();

  await db.schema
    .createTable("schedules")
    .addColumn("id", "varchar(36)", (c) => c.primaryKey())
    .addColumn("course", "varchar(36)", (c) => c.notNull().references("courses.id").onDelete("cascade"))
    .addColumn("courseName", "varchar(200)", (c) => c.notNull())
    .addColumn("startDate", "varchar(10)", (c) => c.notNull())
    .addColumn("endDate", "varchar(10)", (c) => c.notNull())
    .addColumn("time", "varchar(100)", (c) => c.notNull())
    .addColumn("days", "varchar(100)", (c) => c.notNull())
    .addColumn("mode", "varchar(10)", (c) => c.notNull())
    .addColumn("location", "varchar(200)", (c) => c.notNull())
    .addColumn("seats", "integer", (c) => c.notNull())
    .addColumn("totalSeats", "integer", (c) => c.notNull())
    .addColumn("createdAt", "varchar(24)", (c) => c.notNull())
    .addColumn("updatedAt", "varchar(24)", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("schedules_course").on("schedules").column("course").execute();
  await db.schema.createIndex("schedules_mode_start").on("schedules").columns(["mode", "startDate"]).execute();
  await db.schema.createIndex("schedules_end").on("schedules").column("endDate").execute();
  await db.schema.createIndex("schedules_created").on("schedules").column("createdAt").execute();

  await db.schema
    .createTable("reviews")
    .addColumn("id", "varchar(36)", (c) => c.primaryKey())
    .addColumn("name", "varchar(100)", (c) => c.notNull())
    .addColumn("position", "varchar(150)", (c) => c.notNull())
    .addColumn("image", "varchar(500)", (c) => c.notNull())
    .addColumn("rating", "integer", (c) => c.notNull().defaultTo(5))
    .addColumn("review", "text", (c) => c.notNull())
    .addColumn("course", "varchar(200)", (c) => c.notNull())
    .addColumn("type", "varchar(10)", (c) => c.notNull().defaultTo("text"))
    .addColumn("videoThumbnail", "varchar(500)")
    .addColumn("linkedin", "varchar(500)")
    .addColumn("approved", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("createdAt", "varchar(24)", (c) => c.notNull())
    .addColumn("updatedAt", "varchar(24)", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("reviews_approved_created").on("reviews").columns(["approved", "createdAt"]).execute();
  await db.schema.createIndex("reviews_course").on("reviews").column("course").execute();
  await db.schema.createIndex("reviews_created").on("reviews").column("createdAt").execute();

  await db.schema
    .createTable("enquiries")
    .addColumn("id", "varchar(36)", (c) => c.primaryKey())
    .addColumn("fullName", "varchar(100)", (c) => c.notNull())
    .addColumn("email", "varchar(254)", (c) => c.notNull())
    .addColumn("phone", "varchar(20)", (c) => c.notNull())
    .addColumn("preferredCourse", "varchar(200)", (c) => c.notNull())
    .addColumn("preferredMode", "varchar(10)", (c) => c.notNull())
    .addColumn("message", "text", (c) => c.notNull())
    .addColumn("whatsappNotifications", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("filePaths", "text", (c) => c.notNull())
    .addColumn("status", "varchar(10)", (c) => c.notNull().defaultTo("new"))
    .addColumn("createdAt", "varchar(24)", (c) => c.notNull())
    .addColumn("updatedAt", "varchar(24)", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("enquiries_status_created").on("enquiries").columns(["status", "createdAt"]).execute();
  await db.schema.createIndex("enquiries_created").on("enquiries").column("createdAt").execute();
  await db.schema.createIndex("enquiries_course").on("enquiries").column("preferredCourse").execute();
  await db.schema.createIndex("enquiries_mode").on("enquiries").column("preferredMode").execute();

  await db.schema
    .createTable("contact_queries")
    .addColumn("id", "varchar(36)", (c) => c.primaryKey())
    .addColumn("name", "varchar(100)", (c) => c.notNull())
    .addColumn("email", "varchar(254)", (c) => c.notNull())
    .addColumn("phone", "varchar(20)")
    .addColumn("subject", "varchar(200)")
    .addColumn("message", "text", (c) => c.notNull())
    .addColumn("status", "varchar(10)", (c) => c.notNull().defaultTo("new"))
    .addColumn("createdAt", "varchar(24)", (c) => c.notNull())
    .addColumn("updatedAt", "varchar(24)", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("contact_queries_status_created").on("contact_queries").columns(["status", "createdAt"]).execute();
  await db.schema.createIndex("contact_queries_created").on("contact_queries").column("createdAt").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of ["contact_queries", "enquiries", "reviews", "schedules", "courses", "users"]) {
    await db.schema.dropTable(t).ifExists().execute();
  }
}

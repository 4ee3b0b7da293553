import type { Generated } from "kysely";

/** Booleans are stored as 0/1 on both databases; lists of text as JSON text; timestamps as ISO-8601 UTC strings. */
type Bool = number;

export interface CoursesTable {
  id: string;
  slug: string;
  title: string;
  category: string;
  duration: string;
  description: string;
  image: string | null;
  featured: Bool;
  highlights: string;
  modes: string;
  schedules: string;
  syllabus: string;
  syllabusFile: string | null;
  syllabusFileName: string;
  createdAt: string;
  updatedAt: string;
}

export interface SchedulesTable {
  id: string;
  course: string;
  courseName: string;
  startDate: string;
  endDate: string;
  time: string;
  days: string;
  mode: string;
  location: string;
  seats: number;
  totalSeats: number;
  createdAt: string;
  updatedAt: string;
}

export interface ReviewsTable {
  id: string;
  name: string;
  position: string;
  image: string;
  rating: number;
  review: string;
  course: string;
  type: string;
  videoThumbnail: string | null;
  linkedin: string | null;
  approved: Bool;
  createdAt: string;
  updatedAt: string;
}

export interface EnquiriesTable {
  id: string;
  fullName: string;
  email: string;
  phone: string;
  /** The phone without separators, for search (migration 0003). */
  phoneDigits: string;
  preferredCourse: string;
  preferredMode: string;
  message: string;
  whatsappNotifications: Bool;
  filePaths: string;
  status: string;
  createdAt: string;
  updatedAt: string;
}

export interface ContactQueriesTable {
  id: string;
  name: string;
  email: string;
  phone: string | null;
  /** The phone without separators ("" when none), for search (migration 0003). */
  phoneDigits: string;
  subject: string | null;
  message: string;
  status: string;
  createdAt: string;
  updatedAt: string;
}

/** Browser sessions and API tokens ended by signing out, until they would have expired (migration 0004). */
export interface RevokedSessionsTable {
  id: string;
  expiresAt: string;
}

export interface UsersTable {
  id: string;
  name: string;
  email: string;
  passwordHash: string;
  role: string;
  /** Bumped on password change; sessions and tokens carrying an older value are refused. */
  sessionVersion: Generated<number>;
  createdAt: string;
  updatedAt: string;
}

export interface Database {
  courses: CoursesTable;
  schedules: SchedulesTable;
  reviews: ReviewsTable;
  enquiries: EnquiriesTable;
  contact_queries: ContactQueriesTable;
  users: UsersTable;
  revoked_sessions: RevokedSessionsTable;
}

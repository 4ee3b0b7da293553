import fc from "fast-check";
import { parseWithSchema } from "~/web/form-submission";
import { describe, expect, it } from "vitest";
import { contactSchema } from "./contact";
import { courseSchema } from "./course";
import { enquiryApiSchema, enquiryFormSchema, INDIAN_PHONE, indianPhoneDigits } from "./enquiry";
import { cleanText, DATE_PATTERN, DATE_PATTERN_1970, isCalendarDate, VISIBLE } from "./fields";
import { isSiteIri } from "./iri";
import { reviewSchema } from "./review";
import { scheduleSchema } from "./schedule";
import { changePasswordSchema, userCreateSchema, userUpdateSchema } from "./user";

function form(entries: Record<string, string | string[]>) {
  const fd = new FormData();
  for (const [k, v] of Object.entries(entries)) for (const item of Array.isArray(v) ? v : [v]) fd.append(k, item);
  return fd;
}

function formErrors(schema: Parameters<typeof parseWithSchema>[1], entries: Record<string, string | string[]>) {
  const s = parseWithSchema(form(entries), schema);
  return s.status === "success" ? {} : Object.fromEntries(Object.entries(s.error ?? {}).map(([k, v]) => [k, v?.[0]]));
}

describe("contact form (spec §5)", () => {
  it("gives the spec's messages for empty fields", () => {
    expect(formErrors(contactSchema, { name: "", email: "", message: "" })).toEqual({
      name: "Name is required",
      email: "Email is required",
      message: "Message is required",
    });
  });
  it("checks the e-mail shape; phone and subject are optional", () => {
    expect(formErrors(contactSchema, { name: "A", email: "nope", message: "Hi" })).toEqual({ email: "Valid email is required" });
    expect(formErrors(contactSchema, { name: "A", email: "a@b.co", message: "Hi", phone: "", subject: "" })).toEqual({});
  });
  it("treats blank text as missing in JSON too", () => {
    const r = contactSchema.safeParse({ name: "  ", email: "a@b.co", message: "x" });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0].message).toBe("Name is required");
  });
});

describe("enquiry form (spec §5)", () => {
  const ok = { fullName: "Ravi", email: "r@x.in", phone: "98765-43210", preferredCourse: "SOC Analyst Training Program", preferredMode: "online" };
  it("gives the spec's messages", () => {
    expect(formErrors(enquiryFormSchema, {})).toEqual({
      fullName: "Full name is required",
      email: "Email is required",
      phone: "Phone number is required",
      preferredCourse: "Please select a course",
      preferredMode: "Please select preferred mode",
    });
    expect(formErrors(enquiryFormSchema, { ...ok, phone: "12345" })).toEqual({ phone: "Valid 10-digit phone number is required" });
    expect(formErrors(enquiryFormSchema, { ...ok, phone: "+1 415 555 0100" })).toEqual({ phone: "Valid 10-digit phone number is required" });
    expect(formErrors(enquiryFormSchema, { ...ok, preferredMode: "teleport" })).toEqual({ preferredMode: "Please select preferred mode" });
  });
  it("takes a phone number as Indians write it and stores the 10 digits", () => {
    for (const phone of ["+91 98765 43210", "919876543210", "09876543210", "98765-43210", "(98765) 43210", "+91-98765-43210"]) {
      expect(enquiryApiSchema.parse({ ...ok, phone }).phone, phone).toBe("9876543210");
    }
    for (const phone of ["12345", "+1 415 555 0100", "9198765432101", "1 98765 43210", "0 0987654321 0"]) {
      expect(formErrors(enquiryFormSchema, { ...ok, phone }), phone).toEqual({ phone: "Valid 10-digit phone number is required" });
    }
  });
  it("reads the WhatsApp checkbox: absent is false on the form, true by default in the API", () => {
    const f = parseWithSchema(form(ok), enquiryFormSchema);
    expect(f.status === "success" && f.value.whatsappNotifications).toBe(false);
    const on = parseWithSchema(form({ ...ok, whatsappNotifications: "on" }), enquiryFormSchema);
    expect(on.status === "success" && on.value.whatsappNotifications).toBe(true);
    expect(enquiryApiSchema.parse(ok).whatsappNotifications).toBe(true);
    expect(enquiryApiSchema.parse({ ...ok, whatsappNotifications: false }).whatsappNotifications).toBe(false);
  });
  it("ignores fields a client may not set", () => {
    const v = enquiryApiSchema.parse({ ...ok, status: "enrolled", id: "x", createdAt: "2020" });
    expect(v).not.toHaveProperty("status");
    expect(v).not.toHaveProperty("id");
  });
});

describe("control characters", () => {
  it("are removed from text fields; line breaks stay only in multi-line ones", () => {
    const v = courseSchema.parse({
      title: "Ctl\u0001Test\u0085 One\nTwo",
      category: "advanced",
      description: "Line\u0000 one\r\nLine\ttwo\u009f",
      highlights: ["A\u0007b"],
    });
    expect(v.title).toBe("CtlTest One Two");
    expect(v.description).toBe("Line one\nLine\ttwo");
    expect(v.highlights).toEqual(["Ab"]);
    expect(formErrors(contactSchema, { name: "\u0001\u0002", email: "a@b.co", message: "Hi" })).toEqual({ name: "Name is required" });
  });
  it("lone surrogates are removed too; a character outside the BMP is one character", () => {
    const v = courseSchema.parse({ title: "A\ud800B\udc00C😀", category: "advanced", description: "😀".repeat(5000) });
    expect(v.title).toBe("ABC😀");
    // JSON can carry one (a form cannot: FormData makes it U+FFFD).
    expect(contactSchema.safeParse({ name: "\ud800", email: "a@b.co", message: "Hi" }).error?.issues[0].message).toBe("Name is required");
    expect(contactSchema.parse({ name: "😀", email: "a@b.co", message: "Hi" }).name).toBe("😀");
  });
});

describe("direction controls", () => {
  const CONTROLS = ["\u202A", "\u202B", "\u202C", "\u202D", "\u202E", "\u2066", "\u2067", "\u2068", "\u2069"];

  it("are removed from one-line fields (names, subjects, phone, e-mail, titles), kept in multi-line ones", () => {
    for (const c of CONTROLS) {
      const hex = c.codePointAt(0)!.toString(16);
      expect(cleanText(`Ravi${c}fdp.exe`, false), hex).toBe("Ravifdp.exe");
      expect(cleanText(`Hello ${c}there`, true), hex).toBe(`Hello ${c}there`);
    }
    const contact = contactSchema.parse({
      name: "\u202EMeera Das",
      email: "meera@example.com\u202C",
      phone: "\u2066+91 98450 12345\u2069",
      subject: "Fees\u202E?",
      message: "Hi\u202B!",
    });
    expect(contact).toMatchObject({ name: "Meera Das", email: "meera@example.com", phone: "9845012345", subject: "Fees?", message: "Hi\u202B!" });
    const enquiry = enquiryApiSchema.parse({
      fullName: "Ravi\u202E Kumar",
      email: "ravi@example.com",
      phone: "98450\u202D12345",
      preferredCourse: "SOC\u2067",
      preferredMode: "online",
    });
    expect(enquiry).toMatchObject({ fullName: "Ravi Kumar", phone: "9845012345", preferredCourse: "SOC" });
    const course = courseSchema.parse({ title: "\u202ESOC Level 1", category: "advanced", description: "x", highlights: ["\u2066Labs\u2069"] });
    expect(course).toMatchObject({ title: "SOC Level 1", highlights: ["Labs"] });
    // A name of nothing but direction controls is no name.
    expect(formErrors(contactSchema, { name: "\u202E\u2066", email: "a@b.co", message: "Hi" })).toEqual({ name: "Name is required" });
  });

  it("line and paragraph separators are line breaks: a space in one-line fields, \\n in multi-line ones", () => {
    expect(cleanText("A\u2028B\u2029C", false)).toBe("A B C");
    expect(cleanText("A\u2028B\u2029C", true)).toBe("A\nB\nC");
  });
});

describe("noncharacters", () => {
  // U+FDD0–U+FDEF and U+xFFFE/U+xFFFF in each of the 17 planes: 66 in all.
  const NONCHARACTERS = [
    ...Array.from({ length: 32 }, (_, i) => 0xfdd0 + i),
    ...Array.from({ length: 17 }, (_, plane) => [plane * 0x10000 + 0xfffe, plane * 0x10000 + 0xffff]).flat(),
  ].map((cp) => String.fromCodePoint(cp));
  const NEIGHBOURS = [0xfdcf, 0xfdf0, 0xfffd, 0x1fffd, 0xefffd, 0x10fffd, 0x10000, 0xe0100].map((cp) => String.fromCodePoint(cp));

  it("are removed from text like control characters, in every plane", () => {
    expect(NONCHARACTERS).toHaveLength(66);
    for (const c of NONCHARACTERS) {
      const hex = c.codePointAt(0)!.toString(16);
      expect(cleanText(`A${c}B`, false), hex).toBe("AB");
      expect(cleanText(`A${c}\nB`, true), hex).toBe("A\nB");
      expect(
        courseSchema.parse({ title: `T${c}`, category: "advanced", description: `D${c}`, duration: `${c}6 weeks`, highlights: [`H${c}`] }),
        hex,
      ).toMatchObject({
        title: "T",
        description: "D",
        duration: "6 weeks",
        highlights: ["H"],
      });
    }
    // Their neighbours are characters and stay.
    for (const c of NEIGHBOURS) expect(cleanText(`A${c}B`, false), c.codePointAt(0)!.toString(16)).toBe(`A${c}B`);
  });

  it("alone leave a required field empty and an optional one missing", () => {
    const all = NONCHARACTERS.join("");
    expect(formErrors(contactSchema, { name: all, email: "a@b.co", message: "\ufffe\uffff" })).toEqual({
      name: "Name is required",
      message: "Message is required",
    });
    expect(contactSchema.safeParse({ name: "\u{10ffff}", email: "a@b.co", message: "Hi" }).error?.issues[0].message).toBe("Name is required");
    expect(contactSchema.parse({ name: "A", email: "a@b.co", message: "Hi", subject: all }).subject).toBeUndefined();
    expect(courseSchema.parse({ title: "T", category: "advanced", description: "D", highlights: ["\ufdd0", "Labs"] }).highlights).toEqual(["Labs"]);
  });

  it("or controls taken out from between two lone surrogates do not join them into a character", () => {
    expect(cleanText("A\ud800\u0001\udc00B", false)).toBe("AB");
    expect(cleanText("A\ud83d\ufffe\ude00B", false)).toBe("AB");
    expect(cleanText("A\ud83d\ude00B", false)).toBe("A😀B");
  });

  it("cleaned text has no control character, noncharacter or lone surrogate left, and cleaning it again changes nothing", () => {
    const unit = fc.oneof(
      fc.constantFrom("a", " ", "\n", "\r", "\t", "\u0001", "\u009f", "\ud800", "\udc00", "\ud83d", "\ude00", "\ufffe", "\uffff", "\ufdd0", "\u200b"),
      fc.string({ unit: "binary", minLength: 1, maxLength: 1 }),
    );
    const bad =
      // eslint-disable-next-line no-control-regex -- matching control characters is the point
      /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\p{Noncharacter_Code_Point}]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/u;
    fc.assert(
      fc.property(
        fc.array(unit, { maxLength: 12 }).map((a) => a.join("")),
        fc.boolean(),
        (raw, multiline) => {
          const once = cleanText(raw, multiline);
          return !bad.test(once) && cleanText(once, multiline) === once;
        },
      ),
      { seed: 20260512, numRuns: 2000 },
    );
  });
});

describe("text with nothing visible in it", () => {
  // Each class on its own; every one of them, alone or together, is as good as an empty value.
  const INVISIBLE: Record<string, string[]> = {
    "zero-width space, non-joiner, joiner and direction marks (U+200B–U+200F)": ["\u200b", "\u200c", "\u200d", "\u200e", "\u200f"],
    "soft hyphen (U+00AD)": ["\u00ad"],
    "word joiner and invisible operators (U+2060–U+2064)": ["\u2060", "\u2061", "\u2062", "\u2063", "\u2064"],
    "byte order mark (U+FEFF)": ["\ufeff"],
    "Hangul fillers (U+3164, U+115F, U+1160, U+FFA0)": ["\u3164", "\u115f", "\u1160", "\uffa0"],
    "Mongolian vowel separator (U+180E)": ["\u180e"],
    "combining grapheme joiner (U+034F)": ["\u034f"],
    "braille blank (U+2800)": ["\u2800"],
    "variation selectors (U+FE00–U+FE0F, U+E0100–U+E01EF, Mongolian U+180B–U+180D)": ["\ufe00", "\ufe0f", "\u{e0100}", "\u{e01ef}", "\u180b", "\u180d"],
    "white space of any kind": [" ", "\t", "\n", "\r\n", "\u00a0", "\u1680", "\u2000", "\u2007", "\u200a", "\u2028", "\u2029", "\u202f", "\u205f", "\u3000"],
  };
  const ALL = Object.values(INVISIBLE).flat().join("");
  const contact = { name: "A", email: "a@b.co", message: "Hi" };

  for (const [label, chars] of Object.entries(INVISIBLE)) {
    it(`${label}: a required field of only these fails as required, with the message an empty one gets`, () => {
      const empty = {
        form: formErrors(contactSchema, { ...contact, name: "", message: "" }),
        json: contactSchema.safeParse({ ...contact, name: "" }).error?.issues[0].message,
      };
      expect(empty.form).toEqual({ name: "Name is required", message: "Message is required" });
      for (const value of [...chars, chars.join(""), chars.join(" ")]) {
        const shown = [...value].map((c) => c.codePointAt(0)!.toString(16)).join(" ");
        expect(formErrors(contactSchema, { ...contact, name: value, message: value }), shown).toEqual(empty.form);
        const json = contactSchema.safeParse({ ...contact, name: value });
        expect(
          json.error?.issues.map((i) => i.message),
          shown,
        ).toEqual([empty.json]);
        expect(VISIBLE.test(value), shown).toBe(false);
      }
    });

    it(`${label}: an optional field of only these is left out, as an empty one is; a list drops such an entry`, () => {
      for (const value of [...chars, chars.join("")]) {
        const shown = [...value].map((c) => c.codePointAt(0)!.toString(16)).join(" ");
        expect(contactSchema.parse({ ...contact, subject: value, phone: value }), shown).toEqual(contactSchema.parse({ ...contact, subject: "", phone: "" }));
        const course = courseSchema.parse({
          title: "T",
          category: "advanced",
          description: "D",
          duration: value,
          syllabus: value,
          highlights: [value, "Labs", value],
        });
        expect(course.duration, shown).toBeUndefined();
        expect(course.syllabus, shown).toBeUndefined();
        expect(course.highlights, shown).toEqual(["Labs"]);
      }
    });
  }

  it("every class at once is still empty, in each kind of required field", () => {
    expect(formErrors(courseSchema, { title: ALL, category: "advanced", description: ALL })).toEqual({
      title: "Title is required",
      description: "Description is required",
    });
    expect(formErrors(userCreateSchema, { name: ALL, email: ALL, password: "a-long-password" })).toEqual({
      name: "Name is required",
      email: "Email is required",
    });
    expect(formErrors(enquiryFormSchema, { fullName: ALL, email: "r@x.in", phone: "9876543210", preferredCourse: ALL, preferredMode: "online" })).toEqual({
      fullName: "Full name is required",
      preferredCourse: "Please select a course",
    });
    expect(formErrors(reviewSchema, { name: ALL, position: "P", image: "/images/a.svg", rating: "5", course: "C", review: ALL })).toEqual({
      name: "Student name is required",
      review: "Review text is required",
    });
  });

  it("are not removed from a text that shows something", () => {
    const keep = ["👩\u200d💻", "👨\u200d👩\u200d👧", "❤\ufe0f", "Zo\u00ade", "\u200bRavi\u200b", "ग्\u200dय", "A\u2800B", "\u3164A", "葛\u{e0100}"];
    for (const name of keep) {
      expect(contactSchema.parse({ ...contact, name }).name, name).toBe(name);
      expect(courseSchema.parse({ title: name, category: "advanced", description: "D", highlights: [name] }), name).toMatchObject({
        title: name,
        highlights: [name],
      });
    }
  });
});

describe("course form", () => {
  it("requires title, category and description; keeps highlights as a list without blanks", () => {
    expect(formErrors(courseSchema, {})).toMatchObject({
      title: "Title is required",
      category: "Category is required",
      description: "Description is required",
    });
    const s = parseWithSchema(
      form({ title: "T", category: "advanced", description: "D", "highlights[0]": "Labs", "highlights[1]": "", "highlights[2]": "Jobs", featured: "on" }),
      courseSchema,
    );
    expect(s.status).toBe("success");
    if (s.status === "success") expect(s.value).toMatchObject({ highlights: ["Labs", "Jobs"], featured: true, category: "advanced" });
    expect(formErrors(courseSchema, { title: "T", category: "expert", description: "D" })).toEqual({ category: "Category is required" });
  });
});

describe("schedule form", () => {
  const ok = {
    course: "c1",
    startDate: "2027-01-05",
    endDate: "2027-03-05",
    time: "6:30 PM - 9:30 PM",
    days: "Mon, Wed, Fri",
    mode: "online",
    location: "Online",
    seats: "20",
    totalSeats: "30",
  };
  it("requires every field and parses integers; a seats sent is read (and then ignored by the service)", () => {
    expect(Object.keys(formErrors(scheduleSchema, {})).sort()).toEqual(
      ["course", "days", "endDate", "location", "mode", "startDate", "time", "totalSeats"].sort(),
    );
    const s = parseWithSchema(form({ ...ok, seats: "abc" }), scheduleSchema);
    expect(s.status === "success" && s.value.seats).toBe(0);
    expect(formErrors(scheduleSchema, { ...ok, totalSeats: "0" })).toEqual({ totalSeats: "Total seats must be at least 1" });
  });
  it("refuses an end before the start (a seats value above the total is ignored, not checked)", () => {
    expect(formErrors(scheduleSchema, { ...ok, seats: "31" })).toEqual({});
    expect(formErrors(scheduleSchema, { ...ok, endDate: "2026-01-01" })).toEqual({ endDate: "End date cannot be before the start date" });
    expect(formErrors(scheduleSchema, { ...ok, startDate: "2027-02-30" })).toEqual({ startDate: "Enter a date as YYYY-MM-DD" });
  });
});

describe("review form", () => {
  it("requires the spec's fields and starts unapproved", () => {
    expect(Object.keys(formErrors(reviewSchema, {})).sort()).toEqual(["course", "image", "name", "position", "rating", "review"]);
    const v = reviewSchema.parse({ name: "A", position: "P", image: "/images/a.svg", rating: 5, course: "C", review: "R" });
    expect(v).toMatchObject({ approved: false, type: "text" });
    expect(formErrors(reviewSchema, { name: "A", position: "P", image: "javascript:alert(1)", rating: "5", course: "C", review: "R" })).toEqual({
      image: "Profile image URL must be a valid URL",
    });
  });
});

describe("user forms", () => {
  it("needs a password to create but not to edit", () => {
    expect(formErrors(userCreateSchema, { name: "A", email: "a@b.co" })).toEqual({ password: "Password is required" });
    expect(formErrors(userUpdateSchema, { name: "A", email: "a@b.co", password: "" })).toEqual({});
    expect(userCreateSchema.parse({ name: "A", email: "a@b.co", password: "long-enough-1" }).role).toBe("editor");
  });
  it("says New passwords do not match", () => {
    expect(formErrors(changePasswordSchema, { currentPassword: "old-password", newPassword: "new-password-1", confirmPassword: "new-password-2" })).toEqual({
      confirmPassword: "New passwords do not match",
    });
  });
});

describe("the patterns the OpenAPI document states", () => {
  it("INDIAN_PHONE admits exactly the numbers indianPhoneDigits reads", () => {
    const digit = fc.constantFrom(..."0123456789");
    const other = fc.constantFrom(" ", "-", "(", ")", "+", ".", "a", "\t");
    // Mostly 9 to 13 digits, where the rules (10, 91 + 10, 0 + 10) sit, with other characters between them.
    const phoneLike = fc
      .tuple(fc.array(fc.tuple(digit, fc.array(other, { maxLength: 2 })), { minLength: 8, maxLength: 14 }), fc.array(other, { maxLength: 2 }), fc.boolean())
      .map(([parts, lead, nineOne]) => lead.join("") + (nineOne ? "91" : "") + parts.map(([d, o]) => d + o.join("")).join(""));
    fc.assert(
      fc.property(fc.oneof(phoneLike, fc.string()), (v) => INDIAN_PHONE.test(v) === (indianPhoneDigits(v) !== null)),
      { seed: 20260512, numRuns: 5000 },
    );
  });

  it("a date matching the document's pattern and format is one the server takes", () => {
    const day = fc
      .date({ min: new Date("0001-01-01T00:00:00Z"), max: new Date("9999-12-31T00:00:00Z"), noInvalidDate: true })
      .map((d) => d.toISOString().slice(0, 10));
    fc.assert(
      fc.property(day, (v) => isCalendarDate(v)),
      { seed: 20260512, numRuns: 2000 },
    );
    for (const v of ["2024-02-29", "2000-02-29", "0001-01-01", "0400-02-29", "9999-12-31"]) expect(isCalendarDate(v), v).toBe(true);
    for (const v of ["2023-02-29", "1900-02-29", "2026-13-01", "2026-04-31", "26-01-01", "0000-00-00", "0000-01-01", "2026-00-10", "2026-01-00", " 2026-01-01"])
      expect(isCalendarDate(v), v).toBe(false);
  });

  it("the documented day patterns are exactly the calendar's days (0001-9999; the filters' from 1970)", () => {
    // The calendar by Date: a day is real when it prints back as itself. JSON Schema's `format: date` has no year 0000.
    const real = (v: string) =>
      v.slice(0, 4) !== "0000" && !Number.isNaN(Date.parse(`${v}T00:00:00Z`)) && new Date(`${v}T00:00:00Z`).toISOString().startsWith(v);
    const pad = (n: number, width: number) => String(n).padStart(width, "0");
    let checked = 0;
    const wrong: string[] = [];
    for (let y = 0; y <= 9999; y++) {
      // Every month and day number (00-32) in years around now, every 97th year and each century; Feb 28-30 and month ends in all.
      const full = (y >= 1960 && y <= 2110) || y % 97 === 0 || y % 100 === 0;
      const days = full
        ? Array.from({ length: 14 * 33 }, (_, i) => `${pad(y, 4)}-${pad(Math.floor(i / 33), 2)}-${pad(i % 33, 2)}`)
        : ["02-28", "02-29", "02-30", "04-30", "04-31", "12-31", "13-01", "00-10"].map((md) => `${pad(y, 4)}-${md}`);
      for (const v of days) {
        const isReal = real(v);
        if (DATE_PATTERN.test(v) !== isReal) wrong.push(v);
        if (DATE_PATTERN_1970.test(v) !== (isReal && v >= "1970-01-01")) wrong.push(`${v} (from 1970)`);
        checked++;
      }
    }
    expect(wrong).toEqual([]);
    expect(checked).toBeGreaterThan(100_000);
  });
});

describe("URLs as the document states them (format: iri-reference, http(s) or a site path)", () => {
  it("takes http(s) IRIs and site paths, non-ASCII included, by RFC 3987's grammar", () => {
    for (const v of [
      "https://example.com/a.png",
      "HTTP://EXAMPLE.COM",
      "Https://ô$𭪹+",
      "https://例え.jp/画像.png?q=値#frag",
      "https://user:pw@[2001:db8::1]:8080/x",
      "http://[::ffff:192.0.2.1]/",
      "http://[v1.fe:80]/",
      "http://192.0.2.1:99999/",
      "http://a/%41%c3%b4",
      "/images/a.png",
      "/",
      "/a?b=c#d",
      "/ü/ö",
    ])
      expect(isSiteIri(v), v).toBe(true);
    for (const v of [
      "//evil.example/x.png",
      "javascript:alert(1)",
      "https://a b",
      "https://a/<x>",
      "https://a/%zz",
      "https://a/\\b",
      "https://a/x#y#z",
      "https://[::1/",
      "https://[1:2:3:4:5:6:7:8:9]/",
      "/a b.png",
      "/a|b",
      "https://a/\u{E000}",
      "https://a/{x}",
      "ftp://a/b",
    ])
      expect(isSiteIri(v), v).toBe(false);
  });

  it("a review's image is stored as sent when it is an IRI, and refused when it is no IRI", () => {
    const review = { name: "A", position: "B", rating: 5, course: "C", review: "D" };
    expect(reviewSchema.safeParse({ ...review, image: "Https://ô$𭪹+" })).toMatchObject({ success: true, data: { image: "Https://ô$𭪹+" } });
    for (const image of ["https://a/<x>", "/a b.png", "https://a/%zz"]) expect(reviewSchema.safeParse({ ...review, image }).success, image).toBe(false);
  });
});

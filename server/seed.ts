import { randomBytes } from "node:crypto";
import { TESTIMONIALS } from "~/config/site";
import { insertCourse, type CourseInput } from "~/models/course.server";
import { insertReview } from "~/models/review.server";
import { insertSchedule, type ScheduleInput } from "~/models/schedule.server";
import { countUsers } from "~/models/user.server";
import { createFirstAdmin } from "~/services/users.server";

/** A demo batch's `seats` (seats left) shows a batch partly taken: the rest count as taken before enrolments were recorded. */
type SeedCourse = CourseInput & { batches: (Omit<ScheduleInput, "course"> & { seats: number })[] };

function daysFromNow(days: number, from = new Date()): string {
  const d = new Date(Date.UTC(from.getUTCFullYear(), from.getUTCMonth(), from.getUTCDate() + days));
  return d.toISOString().slice(0, 10);
}

function syllabus(title: string, modules: [string, string[]][]): string {
  const parts = [`# ${title}: syllabus`, ""];
  modules.forEach(([name, topics], i) => {
    parts.push(`## Module ${i + 1}: ${name}`, "", ...topics.map((t) => `- ${t}`), "");
  });
  parts.push("**Includes:** live sessions, lab access, mock interviews and a completion certificate.", "");
  return parts.join("\n");
}

export function demoCourses(): SeedCourse[] {
  return [
    {
      title: "SOC Analyst Training Program",
      fee: 45000,
      feeIncludesGst: true,
      category: "beginner",
      duration: "4 months",
      featured: true,
      description:
        "Our flagship job-ready program: monitor, triage and respond to real security incidents in a live Security Operations Center lab with SIEM, EDR and SOAR tools, then finish with an internship.",
      highlights: [
        "Hands-on SIEM labs with Splunk and Microsoft Sentinel",
        "Real-time incident triage and escalation drills",
        "Internship and experience letter for freshers",
        "Mock interviews and resume building",
        "One-on-one career mentorship",
      ],
      modes: ["online", "offline"],
      syllabus: syllabus("SOC Analyst Training Program", [
        ["Security foundations", ["CIA triad and threat landscape", "Networking for analysts: TCP/IP, DNS, HTTP", "Windows and Linux logs"]],
        ["SIEM operations", ["Log ingestion and parsing", "Writing detection rules and dashboards", "Alert triage workflow"]],
        ["Incident response", ["NIST incident response lifecycle", "Phishing and malware investigations", "Writing incident reports"]],
        ["Threat intelligence and hunting", ["MITRE ATT&CK mapping", "IOC enrichment", "Hypothesis-driven hunting"]],
        ["Capstone and internship", ["24x7 SOC simulation shifts", "Capstone investigation", "Interview preparation"]],
      ]),
      batches: [
        {
          startDate: daysFromNow(9),
          endDate: daysFromNow(129),
          time: "7:00 AM - 9:00 AM",
          days: "Mon, Wed, Fri",
          mode: "online",
          location: "Live online (Zoom)",
          seats: 6,
          totalSeats: 30,
        },
        {
          startDate: daysFromNow(16),
          endDate: daysFromNow(136),
          time: "6:30 PM - 9:30 PM",
          days: "Tue, Thu",
          mode: "offline",
          location: "HITEC City campus, Hyderabad",
          seats: 18,
          totalSeats: 25,
        },
        {
          startDate: daysFromNow(37),
          endDate: daysFromNow(157),
          time: "10:00 AM - 1:00 PM",
          days: "Sat, Sun",
          mode: "hybrid",
          location: "HITEC City campus and online",
          fee: 40000,
          feeLabel: "Early-bird",
          seats: 24,
          totalSeats: 30,
        },
      ],
    },
    {
      title: "Cybersecurity Fundamentals",
      fee: 15000,
      feeIncludesGst: true,
      category: "beginner",
      duration: "6 weeks",
      featured: false,
      description:
        "A practical first step into security for freshers and career switchers: networks, operating systems, common attacks and the defences every analyst must know.",
      highlights: ["No prior experience needed", "Networking and OS basics", "Common attacks and defences", "Completion certificate"],
      modes: ["online", "offline"],
      syllabus: syllabus("Cybersecurity Fundamentals", [
        ["How networks work", ["OSI and TCP/IP models", "Ports, protocols and packet capture"]],
        ["Operating systems", ["Windows administration basics", "Linux command line"]],
        ["Attacks and defences", ["Malware families", "Social engineering", "Firewalls, IDS and endpoint protection"]],
      ]),
      batches: [
        {
          startDate: daysFromNow(5),
          endDate: daysFromNow(47),
          time: "6:30 PM - 8:30 PM",
          days: "Mon, Wed, Fri",
          mode: "online",
          location: "Live online (Zoom)",
          seats: 22,
          totalSeats: 30,
        },
        {
          startDate: daysFromNow(21),
          endDate: daysFromNow(63),
          time: "9:30 AM - 12:30 PM",
          days: "Sat, Sun",
          mode: "offline",
          location: "HITEC City campus, Hyderabad",
          seats: 15,
          totalSeats: 20,
        },
      ],
    },
    {
      title: "Penetration Testing and Ethical Hacking",
      fee: 38000,
      feeIncludesGst: false,
      category: "advanced",
      duration: "3 months",
      featured: true,
      description:
        "Think like an attacker: plan and run authorised penetration tests against web applications, networks and Active Directory, and write reports that clients act on.",
      highlights: ["Web application testing with Burp Suite", "Active Directory attack paths", "Capture-the-flag practice labs", "Professional report writing"],
      modes: ["online", "offline"],
      syllabus: syllabus("Penetration Testing and Ethical Hacking", [
        ["Reconnaissance", ["OSINT", "Scanning and enumeration with Nmap"]],
        ["Web applications", ["OWASP Top 10", "Burp Suite workflows"]],
        ["Infrastructure", ["Privilege escalation", "Active Directory attacks"]],
        ["Reporting", ["Risk rating", "Executive and technical reports"]],
      ]),
      batches: [
        {
          startDate: daysFromNow(28),
          endDate: daysFromNow(118),
          time: "7:00 PM - 9:00 PM",
          days: "Tue, Thu, Sat",
          mode: "online",
          location: "Live online (Zoom)",
          seats: 12,
          totalSeats: 25,
        },
      ],
    },
    {
      title: "Network Security Specialist",
      fee: 25000,
      feeIncludesGst: true,
      category: "intermediate",
      duration: "2 months",
      featured: false,
      description: "Design, harden and monitor enterprise networks: firewalls, VPNs, IDS/IPS and network forensics, with configuration labs on real equipment.",
      highlights: ["Firewall and VPN configuration labs", "IDS/IPS tuning with Suricata", "Network forensics with Wireshark", "Zero-trust architecture"],
      modes: ["offline"],
      syllabus: syllabus("Network Security Specialist", [
        ["Secure design", ["Segmentation", "Zero trust"]],
        ["Perimeter", ["Firewalls", "VPNs"]],
        ["Monitoring", ["IDS/IPS", "NetFlow and packet analysis"]],
      ]),
      batches: [
        {
          startDate: daysFromNow(12),
          endDate: daysFromNow(72),
          time: "10:00 AM - 1:00 PM",
          days: "Mon to Fri",
          mode: "offline",
          location: "HITEC City campus, Hyderabad",
          seats: 9,
          totalSeats: 20,
        },
      ],
    },
    {
      title: "Cloud Security Practitioner",
      category: "intermediate",
      duration: "8 weeks",
      featured: false,
      description: "Secure workloads on AWS and Azure: identity and access management, logging, posture management and incident response in the cloud.",
      highlights: ["AWS and Azure security labs", "IAM policies and least privilege", "Cloud logging and detection", "Cloud incident response"],
      modes: ["online"],
      syllabus: "",
      batches: [
        {
          startDate: daysFromNow(44),
          endDate: daysFromNow(100),
          time: "8:00 PM - 10:00 PM",
          days: "Mon, Wed",
          mode: "online",
          location: "Live online (Zoom)",
          seats: 27,
          totalSeats: 30,
        },
      ],
    },
  ];
}

const MORE_REVIEWS = [
  {
    name: "Rahul Menon",
    position: "Incident Responder at Kavach Infosec",
    course: "SOC Analyst Training Program",
    rating: 5,
    image: "/images/avatars/rahul-menon.svg",
    review: "Structured, practical and honest. The 24x7 SOC simulation week was intense but it made the real job feel familiar from day one.",
    approved: true,
  },
  {
    name: "Fatima Khan",
    position: "Junior Penetration Tester at RedOrbit Security",
    course: "Penetration Testing and Ethical Hacking",
    rating: 5,
    image: "/images/avatars/fatima-khan.svg",
    review: "The web application labs and report-writing sessions are what got me through my technical interview.",
    approved: true,
  },
  {
    name: "Vikram Rao",
    position: "Cloud Security Associate at Nimbus Secure",
    course: "Cloud Security Practitioner",
    rating: 4,
    image: "/images/avatars/vikram-rao.svg",
    review: "Great coverage of AWS IAM and logging. I would have liked one more week on Azure, but the mentors filled the gaps.",
    approved: true,
  },
  {
    name: "Ananya Iyer",
    position: "Final-year B.Tech student",
    course: "Cybersecurity Fundamentals",
    rating: 5,
    image: "/images/avatars/ananya-iyer.svg",
    review: "Clear explanations and patient trainers. I am joining the SOC Analyst batch next.",
    approved: false,
  },
];

/** Demo content for an empty database. Timestamps are spaced so "newest first" shows the flagship course first. */
export async function seedDemo(log: (line: string) => void = console.log): Promise<void> {
  const base = Date.now() - 60 * 60 * 1000;
  const courses = demoCourses();
  // Insert the last course first, so the newest-first order matches the list above.
  for (let i = courses.length - 1; i >= 0; i--) {
    const { batches, ...input } = courses[i];
    const course = await insertCourse(input, { createdAt: new Date(base + (courses.length - i) * 60_000).toISOString() });
    for (const [j, batch] of batches.entries()) {
      await insertSchedule({ ...batch, course: course.id }, { createdAt: new Date(base + (courses.length - i) * 60_000 + j * 1000).toISOString() });
    }
  }
  const reviews = [
    ...TESTIMONIALS.map((t) => ({ name: t.name, position: t.position, course: t.course, rating: t.rating, image: t.image, review: t.quote, approved: true })),
    ...MORE_REVIEWS,
  ];
  for (let i = reviews.length - 1; i >= 0; i--) {
    await insertReview({ ...reviews[i], type: "text" }, { createdAt: new Date(base + (reviews.length - i) * 60_000).toISOString() });
  }
  log(`Seeded demo content: ${courses.length} courses, ${courses.reduce((n, c) => n + c.batches.length, 0)} batches, ${reviews.length} reviews.`);
}

/** Creates the first admin when there is no user at all. */
export async function ensureAdmin(
  opts: { email?: string; password?: string },
  log: (line: string) => void = console.log,
): Promise<{ email: string; password?: string } | null> {
  if ((await countUsers()) > 0) return null;
  const email = opts.email ?? "admin@localhost";
  const generated = opts.password ? undefined : randomBytes(12).toString("base64url");
  await createFirstAdmin(email, opts.password ?? generated!);
  if (generated) {
    log("");
    log("  First admin account created. This password is shown only once:");
    log(`    e-mail:   ${email}`);
    log(`    password: ${generated}`);
    log("  Sign in at /admin/login and change it under Users.");
    log("");
  } else {
    log(`First admin account created for ${email}.`);
  }
  return { email, password: generated };
}

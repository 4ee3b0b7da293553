/** Institute constants, in one place (spec §1, §9). */
export const SITE = {
  name: "CyberSOC Academy",
  shortName: "CyberSOC",
  tagline: "Job-ready SOC Analyst training in Hyderabad",
  description:
    "Launch your SOC Analyst career with real-time labs, internship and one-on-one mentorship. Online and offline cybersecurity courses in Hyderabad with placement assistance for every student.",
  phone: "+91 98765 43210",
  phoneHref: "tel:+919876543210",
  whatsapp: "919876543210",
  email: "info@cybersocacademy.in",
  careerEmail: "careers@cybersocacademy.in",
  address: {
    street: "Plot 42, 3rd Floor, Cyber Towers Road, HITEC City",
    city: "Hyderabad",
    region: "Telangana",
    postalCode: "500081",
    country: "IN",
  },
  mapEmbedUrl: "https://www.openstreetmap.org/export/embed.html?bbox=78.3700%2C17.4400%2C78.3900%2C17.4550&layer=mapnik&marker=17.4474%2C78.3762",
  mapLinkUrl: "https://www.openstreetmap.org/?mlat=17.4474&mlon=78.3762#map=16/17.4474/78.3762",
  socials: {
    youtube: "https://www.youtube.com/@cybersocacademy",
    instagram: "https://www.instagram.com/cybersocacademy",
    linkedin: "https://www.linkedin.com/company/cybersocacademy",
  },
  hours: [
    { days: "Mon-Fri", hours: "9:00-18:00" },
    { days: "Sat", hours: "10:00-14:00" },
    { days: "Sunday", hours: "Closed" },
  ],
  /**
   * The public figures (spec §1, §9): the defaults of the site settings staff edit at /admin/settings
   * (app/schemas/site-settings.ts); pages read the settings (app/util/figures.ts), never these directly.
   */
  figures: { studentsTrained: 5000, coursesClaimed: 10, placementAssistance: 100, rating: 4.9, ratingCount: 125, recommendRate: 98, placementRate: 92 },
  refundDays: 7,
  responseHours: 24,
  limitedSeatsThreshold: 10,
  foundedYear: 2018,
  /**
   * The contact for privacy questions and grievances (DPDP Act): the defaults of the site settings staff edit at
   * /admin/settings (app/schemas/site-settings.ts); pages read the settings, never these directly.
   */
  privacyContact: {
    name: "Grievance Officer, CyberSOC Academy",
    email: "privacy@cybersocacademy.in",
    phone: "+91 98765 43210",
    address: "Plot 42, 3rd Floor, Cyber Towers Road, HITEC City, Hyderabad, Telangana 500081",
  },
} as const;

/**
 * The institute's time zone (Hyderabad): timestamps are shown in it and "today" is its calendar day.
 * IST has no daylight saving, so it is always UTC+05:30.
 */
export const SITE_TIME_ZONE = "Asia/Kolkata";

/** Shown in the enquiry dropdown when the course list cannot be read (spec §8). */
export const FALLBACK_COURSE_TITLES = [
  "SOC Analyst Training Program",
  "Cybersecurity Fundamentals",
  "Penetration Testing and Ethical Hacking",
  "Network Security Specialist",
  "Cloud Security Practitioner",
] as const;

export type Testimonial = { name: string; position: string; quote: string; rating: number; course: string; image: string };

/** The home and about pages' static testimonials (spec §1); the seed also stores them as approved reviews. */
export const TESTIMONIALS: readonly Testimonial[] = [
  {
    name: "Priya Reddy",
    position: "SOC Analyst L1 at Sentinel Shield Technologies",
    quote:
      "The live SIEM labs were exactly what I faced in my first week on the job. The mock interviews and resume reviews got me placed within a month of finishing the course.",
    rating: 5,
    course: "SOC Analyst Training Program",
    image: "/images/avatars/priya-reddy.svg",
  },
  {
    name: "Arjun Varma",
    position: "Security Operations Engineer at NetGuard Solutions",
    quote:
      "I switched from a network support role. The trainers are working professionals and the incident-response projects gave me real stories to tell in interviews.",
    rating: 5,
    course: "Network Security Specialist",
    image: "/images/avatars/arjun-varma.svg",
  },
  {
    name: "Sneha Kulkarni",
    position: "Cyber Threat Analyst at Trinetra Cyber Defence",
    quote:
      "As a fresher the internship letter and one-on-one mentorship made all the difference. Support on WhatsApp even at midnight before my exam was a lifesaver.",
    rating: 5,
    course: "Cybersecurity Fundamentals",
    image: "/images/avatars/sneha-kulkarni.svg",
  },
];

import { SITE } from "~/config/site";

export type FaqItem = { question: string; answer: string };

export const SCHEDULE_FAQ: FaqItem[] = [
  {
    question: "What is the difference between online, offline and hybrid batches?",
    answer:
      "Online batches are live, instructor-led sessions on Zoom with remote lab access. Offline batches meet at our HITEC City campus. Hybrid batches let you join either way, session by session.",
  },
  {
    question: "What happens if I miss a class?",
    answer: "Every live session is recorded, and mentors run doubt-clearing sessions every week, so you can catch up before the next class.",
  },
  {
    question: "Do I need prior IT experience?",
    answer: "No. Beginner courses start from networking and operating system basics. Advanced courses list what you should know before joining.",
  },
  {
    question: "Is there a refund if the course is not right for me?",
    answer: `Yes. Every course comes with a ${SITE.refundDays}-day money-back refund from the batch start date.`,
  },
  {
    question: "How do I reserve a seat?",
    answer: `Choose Enroll Now on a batch and send the enquiry form. A counsellor calls you within ${SITE.responseHours} hours to confirm your seat.`,
  },
];

/** Questions as <details>, so each opens and closes without JavaScript. */
export function Faq({ items }: { items: FaqItem[] }) {
  return (
    <div className="mt-8 divide-y divide-slate-200 rounded-2xl border border-slate-200 bg-white">
      {items.map((item) => (
        <details key={item.question} className="group px-5 py-4">
          <summary className="flex cursor-pointer list-none items-center justify-between gap-4 rounded font-semibold text-slate-900 [&::-webkit-details-marker]:hidden">
            {item.question}
            <span aria-hidden="true" className="text-xl text-brand-700 transition-transform group-open:rotate-45">
              +
            </span>
          </summary>
          <p className="mt-3 text-slate-700">{item.answer}</p>
        </details>
      ))}
    </div>
  );
}

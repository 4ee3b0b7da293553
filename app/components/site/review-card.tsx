import { LinkedInIcon, Stars } from "~/components/ui/icons";
import type { Review } from "~/models/review.server";

export type ReviewSummary = Pick<Review, "id" | "name" | "position" | "image" | "rating" | "review" | "course" | "type" | "videoThumbnail" | "linkedin">;

export function ReviewCard({ review }: { review: ReviewSummary }) {
  return (
    <figure className="flex h-full flex-col rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
      <div className="flex items-center justify-between gap-3">
        <Stars rating={review.rating} className="text-lg" />
        <span className="rounded-full bg-brand-50 px-2.5 py-0.5 text-xs font-semibold text-brand-800">{review.course}</span>
      </div>
      {review.type === "video" && review.videoThumbnail ? (
        <img
          src={review.videoThumbnail}
          alt={`Video review by ${review.name}`}
          width={640}
          height={360}
          loading="lazy"
          decoding="async"
          className="mt-4 aspect-video w-full rounded-lg object-cover"
        />
      ) : null}
      <blockquote className="mt-4 flex-1 text-slate-700">
        <p>“{review.review}”</p>
      </blockquote>
      <figcaption className="mt-6 flex items-center gap-3">
        <img src={review.image} alt="" width={48} height={48} loading="lazy" decoding="async" className="h-12 w-12 rounded-full bg-slate-100 object-cover" />
        <div className="min-w-0 flex-1">
          <p className="font-bold text-slate-900">{review.name}</p>
          <p className="text-sm text-slate-600">{review.position}</p>
        </div>
        {review.linkedin ? (
          <a
            href={review.linkedin}
            target="_blank"
            rel="noopener noreferrer nofollow"
            className="text-xl text-[#0a66c2]"
            aria-label={`${review.name} on LinkedIn`}
          >
            <LinkedInIcon />
          </a>
        ) : null}
      </figcaption>
    </figure>
  );
}

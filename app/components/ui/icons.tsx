import type { CSSProperties, SVGProps } from "react";
// A hashed file name under /assets (cached for a year); never inlined, as <use> cannot point into a data: URL.
import spriteHref from "./icons.svg?url&no-inline";

/**
 * Small icons drawn from one sprite file, so a page repeats a short <use> per icon instead of its paths.
 * Decorative unless the caller gives a title.
 */
type IconProps = SVGProps<SVGSVGElement> & { title?: string };

function Svg({ name, title, ...props }: IconProps & { name: string }) {
  return (
    <svg viewBox="0 0 24 24" width="1em" height="1em" aria-hidden={title ? undefined : true} role={title ? "img" : undefined} focusable="false" {...props}>
      {title ? <title>{title}</title> : null}
      <use href={`${spriteHref}#${name}`} />
    </svg>
  );
}

export const MenuIcon = (p: IconProps) => <Svg name="menu" {...p} />;
export const CloseIcon = (p: IconProps) => <Svg name="close" {...p} />;
export const CheckIcon = (p: IconProps) => <Svg name="check" {...p} />;
export const ShieldIcon = (p: IconProps) => <Svg name="shield" {...p} />;
export const PhoneIcon = (p: IconProps) => <Svg name="phone" {...p} />;
export const MailIcon = (p: IconProps) => <Svg name="mail" {...p} />;
export const MapPinIcon = (p: IconProps) => <Svg name="map-pin" {...p} />;
export const ClockIcon = (p: IconProps) => <Svg name="clock" {...p} />;
export const CalendarIcon = (p: IconProps) => <Svg name="calendar" {...p} />;
export const UsersIcon = (p: IconProps) => <Svg name="users" {...p} />;
export const BookIcon = (p: IconProps) => <Svg name="book" {...p} />;
export const ArrowRightIcon = (p: IconProps) => <Svg name="arrow-right" {...p} />;
export const StarIcon = (p: IconProps) => <Svg name="star" {...p} />;
export const WhatsAppIcon = (p: IconProps) => <Svg name="whatsapp" {...p} />;
export const YouTubeIcon = (p: IconProps) => <Svg name="youtube" {...p} />;
export const InstagramIcon = (p: IconProps) => <Svg name="instagram" {...p} />;
export const LinkedInIcon = (p: IconProps) => <Svg name="linkedin" {...p} />;
export const AlertIcon = (p: IconProps) => <Svg name="alert" {...p} />;

/** Five stars, `rating` of them filled, in one element (.stars in app.css); read out as "Rated 4 out of 5". */
export function Stars({ rating, className = "" }: { rating: number; className?: string }) {
  const filled = Math.max(0, Math.min(5, Math.round(rating)));
  return <span className={`stars ${className}`} style={{ "--filled": filled } as CSSProperties} role="img" aria-label={`Rated ${filled} out of 5`} />;
}

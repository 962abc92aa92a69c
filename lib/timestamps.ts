/** RFC 3339 with microseconds, in UTC (PostgreSQL keeps microseconds; JavaScript dates milliseconds). */
export function rfc3339(date: Date): string;
export function rfc3339(date: Date | null | undefined): string | null;
export function rfc3339(date: Date | null | undefined): string | null {
  if (!date) return null;
  const iso = date.toISOString();
  return `${iso.slice(0, 23)}000Z`;
}

/**
 * Calendar arithmetic on billing dates, in UTC. Adding months keeps the day of the month, or the
 * last day of a shorter month: 31 January + 1 month is the last day of February.
 */
export type CalendarInterval = "day" | "week" | "month" | "year";

export function addInterval(start: Date, interval: CalendarInterval, frequency: number): Date {
  const date = new Date(start.getTime());
  if (interval === "day" || interval === "week") {
    date.setUTCDate(date.getUTCDate() + frequency * (interval === "week" ? 7 : 1));
    return date;
  }
  const months = interval === "year" ? frequency * 12 : frequency;
  const day = date.getUTCDate();
  date.setUTCDate(1);
  date.setUTCMonth(date.getUTCMonth() + months);
  const lastDay = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 0)).getUTCDate();
  date.setUTCDate(Math.min(day, lastDay));
  return date;
}

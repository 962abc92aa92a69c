/**
 * Days of a time zone (an IANA name), for the metrics and reports counted in the account's zone:
 * the calendar day an instant falls on there, and the instant a day starts there (DST included:
 * a day may have 23 or 25 hours). Pure: Intl's tz data, no database.
 */

const formats = new Map<string, Intl.DateTimeFormat>();

function format(zone: string): Intl.DateTimeFormat {
  let f = formats.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", {
      timeZone: zone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    });
    formats.set(zone, f);
  }
  return f;
}

function wallClock(instant: number, zone: string): { day: string; ms: number } {
  const parts = Object.fromEntries(
    format(zone)
      .formatToParts(new Date(instant))
      .map((p) => [p.type, p.value]),
  );
  const ms = Date.UTC(
    Number(parts.year),
    Number(parts.month) - 1,
    Number(parts.day),
    Number(parts.hour),
    Number(parts.minute),
    Number(parts.second),
  );
  return { day: `${parts.year}-${parts.month}-${parts.day}`, ms };
}

/** The day (YYYY-MM-DD) instant `date` falls on in zone `zone`. */
export function zoneDay(date: Date, zone: string): string {
  return wallClock(date.getTime(), zone).day;
}

/** The instant (ms since the epoch) day `day` (YYYY-MM-DD) starts in zone `zone`. */
export function dayStart(day: string, zone: string): number {
  const wall = Date.parse(`${day}T00:00:00Z`);
  if (zone === "UTC") return wall;
  const offset = (instant: number) => wallClock(instant, zone).ms - Math.floor(instant / 1000) * 1000;
  // The offset at a first guess, then at the instant it gives (they differ across a DST change).
  const guess = wall - offset(wall);
  return wall - offset(guess);
}

/** The time zone of a country (the guardian's), for when reports are due and how days are counted. */
const zones: Record<string, string> = {
  VN: 'Asia/Ho_Chi_Minh',
  US: 'America/New_York',
  GB: 'Europe/London',
  IE: 'Europe/Dublin',
  FR: 'Europe/Paris',
  DE: 'Europe/Berlin',
  ES: 'Europe/Madrid',
  IT: 'Europe/Rome',
  NL: 'Europe/Amsterdam',
  BE: 'Europe/Brussels',
  AT: 'Europe/Vienna',
  PL: 'Europe/Warsaw',
  SE: 'Europe/Stockholm',
  FI: 'Europe/Helsinki',
  PT: 'Europe/Lisbon',
  GR: 'Europe/Athens',
  JP: 'Asia/Tokyo',
  KR: 'Asia/Seoul',
  SG: 'Asia/Singapore',
  TH: 'Asia/Bangkok',
  AU: 'Australia/Sydney',
  CA: 'America/Toronto',
  IN: 'Asia/Kolkata',
  CN: 'Asia/Shanghai',
};

export const timeZoneOf = (country: string): string => zones[country.toUpperCase()] ?? 'UTC';

export interface LocalTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  /** 1 = Monday ... 7 = Sunday */
  weekday: number;
}

const weekdays: Record<string, number> = { Mon: 1, Tue: 2, Wed: 3, Thu: 4, Fri: 5, Sat: 6, Sun: 7 };

/** A formatter per zone: making one costs far more than using it, and a report run asks thousands of times. */
const formats = new Map<string, Intl.DateTimeFormat>();
const formatOf = (timeZone: string): Intl.DateTimeFormat => {
  let format = formats.get(timeZone);
  if (!format)
    formats.set(
      timeZone,
      (format = new Intl.DateTimeFormat('en-US', {
        timeZone,
        year: 'numeric',
        month: 'numeric',
        day: 'numeric',
        hour: 'numeric',
        hourCycle: 'h23',
        weekday: 'short',
      })),
    );
  return format;
};

export function localTime(at: Date, timeZone: string): LocalTime {
  const parts = Object.fromEntries(
    formatOf(timeZone)
      .formatToParts(at)
      .map((p) => [p.type, p.value]),
  );
  return {
    year: Number(parts.year),
    month: Number(parts.month),
    day: Number(parts.day),
    hour: Number(parts.hour),
    weekday: weekdays[parts.weekday],
  };
}

/** `YYYY-MM-DD` of an instant in a zone. */
export function localDate(at: Date, timeZone: string): string {
  const t = localTime(at, timeZone);
  return `${t.year}-${String(t.month).padStart(2, '0')}-${String(t.day).padStart(2, '0')}`;
}

/** ISO week (`2026-W47`) of a calendar date. */
export function isoWeek(year: number, month: number, day: number): string {
  const date = new Date(Date.UTC(year, month - 1, day));
  const weekday = date.getUTCDay() || 7;
  date.setUTCDate(date.getUTCDate() + 4 - weekday);
  const yearStart = new Date(Date.UTC(date.getUTCFullYear(), 0, 1));
  const week = Math.ceil(((date.getTime() - yearStart.getTime()) / 86_400_000 + 1) / 7);
  return `${date.getUTCFullYear()}-W${String(week).padStart(2, '0')}`;
}

/** The calendar dates (`YYYY-MM-DD`) of the `count` days before the local date of `at`. */
export function previousDays(at: Date, timeZone: string, count: number): string[] {
  const t = localTime(at, timeZone);
  const days: string[] = [];
  for (let i = count; i >= 1; i--)
    days.push(new Date(Date.UTC(t.year, t.month - 1, t.day - i)).toISOString().slice(0, 10));
  return days;
}

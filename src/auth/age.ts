import { AGE } from '../kernel/limits';

/** Completed years between a YYYY-MM-DD birth date and the given day (UTC), as rules count age. */
export function ageOn(birthDate: string, today: Date = new Date()): number {
  const [year, month, day] = birthDate.split('-').map(Number);
  const y = today.getUTCFullYear();
  const m = today.getUTCMonth() + 1;
  const d = today.getUTCDate();
  const hadBirthday = m > month || (m === month && d >= day);
  return y - year - (hadBirthday ? 0 : 1);
}

/** A real calendar day, not in the future: 2023-02-30 and tomorrow are refused. */
export function isPastCalendarDate(value: string, today: Date = new Date()): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return false;
  const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
  return date.toISOString().slice(0, 10) === value && date.getTime() <= today.getTime();
}

export const MIN_AGE_WITHOUT_GUARDIAN = AGE.withoutGuardian;
export const ADULT_AGE = AGE.adult;
export const MAX_AGE = AGE.max;

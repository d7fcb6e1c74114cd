import type { FieldError } from '../kernel/errors';
import { validationFailed } from '../kernel/errors';
import { ADULT_AGE, ageOn, isPastCalendarDate, MAX_AGE, MIN_AGE_WITHOUT_GUARDIAN } from './age';
import type { SignupRequest } from './auth.service';
import { Role } from './user.entity';

// What an account's inputs must be (sign-up, a password, a learner a guardian adds), each problem
// named by its field, checked before anything is stored.

export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

export function assertValid(problems: FieldError[]): void {
  if (problems.length) throw validationFailed(problems);
}

export function passwordProblems(password: string, email: string): FieldError[] {
  if (password.length < 10 || password.length > 128)
    return [{ field: 'password', message: 'must be 10 to 128 characters long' }];
  const lower = password.toLowerCase();
  if (lower === email || lower === email.split('@')[0]) {
    return [{ field: 'password', message: 'The password must not be the e-mail address.' }];
  }
  return [];
}

export function managedLearnerProblems(displayName: string, birthDate: string): FieldError[] {
  const problems: FieldError[] = [];
  if (!displayName.trim()) problems.push({ field: 'displayName', message: 'The display name must not be blank.' });
  if (!isPastCalendarDate(birthDate) || ageOn(birthDate) > MAX_AGE) {
    problems.push({ field: 'birthDate', message: 'The birth date must be a real past date (YYYY-MM-DD).' });
  } else if (ageOn(birthDate) >= ADULT_AGE) {
    problems.push({ field: 'birthDate', message: 'A learner managed by a guardian must be under 18.' });
  }
  return problems;
}

export function signupProblems(request: SignupRequest, age: number | undefined): FieldError[] {
  const problems = passwordProblems(request.password, request.email);
  if (!request.displayName.trim())
    problems.push({ field: 'displayName', message: 'The display name must not be blank.' });
  if (request.birthDate && (!isPastCalendarDate(request.birthDate) || age! > MAX_AGE)) {
    problems.push({ field: 'birthDate', message: 'The birth date must be a real past date (YYYY-MM-DD).' });
    return problems;
  }
  if (request.role === Role.learner && !request.birthDate) {
    problems.push({ field: 'birthDate', message: 'Learners must give their birth date.' });
  }
  if (request.role === Role.guardian && age !== undefined && age < ADULT_AGE) {
    problems.push({ field: 'birthDate', message: 'A guardian must be an adult.' });
  }
  if (request.role === Role.learner && age !== undefined && age < MIN_AGE_WITHOUT_GUARDIAN) {
    if (!request.guardianEmail) {
      problems.push({
        field: 'guardianEmail',
        message: 'Learners under 13 must give the e-mail address of a parent or guardian.',
      });
    } else if (normaliseEmail(request.guardianEmail) === request.email) {
      problems.push({
        field: 'guardianEmail',
        message: "The guardian's e-mail address must not be the learner's own.",
      });
    }
  }
  return problems;
}

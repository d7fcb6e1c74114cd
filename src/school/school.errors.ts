import { notFound, reasons } from '../kernel/errors';

/** The refusals of schools and classes (docs/errors.md), in the words of the specification. */

const reason = reasons('school', {
  already_in_class: 'conflict',
  course_already_assigned: 'conflict',
  not_school_staff: 'forbidden',
  progress_not_shared: 'forbidden',
  school_region_mismatch: 'conflict',
});

export const unknownSchool = () => notFound('school');
export const unknownUser = () => notFound('user');
export const unknownClass = () => notFound('class');
export const unknownClassCode = () => notFound('class with this code');
export const alreadyInClass = () => reason.already_in_class('You are in this class already.');
export const courseAlreadyAssigned = () =>
  reason.course_already_assigned('The course is assigned to this class already.');
export const onlySchoolStaff = () => reason.not_school_staff('Only staff of this school may do this.');
export const onlyStaffSeeMembers = () => reason.not_school_staff('Only staff of this school see its members.');
// A school's members are accounts of its country's region, where the school's classes and progress are kept.
export const schoolRegionMismatch = () =>
  reason.school_region_mismatch(
    "The account is kept in another region than the school's: its members have accounts made in the school's country.",
  );
export const progressNotShared = () =>
  reason.progress_not_shared('No guardian of this member has agreed to share their progress.');

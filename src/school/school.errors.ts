import { conflict, forbidden, notFound } from '../kernel/errors';

/** The refusals of schools and classes (DESIGN.md 4.2), in the words of the specification. */

export const unknownSchool = () => notFound('school');
export const unknownUser = () => notFound('user');
export const unknownClass = () => notFound('class');
export const unknownClassCode = () => notFound('class with this code');
export const alreadyInClass = () => conflict('You are in this class already.');
export const courseAlreadyAssigned = () => conflict('The course is assigned to this class already.');
export const onlySchoolStaff = () => forbidden('Only staff of this school may do this.');
export const onlyStaffSeeMembers = () => forbidden('Only staff of this school see its members.');
export const progressNotShared = () => forbidden('No guardian of this member has agreed to share their progress.');

import { notFound, reasons, validationFailed } from '../kernel/errors';

/** The errors of projects (docs/codelab.md), by what went wrong; codes and messages are the contract's. */

const reason = reasons('projects', {
  not_project_owner: 'forbidden',
});

/** No such project, or one the caller may not see. */
export const projectNotFound = () => notFound('project');
/** Someone else's project the caller may see is theirs to read, not to change. */
export const notProjectOwner = () => reason.not_project_owner('Only the owner may change this project.');
export const tooManyFiles = (max: number) => validationFailed([{ field: 'files', message: `at most ${max} files` }]);
export const duplicateFilePaths = () => validationFailed([{ field: 'files', message: 'two files have the same path' }]);
export const projectTooLarge = () => validationFailed([{ field: 'files', message: 'at most 256 KiB a project' }]);

import { notFound, reasons, validationFailed } from '../kernel/errors';

/** The errors of portfolios (docs/codelab.md), by what went wrong; codes and messages are the contract's. */

const reason = reasons('portfolio', {
  handle_taken: 'conflict',
});

/** No such handle, or a portfolio that is not public now. */
export const portfolioNotFound = () => notFound('portfolio');
export const handleTaken = () => reason.handle_taken('This handle is taken.');
export const notOwnProjects = () => validationFailed([{ field: 'projectIds', message: 'must be your own projects' }]);
export const notOwnCertificates = () =>
  validationFailed([{ field: 'certificateIds', message: 'must be your own certificates' }]);

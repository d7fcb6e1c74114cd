import { GdprRequestStatus } from './gdpr-request.entity';

/** A request still under way: one at a time per person and kind, and what the legal deadline is counted for. */
export const OPEN = [GdprRequestStatus.queued, GdprRequestStatus.running, GdprRequestStatus.scheduled];

/** The guardian dashboard as one GraphQL request: every learner's courses, progress per course, certificates, consents, AI access, and the unread count. */
export const DASHBOARD = `query Dashboard {
  viewer {
    id displayName unreadNotificationCount
    linkedLearners(first: 5) {
      nodes {
        id displayName
        progress { streakDays timeSpentSeconds lastActivityAt }
        enrollments(first: 20) { nodes { enrolledAt course { id title { en vi } } progress { percent completed averageScore lessonsCompleted lessonsTotal timeSpentSeconds } } }
        certificates(first: 20) { nodes { id code courseTitle { en } issuedAt } }
        consents { consentTypeId granted }
        aiAccess { enabled memoryEnabled dailyMessageLimit }
      }
    }
  }
}`;

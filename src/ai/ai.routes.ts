import { restRoutes } from '../kernel/rest-route';

/** The REST paths of this area; each runs the operation of that name in `ai.graphql`. */
export const aiRoutes = restRoutes(__dirname, 'ai.graphql', [
  {
    method: 'post',
    path: '/ai/chat',
    status: 200,
    operation: 'AiChat',
    summary: 'Send a message to the AI tutor (Accept: text/event-stream streams the answer)',
  },
  { method: 'get', path: '/ai/quota', status: 200, operation: 'AiQuota', summary: "The caller's AI messages today" },
  {
    method: 'get',
    path: '/ai/conversations',
    status: 200,
    operation: 'AiConversations',
    summary: "The caller's AI conversations",
    body: { wrap: 'items' },
  },
  {
    method: 'get',
    path: '/ai/memory',
    status: 200,
    operation: 'AiMemory',
    summary: 'What the AI remembers of the caller (Starter tier and above)',
    body: { wrap: 'items' },
  },
  {
    method: 'delete',
    path: '/ai/memory',
    status: 204,
    operation: 'ForgetAiMemory',
    summary: 'Make the AI forget what it remembers of the caller',
  },
]);

// Actions over the socket (docs/PROTOCOL.md): the action frame, matching its result frame, and reading the
// result as the HTTP answer it stands for. Pure: no DOM, no socket, no clock.

/** How long an action waits for its result frame before it goes over HTTP instead (ms). */
export const RESULT_TIMEOUT = 5000;

/** A fresh Idempotency-Key: one per action, kept for every retry of that action (HTTP or socket). */
export function newKey() {
  if (globalThis.crypto && typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
}

/**
 * The frame that sends `action` over the socket. `language` asks for refusals in the app's
 * language, as the HTTP request's Accept-Language does (the socket's own handshake carries the
 * browser's language, which may not be the one chosen in the app).
 */
export function actionFrame(id, action, key, language) {
  return { type: 'action', id, action, idempotency_key: key, language };
}

/** Whether `frame` answers the action frame sent with `id` (its result, or an error about it). */
export function answers(frame, id) {
  return Boolean(frame) && (frame.type === 'result' || frame.type === 'error') && frame.id === id;
}

/** The HTTP answer a result frame stands for: its status and the body without the frame's fields. */
export function answerOf(frame) {
  const { type, id, status, ...body } = frame;
  return { status: Number(status) || 500, body };
}

// One open game on this page: its ruleset, its live state and the way to act on it.
import { api, ApiError } from './api.js';
import { LiveGame } from './conn.js';
import { lang } from './i18n.js';
import { RESULT_TIMEOUT, actionFrame, answerOf, newKey } from './logic/actions.js';
import { useRuleset } from './logic/format.js';
import { errorText, setConnection, toast } from './ui.js';

export async function openGame(code, token, { onState, onEvents } = {}) {
  const ruleset = await api.ruleset(code);
  useRuleset(ruleset);
  const session = { code, token, ruleset, live: null, busy: false };
  session.live = new LiveGame(code, token, {
    onState: (state) => onState && onState(state),
    onEvents: (events, state) => onEvents && onEvents(events, state),
    onStatus: setConnection,
  });
  /**
   * The answer to an action: over the socket when it is up, else (or when its result is late)
   * over HTTP under the same Idempotency-Key, so that the action is applied once at most.
   * A refusal throws ApiError either way.
   */
  const answerTo = async (action) => {
    const key = newKey();
    const frame = await session.live.ask(actionFrame(session.live.nextId(), action, key, lang()), RESULT_TIMEOUT);
    if (!frame) return api.act(code, token, action, key);
    const { status, body } = answerOf(frame);
    if (status >= 400) throw new ApiError(status, body);
    return body;
  };
  /** Act: the answer's state is applied at once; a refusal shows its rule and message. */
  session.act = async (action) => {
    try {
      const answer = await answerTo(action);
      if (answer && answer.state) session.live.apply(answer.version, answer.state, answer.events || []);
      return answer;
    } catch (error) {
      toast(errorText(error), 'error');
      return null;
    }
  };
  session.close = () => { session.live.close(); setConnection('open'); };
  return session;
}

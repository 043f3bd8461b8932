// One open game on this page: its ruleset, its live state and the way to act on it.
import { api } from './api.js';
import { LiveGame } from './conn.js';
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
  /** Send an action over HTTP (with an Idempotency-Key); the answer's state is applied at once. */
  session.act = async (action) => {
    try {
      const answer = await api.act(code, token, action);
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

// Pure: who is at the table and who the game waits on. Presence is the server's word ({online,
// away: {player: seconds since last online, or null when not seen}}) with the time it came (`at`,
// ms), so a page adds the time since then and "away for" goes on counting without a new frame.
// Also which move ends the game, so the phone can ask first.
import { t } from '../i18n.js';

/** Seconds `pid` has been away at `now` (ms): 0 while online (or unknown), null when never seen. */
export function awayFor(presence, pid, now) {
  if (!presence || presence.online.includes(pid) || !(pid in presence.away)) return 0;
  const seconds = presence.away[pid];
  return seconds === null ? null : seconds + Math.max(0, now - presence.at) / 1000;
}

/**
 * Whether the table is told that `pid` is away: the server's word. It keeps a player online for a
 * grace after their last socket closed (a reload, a page change, a look at the rulebook are nobody's
 * news), so a player it says is away is gone.
 */
export function isAway(presence, pid) {
  return Boolean(presence) && !presence.online.includes(pid) && pid in presence.away;
}

/** How long a player has been away, in words: "offline for 2 minutes". */
export function awayWords(seconds) {
  if (seconds === null) return t('away_unseen');
  if (seconds < 60) return t('away_moment');
  const minutes = Math.floor(seconds / 60);
  return minutes < 60 ? t('away_minutes', { n: minutes }) : t('away_hours', { n: Math.floor(minutes / 60) });
}

/** Milliseconds until the words for a player away `seconds` change (null: they never do). */
export function nextChange(seconds) {
  if (seconds === null) return null;
  const unit = seconds < 3600 ? 60 : 3600;
  return (unit - (seconds % unit)) * 1000;
}

/** The players a page shows away, once seen online: those it may tell of later, when they are back. */
export function shownAway(presence) {
  return presence ? Object.keys(presence.away).filter((pid) => presence.away[pid] !== null && isAway(presence, pid)) : [];
}

/** The players online in `after` whom the page showed away (`shown`, a set): the table hears they are back. */
export function cameBack(shown, after) {
  return after.online.filter((pid) => shown.has(pid));
}

/** Who the game waits on now: whose turn, shot, decision or entry it is (player ids). */
export function waitingOn(state) {
  if (!state || state.phase !== 'playing') return [];
  const wait = WAITS[state.game];
  return wait ? wait(state).filter(Boolean) : [];
}

const WAITS = {
  quest1607(state) {
    const c = state.combat;
    if (!c) return [state.turn && state.turn.player];
    if (c.stage === 'salvage') return [c.sunk]; // C7: the sunk side keeps half
    if (c.stage === 'fishing') return [c.winner]; // C7: then the winner fishes
    if (c.stage === 'surrender_offered') { // C8: the other side accepts (or fires on)
      return [c.surrendering === c.attacker.player ? c.defender.player : c.attacker.player];
    }
    return [c.shooter];
  },
  serenissima(state) {
    const b = state.bidding;
    if (b && !b.revealed) return b.waiting_for || []; // SE5: the sealed bids still out
    if (b && b.picker) return [b.picker]; // SE7
    return [state.active]; // SE11
  },
  voyagers(state) {
    const bid = state.bid;
    switch (state.stage) {
      case 'naming': return [state.waiting_for]; // VV3
      case 'voting': return [bid.voters[0]]; // VV4
      case 'cutting': return [bid.cutter]; // VV6
      case 'discarding': return state.players.filter((p) => p.over_limit > 0).map((p) => p.id); // VV12
      case 'scoring': return state.players.filter((p) => !p.score).map((p) => p.id); // VV15
      default: return []; // the host's part (the display, the order, the last purchases)
    }
  },
};

/** Whether `action`, taken now, ends the game (V1, SE19, VV19): the phone asks before it goes. */
export function endsGame(state, ruleset, action) {
  if (!state || state.phase !== 'playing' || !action) return false;
  const players = state.players || [];
  const me = players.find((p) => p.id === state.you);
  switch (state.game) {
    case 'quest1607': // V1: the edge of the map, once every Gold quest is done
      return action.type === 'reach_edge' && Boolean(me) && me.level === 'done';
    case 'serenissima': { // SE19: the host's end, or the last player's end of the last round's last phase
      if (action.type === 'end_game') return true;
      const last = ruleset && ruleset.house_rules ? ruleset.house_rules.rounds : null;
      const phases = (ruleset && ruleset.phases ? ruleset.phases.length : 6);
      return action.type === 'finish_phase' && last != null && state.round >= last
        && state.round_phase && state.round_phase.number === phases
        && players.filter((p) => !p.finished_phase).length === 1;
    }
    case 'voyagers': // VV19: the last reputation entry sets the ranking
      return action.type === 'score' && players.every((p) => p.score || p.id === action.player)
        && !(players.find((p) => p.id === action.player) || {}).score;
    default:
      return false;
  }
}

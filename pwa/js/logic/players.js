// Pure: the look-ups every page makes in a state view (a player by id, a name, a sum of counts), apart
// from the rule checks (./checks.js, which passes them on): a page that judges no move, the shared
// screen, loads these alone.

export function playerById(state, id) {
  return (state && state.players || []).find((p) => p.id === id) || null;
}

/** A player's name by id, or the id itself. */
export const nameOf = (state, id) => (playerById(state, id) || {}).name || String(id || '');

/** The sum of a map of counts ({wood: 2, food: 1} → 3). */
export function total(map) {
  return Object.values(map || {}).reduce((sum, n) => sum + (Number(n) || 0), 0);
}

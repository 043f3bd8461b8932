// The cards below a player's first screenful (ships, sailing, quests, trade, the attack form): the
// phone loads them while its top draws, so the first load stays small.
import { AttackCard } from './attack.js';
import { questsCard } from './quests.js';
import { SailCard, ShipsCard } from './ships.js';
import { TradeCard } from './trade.js';

const CARDS = { ShipsCard, SailCard, TradeCard, AttackCard };

/** The card called `name`, with its own state. */
export function card(name) {
  return name === 'questsCard' ? questsCard : new CARDS[name]();
}

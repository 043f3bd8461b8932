// The words of Quest 1607's phone that its first screenful needs and no other page does, Dutch and
// English: the last step to win, and who won (the strip). The cards' own words come with them
// (./phone/words.js).
import { extend } from '../../i18n.js';

extend({
  en: {
    now_you_won: 'You won! The game is over.', now_win: 'Every Gold quest is done: sail a ship to the edge of the map, then tap “{button}” to win.',
    now_win_later: 'Every Gold quest is done: on your turn, sail a ship to the edge of the map to win.',
  },
  nl: {
    now_you_won: 'Je hebt gewonnen! Het spel is afgelopen.', now_win: 'Alle Gouden quests zijn voltooid: vaar met een schip naar de rand van de kaart en tik dan op „{button}” om te winnen.',
    now_win_later: 'Alle Gouden quests zijn voltooid: vaar in je beurt met een schip naar de rand van de kaart om te winnen.',
  },
});

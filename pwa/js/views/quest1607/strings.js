// The words of Quest 1607's phone that its first screenful needs and no other page does, in the
// page's language (strings.en.js, strings.nl.js): what needs the player now (the strip: their turn, an offer, the fight), the last step to
// win, and who won. The cards' own words come with them (./phone/words.js).
import { words } from '../../i18n.js';

await words((code) => import(`./strings.${code}.js`));

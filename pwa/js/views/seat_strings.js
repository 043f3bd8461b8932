// The words of seats that move between phones, of who is away, and of the question before the move
// that ends a game, in the page's language (seat_strings.en.js, seat_strings.nl.js), added to the
// shared tables when a page that shows them loads. A count picks its plural form ({one, other}).
import { words } from '../i18n.js';

await words((code) => import(`./seat_strings.${code}.js`));

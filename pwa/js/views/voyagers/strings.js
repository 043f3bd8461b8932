// Voyagers' Venture's words in the page's language (strings.en.js, strings.nl.js), added to the
// shared tables when its pages load.
import { words } from '../../i18n.js';

await words((code) => import(`./strings.${code}.js`));

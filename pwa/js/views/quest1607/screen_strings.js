// The words of Quest 1607's shared devices — the TV's headline and fight, the dice tablet's fight dice,
// the host's moments — in the page's language (screen_strings.en.js, screen_strings.nl.js), added to
// the shared tables by the pages that use them.
// A count picks its plural form ({one, other}).
import { words } from '../../i18n.js';

await words((code) => import(`./screen_strings.${code}.js`));

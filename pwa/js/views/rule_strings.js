// The rulebook's own words and sheet (the rulebook page and a rule opened over a page), Dutch and
// English, added to the shared tables when either loads, with css/rules.css: no first load carries them.
import { extend } from '../i18n.js';

/** The rules' sheet; resolves once it applies (or failed), so the page or the dialog draws styled. */
export const styled = new Promise((resolve) => {
  if (document.querySelector('link[href="/css/rules.css"]')) { resolve(); return; }
  const link = Object.assign(document.createElement('link'), { rel: 'stylesheet', href: '/css/rules.css' });
  link.onload = link.onerror = () => resolve();
  document.head.append(link);
});

extend({
  en: {
    rb_title: 'Rules of {game}', rb_chapters: 'Chapters', rb_search: 'Search the rules (Dutch or English)',
    rb_found: { one: '1 rule found', other: '{n} rules found' }, rb_all: { one: '1 rule', other: '{n} rules' },
    rb_none: 'No rule has these words.', rb_numbers: 'The numbers', rb_settings: 'Settings and counts', rb_house: 'house rule', rb_changed: 'changed for this game', rb_now: 'now {value}, by event {event}',
    rb_of_game: 'As game {code} is played.', rb_unavailable: 'The rules cannot be loaded now — try again once the network is back.',
    rb_whole: 'Whole rulebook', rb_close: 'Close', rb_back: 'Back to the game', rb_chapter: 'Chapter: {title}', rb_unknown: 'No rule {id} in this rulebook.',
    rb_setting: 'Setting', rb_value: 'Value', rb_what: 'What', rb_cost: 'Cost', rb_or: 'or', rb_face: 'Die', rb_effect: 'Effect',
    rb_yes: 'yes', rb_no: 'no', rb_none_set: 'none (the host ends the game)', rb_id: 'ID', rb_title_col: 'Title', rb_text: 'Text',
    rb_costs: 'Costs', rb_white_die: 'The white die', rb_land: 'your land’s resource',
    rb_hit_table: 'The hit table: the number to roll at least',
    rb_hit_axes: 'Rows: the shooter’s Cannons; columns: the target’s Crew.', rb_cannons_n: 'Cannons {n}', rb_crew_n: 'Crew {n}',
    rb_damage: 'The damage die', rb_quests: 'Quests', rb_level: 'Level', rb_events: 'Events', rb_lands: 'Lands', rb_resource: 'Resource',
    rb_cap_cannons: 'Most Cannons per ship', rb_cap_sails: 'Most Sails per ship', rb_cap_ships: 'Most ships per player',
    rb_hit_min: 'Lowest number to hit', rb_hit_max: 'Highest number to hit', rb_sunk_crew: 'Crew of a sunk ship when it returns',
    rb_keep_divisor: 'A sunk ship’s owner keeps 1 in', rb_fish: 'Most goods fished from the water', rb_market: 'Market: give for 1',
    rb_bank: 'Bank: give for 1', rb_new_ship_at: 'Crew that brings a new ship', rb_white_dice: 'White dice per roll',
    rb_per_level: 'Quest cards per level', rb_lapse: 'Open offers lapse at the end of the turn',
    rb_trade_active: 'Trade only with the player whose turn it is', rb_surrender_by: 'Who may surrender',
    rb_v_either: 'either side', rb_v_defender: 'only the defender', rb_v_bank: 'the bank', rb_v_controller: 'the port’s controller',
    rb_start: 'At the start', rb_ducats: 'Ducats', rb_galleys: 'Galleys', rb_sailors: 'Sailors', rb_good_price: 'Price of a good (neutral or own port)',
    rb_foreign_price: 'Price of a good in a foreign port', rb_paid_to: 'A foreign-port price goes to', rb_rounds: 'Rounds',
    rb_setups: 'Powers by number of players', rb_players: 'Players', rb_powers: 'Powers', rb_phases: 'The phases of a round',
    rb_ports: 'Ports', rb_port: 'Port', rb_sea: 'Sea area', rb_goods: 'Goods',
    rb_first_year: 'First year', rb_hand_limit: 'Most cards in hand', rb_cut_doubloons: 'Cut, a doubloon: gold doubloons placed',
    rb_cut_remove: 'Cut, remove cards: at least', rb_cut_swap: 'Cut, swap: cards removed, at least',
    rb_fastest: 'Reputation for the fastest fleet', rb_gold_point: 'Gold doubloons per reputation point',
    rb_smuggled: 'Reputation lost per smuggled good', rb_min_players: 'Fewest players', rb_max_players: 'Most players',
    rb_starting_gold: 'Gold doubloons at the start', rb_min_bid: 'Least cards in a bid',
  },
  nl: {
    rb_title: 'Spelregels van {game}', rb_chapters: 'Hoofdstukken', rb_search: 'Zoek in de regels (Nederlands of Engels)',
    rb_found: { one: '1 regel gevonden', other: '{n} regels gevonden' }, rb_all: { one: '1 regel', other: '{n} regels' },
    rb_none: 'Geen regel heeft deze woorden.', rb_numbers: 'De getallen', rb_settings: 'Instellingen en aantallen', rb_house: 'huisregel', rb_changed: 'anders in dit spel', rb_now: 'nu {value}, door gebeurtenis {event}',
    rb_of_game: 'Zoals spel {code} gespeeld wordt.', rb_unavailable: 'De regels zijn nu niet te laden — probeer het opnieuw als het netwerk terug is.',
    rb_whole: 'Hele spelregels', rb_close: 'Sluiten', rb_back: 'Terug naar het spel', rb_chapter: 'Hoofdstuk: {title}', rb_unknown: 'Geen regel {id} in deze spelregels.',
    rb_setting: 'Instelling', rb_value: 'Waarde', rb_what: 'Wat', rb_cost: 'Kosten', rb_or: 'of', rb_face: 'Worp', rb_effect: 'Effect',
    rb_yes: 'ja', rb_no: 'nee', rb_none_set: 'geen (de gastheer beëindigt het spel)', rb_id: 'ID', rb_title_col: 'Titel', rb_text: 'Tekst',
    rb_costs: 'Kosten', rb_white_die: 'De witte dobbelsteen', rb_land: 'de grondstof van je land',
    rb_hit_table: 'De treftabel: het getal dat je minstens moet gooien',
    rb_hit_axes: 'Rijen: de Kanonnen van de schutter; kolommen: de Bemanning van het doel.', rb_cannons_n: 'Kanonnen {n}', rb_crew_n: 'Bemanning {n}',
    rb_damage: 'De schadedobbelsteen', rb_quests: 'Quests', rb_level: 'Niveau', rb_events: 'Gebeurtenissen', rb_lands: 'Landen', rb_resource: 'Grondstof',
    rb_cap_cannons: 'Hoogstens Kanonnen per schip', rb_cap_sails: 'Hoogstens Zeilen per schip', rb_cap_ships: 'Hoogstens schepen per speler',
    rb_hit_min: 'Laagste getal om te raken', rb_hit_max: 'Hoogste getal om te raken', rb_sunk_crew: 'Bemanning van een gezonken schip bij terugkeer',
    rb_keep_divisor: 'De eigenaar van een gezonken schip houdt 1 op', rb_fish: 'Hoogstens goederen uit het water gevist', rb_market: 'Markt: geef voor 1',
    rb_bank: 'Bank: geef voor 1', rb_new_ship_at: 'Bemanning die een nieuw schip oplevert', rb_white_dice: 'Witte dobbelstenen per worp',
    rb_per_level: 'Quest-kaarten per niveau', rb_lapse: 'Open aanbiedingen vervallen aan het eind van de beurt',
    rb_trade_active: 'Alleen handelen met wie aan de beurt is', rb_surrender_by: 'Wie zich mag overgeven',
    rb_v_either: 'beide partijen', rb_v_defender: 'alleen de verdediger', rb_v_bank: 'de bank', rb_v_controller: 'wie de haven beheerst',
    rb_start: 'Bij de start', rb_ducats: 'Dukaten', rb_galleys: 'Galeien', rb_sailors: 'Zeelui', rb_good_price: 'Prijs van een goed (neutrale of eigen haven)',
    rb_foreign_price: 'Prijs van een goed in een vreemde haven', rb_paid_to: 'De prijs in een vreemde haven gaat naar', rb_rounds: 'Rondes',
    rb_setups: 'Machten per aantal spelers', rb_players: 'Spelers', rb_powers: 'Machten', rb_phases: 'De fasen van een ronde',
    rb_ports: 'Havens', rb_port: 'Haven', rb_sea: 'Zeegebied', rb_goods: 'Goederen',
    rb_first_year: 'Eerste jaar', rb_hand_limit: 'Hoogstens kaarten in de hand', rb_cut_doubloons: 'Verkleinen met een dubloen: gouden dubloenen',
    rb_cut_remove: 'Verkleinen, kaarten weg: minstens', rb_cut_swap: 'Verkleinen door te ruilen: kaarten weg, minstens',
    rb_fastest: 'Reputatie voor de snelste vloot', rb_gold_point: 'Gouden dubloenen per reputatiepunt',
    rb_smuggled: 'Reputatie kwijt per gesmokkeld goed', rb_min_players: 'Minste spelers', rb_max_players: 'Meeste spelers',
    rb_starting_gold: 'Gouden dubloenen bij de start', rb_min_bid: 'Minste kaarten in een bod',
  },
});

// Dutch and English strings; the language comes from the stored choice, else navigator.language.
const STORE_KEY = 'shipmate.lang';

const STRINGS = {
  en: {
    app: 'Shipmate', tagline: 'The phone companion for sea-trading board games',
    game: 'Game', game_quest1607: 'Quest 1607', game_serenissima: 'Serenissima', game_voyagers: 'Voyagers’ Venture',
    opt_foreign_price: 'Price of a good in a foreign port, ducats (SE15)', opt_foreign_paid_to: 'A foreign-port price goes to (SE15)',
    opt_bank: 'the bank', opt_controller: 'the port’s controller', opt_rounds: 'Rounds (SE19; empty: the host ends the game)',
    opt_starting_gold: 'Gold doubloons at the start (VV20)', opt_min_bid: 'Least cards in a bid (VV3)',
    language: 'Language', switch_lang: 'Nederlands',
    offline: 'You are offline — the game catches up as soon as the network is back.',
    reconnecting: 'Reconnecting…', connected: 'Live',
    create_game: 'Create a game', quests_per_level: 'Quests per level',
    house_rules: 'House rules', random_order: 'Random seating order',
    sunk_crew: 'Crew of a sunk ship when it returns (C7)', max_ships: 'Most ships per player (U2)', defender_only: 'Only the defender may surrender (C8)', offers_lapse: 'Open offers lapse at the end of the turn (M1)',
    create: 'Create', join_game: 'Join a game', game_code: 'Game code', join: 'Join',
    your_games: 'Your games on this phone', open: 'Open', forget: 'Forget',
    as_player: 'player', as_host: 'host',
    lobby: 'Lobby', join_code: 'Join code', scan_to_join: 'Scan to join',
    pick_character: 'Pick your character', your_name: 'Your name',
    taken: 'taken', players_joined: 'Players at the table', no_players: 'Nobody has joined yet.',
    waiting_host: 'Waiting for the host to start…', you_joined_as: 'You joined as {name}.',
    start_game: 'Start the game', need_players: 'At least one player must join first.',
    host_panel: 'Host panel', open_screen: 'Shared screen', open_dice: 'Dice device',
    open_play: 'My phone', join_as_player: 'Join as a player too',
    game_started: 'The game has started.', to_your_phone: 'Open your phone view',
    not_joined: 'This phone has not joined this game.',
    unknown_game: 'No game with code {code}.',
    round: 'Round {n}', your_turn: 'Your turn', turn_of: '{name}’s turn',
    skip_turns: 'Skips {n} turn(s)',
    resources: 'Resources', ships: 'Ships', ship: 'Ship {n}',
    cannons: 'Cannons', sails: 'Sails', crew: 'Crew', sail_hits: 'Sail hits', goods: 'Goods',
    wood: 'Wood', cotton: 'Cotton', iron: 'Iron', coal: 'Coal', food: 'Food', land: 'Land',
    roll: 'Roll the dice', rolled: 'Rolled', allowance: 'You may sail {n} squares',
    allowance_short: 'Sail {n}', movement: 'Movement', brought: 'Brought',
    dice: 'Dice', last_roll: 'Last roll', no_roll: 'No roll yet this turn.',
    upgrade: 'Upgrade', upgrade_part: '{part} +1', pay_with: 'Pay with',
    sail: 'Sail', squares: 'Squares', reach_edge: 'Reached the map edge',
    market: 'Market (4 → 1)', bank: 'Bank (5 → 1)', give: 'Give', get: 'Get',
    exchange: 'Exchange', trade: 'Trade', offers_in: 'Offers to you', offers_out: 'Your offers',
    offer_to: 'Offer to', make_offer: 'Make an offer', accept: 'Accept', decline: 'Decline',
    withdraw: 'Withdraw', no_offers: 'No open offers.', offer_line: '{from} gives {give} for {get}',
    quests: 'Quests', buy_quest: 'Buy a {level} quest', buy_quests: 'Buy a quest card', quest_card: 'A quest card', player: 'Player', complete: 'Complete',
    requirements: 'Needs', progress: 'Progress', step_done: 'Mark step done', step_load: 'Loaded on ship {n}', step_deliver: 'Delivered (ship {n})',
    bronze: 'Bronze', silver: 'Silver', gold: 'Gold', done: 'Done', level: 'Level',
    no_quests: 'No quest cards in hand.', quest_count: '{n} quest card(s)',
    combat: 'Combat', attack: 'Attack', target: 'Target', your_ship: 'Your ship',
    fire: 'Fire!', surrender: 'Surrender', accept_surrender: 'Accept surrender',
    keep: 'Keep these', fish: 'Fish these out', shooter: 'To fire: {name}',
    shot: '{name} rolls {roll}: {result}', needs: 'needs {n}+', crew_loss: 'Crew −{n}', sails_hit: 'sails hit', no_effect: 'no effect', earlier_shots: '{n} earlier shot(s)', hit: 'hit', miss: 'miss', damage: 'damage {d}',
    sunk: 'Sunk!', keep_half: 'Choose {n} resources to keep', fish_n: 'Fish {n} resources out of the water',
    vs: 'vs', end_turn: 'End turn', event: 'Event', no_event: 'No event in play.',
    winner: '{name} wins!', finished: 'The game is over.',
    undo: 'Undo last action', adjust: 'Adjust resources', reason: 'Reason', apply: 'Apply',
    seed_hash: 'Dice seed hash (SHA-256)', seed: 'Dice seed (revealed)',
    report: 'End-of-game report', report_so_far: 'The game so far', res_over_rounds: 'Resources over the rounds',
    levels_over_rounds: 'Quest levels over the rounds', dice_luck: 'Dice luck per player',
    dice_dist: 'Dice so far', throws: '{n} dice', expected: 'expected',
    tap_to_start: 'Tap to start the screen (sound and keep awake)',
    screen_hint: 'Scan to join', players: 'Players',
    dice_table_info: 'This device shows every roll big. Open it from the host’s phone to roll here for whoever’s turn it is; otherwise the active player rolls on their own phone.',
    roll_for: 'Roll for {name}', link_dice: 'Open on a table device: scan this',
    copied: 'Link copied', error: 'Error', sent: 'Done',
    r_T5: 'Not your turn — it is {name}’s.', r_T1: 'Roll the dice first.', r_T1b: 'Already rolled this turn.',
    r_phase: 'The game is not running.', r_cost: '{what} costs {cost}; you have {have}',
    r_cap: '{what} is already at its maximum of {cap}.', r_ships_cap: 'Crew 7 would launch a ship, but you have the maximum of {cap}.',
    r_level_locked: 'Only {level} quests can be carried out now.', r_req: 'Not all requirements are met yet.',
    r_combat: 'A fight is going on.', r_no_combat: 'No fight going on.', r_not_shooter: 'It is {name}’s shot.',
    r_not_side: 'You are not in this fight.', r_stage: 'Not now (stage: {stage}).',
    r_market: 'Give 4 identical resources; you have {have} {res}.', r_same: 'Pick two different resources.',
    r_bank: 'Give exactly 5 resources (now {n}).', r_bank_have: 'You do not have what you give.',
    r_offer_empty: 'Offer something and ask something.', r_offer_party: 'One side must be the active player.',
    r_offer_have: 'You do not have what you give.', r_accept_have: 'You do not have what they ask.',
    r_keep: 'Keep exactly {n} (now {m}).', r_fish: 'Fish exactly {n} (now {m}).',
    r_allowance: 'At most {n} squares this turn for this ship.', r_gold: 'Complete all Gold quests first.',
    r_no_target: 'Pick a ship to attack.', r_players: 'At least {n} players are needed; there are {m}.', r_defender: 'Only the defender may surrender (house rule).', r_event_ban: 'The event forbids this: {title}',
    req_deliver: 'Deliver', req_ship_level: 'A ship with {part} ≥ {n}', req_fleet: 'A fleet of {n} ships',
    req_visit: 'Visit {place}', req_cargo: 'Carry {good} from {from} to {to}', req_win_fight: 'Win a sea fight',
    pattern: 'pattern', name_required: 'Type your name.', character_required: 'Pick a character.',
  },
  nl: {
    app: 'Shipmate', tagline: 'De telefoonmaat bij handelsspellen op zee',
    game: 'Spel', game_quest1607: 'Quest 1607', game_serenissima: 'Serenissima', game_voyagers: 'Voyagers’ Venture',
    opt_foreign_price: 'Prijs van een goed in een vreemde haven, dukaten (SE15)', opt_foreign_paid_to: 'De prijs in een vreemde haven gaat naar (SE15)',
    opt_bank: 'de bank', opt_controller: 'wie de haven beheerst', opt_rounds: 'Rondes (SE19; leeg: de gastheer beëindigt het spel)',
    opt_starting_gold: 'Gouden dubloenen bij de start (VV20)', opt_min_bid: 'Minste kaarten in een bod (VV3)',
    language: 'Taal', switch_lang: 'English',
    offline: 'Je bent offline — het spel loopt bij zodra het netwerk terug is.',
    reconnecting: 'Opnieuw verbinden…', connected: 'Live',
    create_game: 'Nieuw spel', quests_per_level: 'Quests per niveau',
    house_rules: 'Huisregels', random_order: 'Willekeurige zitvolgorde',
    sunk_crew: 'Bemanning van een gezonken schip bij terugkeer (C7)', max_ships: 'Hoogstens schepen per speler (U2)', defender_only: 'Alleen de verdediger mag zich overgeven (C8)', offers_lapse: 'Open aanbiedingen vervallen aan het eind van de beurt (M1)',
    create: 'Maken', join_game: 'Meedoen met een spel', game_code: 'Spelcode', join: 'Meedoen',
    your_games: 'Jouw spellen op deze telefoon', open: 'Openen', forget: 'Vergeten',
    as_player: 'speler', as_host: 'spelleider',
    lobby: 'Lobby', join_code: 'Spelcode', scan_to_join: 'Scan om mee te doen',
    pick_character: 'Kies je karakter', your_name: 'Je naam',
    taken: 'gekozen', players_joined: 'Spelers aan tafel', no_players: 'Nog niemand doet mee.',
    waiting_host: 'Wachten tot de spelleider start…', you_joined_as: 'Je doet mee als {name}.',
    start_game: 'Start het spel', need_players: 'Er moet eerst iemand meedoen.',
    host_panel: 'Spelleider', open_screen: 'Gedeeld scherm', open_dice: 'Dobbelapparaat',
    open_play: 'Mijn telefoon', join_as_player: 'Doe zelf ook mee',
    game_started: 'Het spel is begonnen.', to_your_phone: 'Naar je spelersscherm',
    not_joined: 'Deze telefoon doet niet mee aan dit spel.',
    unknown_game: 'Geen spel met code {code}.',
    round: 'Ronde {n}', your_turn: 'Jouw beurt', turn_of: '{name} is aan de beurt',
    skip_turns: 'Slaat {n} beurt(en) over',
    resources: 'Grondstoffen', ships: 'Schepen', ship: 'Schip {n}',
    cannons: 'Kanonnen', sails: 'Zeilen', crew: 'Bemanning', sail_hits: 'Zeiltreffers', goods: 'Handelswaren',
    wood: 'Hout', cotton: 'Katoen', iron: 'IJzer', coal: 'Kolen', food: 'Voedsel', land: 'Land',
    roll: 'Gooi de dobbelstenen', rolled: 'Gegooid', allowance: 'Je mag {n} vakjes varen',
    allowance_short: 'Vaar {n}', movement: 'Beweging', brought: 'Opbrengst',
    dice: 'Dobbelstenen', last_roll: 'Laatste worp', no_roll: 'Deze beurt nog niet gegooid.',
    upgrade: 'Verbeteren', upgrade_part: '{part} +1', pay_with: 'Betaal met',
    sail: 'Varen', squares: 'Vakjes', reach_edge: 'Rand van de kaart bereikt',
    market: 'Markt (4 → 1)', bank: 'Bank (5 → 1)', give: 'Geef', get: 'Krijg',
    exchange: 'Ruilen', trade: 'Handel', offers_in: 'Aanbiedingen aan jou', offers_out: 'Jouw aanbiedingen',
    offer_to: 'Aanbod aan', make_offer: 'Doe een aanbod', accept: 'Accepteren', decline: 'Weigeren',
    withdraw: 'Intrekken', no_offers: 'Geen open aanbiedingen.', offer_line: '{from} geeft {give} voor {get}',
    quests: 'Quests', buy_quest: 'Koop een {level} quest', buy_quests: 'Koop een questkaart', quest_card: 'Een questkaart', player: 'Speler', complete: 'Voltooien',
    requirements: 'Nodig', progress: 'Voortgang', step_done: 'Stap gedaan', step_load: 'Geladen op schip {n}', step_deliver: 'Afgeleverd (schip {n})',
    bronze: 'Brons', silver: 'Zilver', gold: 'Goud', done: 'Klaar', level: 'Niveau',
    no_quests: 'Geen questkaarten in de hand.', quest_count: '{n} questkaart(en)',
    combat: 'Gevecht', attack: 'Aanvallen', target: 'Doelwit', your_ship: 'Jouw schip',
    fire: 'Vuur!', surrender: 'Overgeven', accept_surrender: 'Overgave aannemen',
    keep: 'Deze houden', fish: 'Deze opvissen', shooter: 'Aan het vuren: {name}',
    shot: '{name} gooit {roll}: {result}', needs: 'nodig {n}+', crew_loss: 'Bemanning −{n}', sails_hit: 'zeilen geraakt', no_effect: 'geen effect', earlier_shots: '{n} eerdere schot(en)', hit: 'raak', miss: 'mis', damage: 'schade {d}',
    sunk: 'Gezonken!', keep_half: 'Kies {n} grondstoffen om te houden', fish_n: 'Vis {n} grondstoffen op',
    vs: 'tegen', end_turn: 'Beurt beëindigen', event: 'Gebeurtenis', no_event: 'Geen gebeurtenis actief.',
    winner: '{name} wint!', finished: 'Het spel is afgelopen.',
    undo: 'Laatste actie terugdraaien', adjust: 'Grondstoffen aanpassen', reason: 'Reden', apply: 'Toepassen',
    seed_hash: 'Hash van het dobbelzaad (SHA-256)', seed: 'Dobbelzaad (onthuld)',
    report: 'Verslag na afloop', report_so_far: 'Het spel tot nu toe', res_over_rounds: 'Grondstoffen per ronde',
    levels_over_rounds: 'Questniveaus per ronde', dice_luck: 'Dobbelgeluk per speler',
    dice_dist: 'Worpen tot nu toe', throws: '{n} dobbelstenen', expected: 'verwacht',
    tap_to_start: 'Tik om het scherm te starten (geluid en wakker houden)',
    screen_hint: 'Scan om mee te doen', players: 'Spelers',
    dice_table_info: 'Dit apparaat toont elke worp groot. Open het vanaf de telefoon van de spelleider om hier te gooien voor wie aan de beurt is; anders gooit de actieve speler op de eigen telefoon.',
    roll_for: 'Gooi voor {name}', link_dice: 'Open op een tafelapparaat: scan dit',
    copied: 'Link gekopieerd', error: 'Fout', sent: 'Gedaan',
    r_T5: 'Niet jouw beurt — {name} is aan de beurt.', r_T1: 'Gooi eerst de dobbelstenen.', r_T1b: 'Deze beurt is al gegooid.',
    r_phase: 'Het spel loopt niet.', r_cost: '{what} kost {cost}; je hebt {have}',
    r_cap: '{what} staat al op het maximum van {cap}.', r_ships_cap: 'Bemanning 7 geeft een nieuw schip, maar je hebt het maximum van {cap}.',
    r_level_locked: 'Alleen {level} quests kunnen nu worden uitgevoerd.', r_req: 'Nog niet aan alle eisen voldaan.',
    r_combat: 'Er is een gevecht bezig.', r_no_combat: 'Er is geen gevecht.', r_not_shooter: '{name} is aan het schieten.',
    r_not_side: 'Je doet niet mee aan dit gevecht.', r_stage: 'Nu niet (fase: {stage}).',
    r_market: 'Geef 4 dezelfde grondstoffen; je hebt {have} {res}.', r_same: 'Kies twee verschillende grondstoffen.',
    r_bank: 'Geef precies 5 grondstoffen (nu {n}).', r_bank_have: 'Je hebt niet wat je geeft.',
    r_offer_empty: 'Bied iets aan en vraag iets.', r_offer_party: 'Eén kant moet de actieve speler zijn.',
    r_offer_have: 'Je hebt niet wat je geeft.', r_accept_have: 'Je hebt niet wat ze vragen.',
    r_keep: 'Houd er precies {n} (nu {m}).', r_fish: 'Vis er precies {n} op (nu {m}).',
    r_allowance: 'Hoogstens {n} vakjes deze beurt voor dit schip.', r_gold: 'Voltooi eerst alle Gouden quests.',
    r_no_target: 'Kies een schip om aan te vallen.', r_players: 'Er zijn minstens {n} spelers nodig; er zijn er {m}.', r_defender: 'Alleen de verdediger mag zich overgeven (huisregel).', r_event_ban: 'De gebeurtenis verbiedt dit: {title}',
    req_deliver: 'Lever', req_ship_level: 'Een schip met {part} ≥ {n}', req_fleet: 'Een vloot van {n} schepen',
    req_visit: 'Bezoek {place}', req_cargo: 'Breng {good} van {from} naar {to}', req_win_fight: 'Win een zeeslag',
    pattern: 'patroon', name_required: 'Vul je naam in.', character_required: 'Kies een karakter.',
  },
};

/** Add a game's own strings ({en: {…}, nl: {…}}); its page modules call this when they load. */
export function extend(tables) {
  for (const code of Object.keys(STRINGS)) Object.assign(STRINGS[code], tables[code] || {});
}

export function detectLanguage(stored, navigatorLanguage) {
  if (stored === 'nl' || stored === 'en') return stored;
  return String(navigatorLanguage || '').toLowerCase().startsWith('nl') ? 'nl' : 'en';
}

let current = detectLanguage(
  globalThis.localStorage ? localStorage.getItem(STORE_KEY) : null,
  globalThis.navigator ? navigator.language : 'en',
);

export function lang() { return current; }

export function setLanguage(code) {
  current = code === 'nl' ? 'nl' : 'en';
  try { localStorage.setItem(STORE_KEY, current); } catch { /* private mode: keep it in memory */ }
  document.documentElement.lang = current;
}

/** Translate `key` in the current language, filling {placeholders} from `params`. */
export function t(key, params = {}) {
  const table = STRINGS[current];
  const template = table[key] ?? STRINGS.en[key] ?? key;
  return template.replace(/\{(\w+)\}/g, (_, name) => (name in params ? String(params[name]) : `{${name}}`));
}

/** Pick the current language from a {nl, en} text (or pass a plain string through). */
export function tx(text) {
  if (text == null) return '';
  if (typeof text === 'string') return text;
  return text[current] ?? text.en ?? text.nl ?? '';
}

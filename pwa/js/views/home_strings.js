// The front pages' own words and sheet: the home page (create a game with its house rules, your games
// on this phone) and the lobby (pick a land, who has joined), Dutch and English, added to the shared
// tables when either page loads, with css/front.css: no game page carries them.
import { extend } from '../i18n.js';

/** The front pages' sheet; resolves once it applies (or failed), so a page draws styled. */
export const styled = new Promise((resolve) => {
  if (document.querySelector('link[href="/css/front.css"]')) { resolve(); return; }
  const link = Object.assign(document.createElement('link'), { rel: 'stylesheet', href: '/css/front.css' });
  link.onload = link.onerror = () => resolve();
  document.head.append(link);
});

extend({
  en: {
    tagline: 'The phone companion for sea-trading board games',
    game: 'Game', create_game: 'Create a game', create: 'Create', quests_per_level: 'Quests per level', house_rules: 'House rules',
    sunk_crew: 'Crew of a sunk ship when it returns (C7)', max_ships: 'Most ships per player (U2)',
    defender_only: 'Only the defender may surrender (C8)', offers_lapse: 'Open offers lapse at the end of the turn (M1)',
    opt_foreign_price: 'Price of a good in a foreign port, ducats (SE15)', opt_foreign_paid_to: 'A foreign-port price goes to (SE15)',
    opt_bank: 'the bank', opt_controller: 'the port’s controller', opt_rounds: 'Rounds (SE19; empty: the host ends the game)',
    opt_starting_gold: 'Gold doubloons at the start (VV20)', opt_min_bid: 'Least cards in a bid (VV3)',
    join_game: 'Join a game', game_code: 'Game code',
    your_games: 'Your games on this phone', forget: 'Forget', home_hosting: 'You host this game',
    home_you: 'You play as {name}', home_you_as: 'You play as {name}, {land}',
    home_lobby: { one: 'In the lobby · 1 player', other: 'In the lobby · {n} players' },
    home_round: 'Playing · round {n}', home_playing: 'Playing', home_finished: 'The game is over',
    home_won: 'The game is over: {name} won', home_gone: 'This game is no longer on the server',
    pick_character: 'Pick your character', your_name: 'Your name', players_joined: 'Players at the table',
    no_players: 'Nobody has joined yet.', you_joined_as: 'You joined as {name}.', host_plays_too: 'You play too: start the game above once everyone has joined. Your phone page and the host panel link to each other.', game_started: 'The game has started.',
    name_required: 'Type your name.', character_required: 'Pick a character.',
  },
  nl: {
    tagline: 'De telefoonmaat bij handelsspellen op zee',
    game: 'Spel', create_game: 'Nieuw spel', create: 'Maken', quests_per_level: 'Quests per niveau', house_rules: 'Huisregels',
    sunk_crew: 'Bemanning van een gezonken schip bij terugkeer (C7)', max_ships: 'Hoogstens schepen per speler (U2)',
    defender_only: 'Alleen de verdediger mag zich overgeven (C8)', offers_lapse: 'Open aanbiedingen vervallen aan het eind van de beurt (M1)',
    opt_foreign_price: 'Prijs van een goed in een vreemde haven, dukaten (SE15)', opt_foreign_paid_to: 'De prijs in een vreemde haven gaat naar (SE15)',
    opt_bank: 'de bank', opt_controller: 'wie de haven beheerst', opt_rounds: 'Rondes (SE19; leeg: de gastheer beëindigt het spel)',
    opt_starting_gold: 'Gouden dubloenen bij de start (VV20)', opt_min_bid: 'Minste kaarten in een bod (VV3)',
    join_game: 'Meedoen met een spel', game_code: 'Spelcode',
    your_games: 'Jouw spellen op deze telefoon', forget: 'Vergeten', home_hosting: 'Jij bent de spelleider',
    home_you: 'Je speelt als {name}', home_you_as: 'Je speelt als {name}, {land}',
    home_lobby: { one: 'In de lobby · 1 speler', other: 'In de lobby · {n} spelers' },
    home_round: 'Bezig · ronde {n}', home_playing: 'Bezig', home_finished: 'Het spel is afgelopen',
    home_won: 'Het spel is afgelopen: {name} heeft gewonnen', home_gone: 'Dit spel staat niet meer op de server',
    pick_character: 'Kies je karakter', your_name: 'Je naam', players_joined: 'Spelers aan tafel',
    no_players: 'Nog niemand doet mee.', you_joined_as: 'Je doet mee als {name}.', host_plays_too: 'Je speelt zelf mee: start het spel hierboven zodra iedereen meedoet. Je eigen pagina en het spelleiderspaneel verwijzen naar elkaar.', game_started: 'Het spel is begonnen.',
    name_required: 'Vul je naam in.', character_required: 'Kies een karakter.',
  },
});

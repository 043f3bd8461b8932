// The words of the phone's own checks of Quest 1607 (./quest1607.js, ./quest1607_now.js), Dutch and
// English: why a move is not possible now, under the control that would make it. Only a page that judges
// moves loads them; the shared screen, which judges none, does without.
import { extend } from '../i18n.js';

extend({
  en: {
    r_T5: 'Not your turn — it is {name}’s.', r_T1: 'Roll the dice first.', r_T1b: 'Already rolled this turn.', r_phase: 'The game is not running.',
    r_cost: '{what} costs {cost}; you have {have}', r_cap: '{what} is already at its maximum of {cap}.',
    r_ships_cap: 'Crew {crew} would launch a ship, but you have the maximum of {cap}.', r_level_locked: 'Only {level} quests can be carried out now.',
    r_req: 'Not all requirements are met yet.', r_combat: 'A fight is going on.', r_no_combat: 'No fight going on.',
    r_not_shooter: 'It is {name}’s shot.', r_not_side: 'You are not in this fight.', r_stage: 'Not now (stage: {stage}).',
    r_market: 'Give {rate} identical resources; you have {n} {res}.', r_same: 'Pick two different resources.',
    r_bank: 'Give exactly {rate} resources (now {n}).', r_bank_have: 'You do not have what you give.',
    r_offer_empty: 'Offer something and ask something.', r_offer_party: 'One side must be the active player.',
    r_accept_have: 'You do not have what they ask.', r_keep: 'Keep exactly {n} (now {m}).', r_fish: 'Fish exactly {n} (now {m}).',
    r_allowance: { one: 'At most {n} square this turn for this ship.', other: 'At most {n} squares this turn for this ship.' },
    r_gold: 'Complete all Gold quests first.', r_no_target: 'Pick a ship to attack.', r_defender: 'Only the defender may surrender (house rule).',
    r_event_ban: 'The event forbids this: {title}', r_offer_gone: 'This offer is not open any more.',
    r_offer_short: '{name} no longer has what they give.', r_step_done: 'This step is already done.', r_cargo_ship: 'Say which ship loads the goods.',
    r_cargo_on: 'The goods ride on ship {n}.', r_below_zero: 'A stock cannot go below zero.',
    r_rested: 'This ship was attacked in round {last}; not again before round {next}.',
  },
  nl: {
    r_T5: 'Niet jouw beurt — {name} is aan de beurt.', r_T1: 'Gooi eerst de dobbelstenen.', r_T1b: 'Deze beurt is al gegooid.',
    r_phase: 'Het spel loopt niet.', r_cost: '{what} kost {cost}; je hebt {have}', r_cap: '{what} staat al op het maximum van {cap}.',
    r_ships_cap: 'Bemanning {crew} geeft een nieuw schip, maar je hebt het maximum van {cap}.',
    r_level_locked: 'Alleen {level} quests kunnen nu worden uitgevoerd.', r_req: 'Nog niet aan alle eisen voldaan.',
    r_combat: 'Er is een gevecht bezig.', r_no_combat: 'Er is geen gevecht.', r_not_shooter: '{name} is aan het schieten.',
    r_not_side: 'Je doet niet mee aan dit gevecht.', r_stage: 'Nu niet (fase: {stage}).',
    r_market: 'Geef {rate} dezelfde grondstoffen; je hebt {n} {res}.', r_same: 'Kies twee verschillende grondstoffen.',
    r_bank: 'Geef precies {rate} grondstoffen (nu {n}).', r_bank_have: 'Je hebt niet wat je geeft.', r_offer_empty: 'Bied iets aan en vraag iets.',
    r_offer_party: 'Eén kant moet de actieve speler zijn.', r_accept_have: 'Je hebt niet wat ze vragen.', r_keep: 'Houd er precies {n} (nu {m}).',
    r_fish: 'Vis er precies {n} op (nu {m}).',
    r_allowance: { one: 'Hoogstens {n} vakje deze beurt voor dit schip.', other: 'Hoogstens {n} vakjes deze beurt voor dit schip.' },
    r_gold: 'Voltooi eerst alle Gouden quests.', r_no_target: 'Kies een schip om aan te vallen.',
    r_defender: 'Alleen de verdediger mag zich overgeven (huisregel).', r_event_ban: 'De gebeurtenis verbiedt dit: {title}',
    r_offer_gone: 'Dit bod staat niet meer open.', r_offer_short: '{name} heeft niet meer wat die geeft.', r_step_done: 'Deze stap is al gedaan.',
    r_cargo_ship: 'Zeg op welk schip de goederen geladen worden.', r_cargo_on: 'De goederen liggen op schip {n}.',
    r_below_zero: 'Een voorraad kan niet onder nul.', r_rested: 'Dit schip werd in ronde {last} aangevallen; pas in ronde {next} weer.',
  },
});

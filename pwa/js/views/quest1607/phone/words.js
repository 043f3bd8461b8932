// The words of Quest 1607's phone that its cards bring when they load (after its first draw), Dutch
// and English: what just happened to this player (the strip's moments), the shots, the attack's board
// rules. A count picks its plural form ({one, other}).
import { extend } from '../../../i18n.js';

extend({
  en: {
    my_quest: 'Quest done: “{title}” ({level}).',
    my_quest_next: '{level} quests are open now: buy one and carry it out.',
    my_quest_more: { one: 'One more {level} quest, then {next} opens.', other: '{n} more {level} quests, then {next} opens.' },
    my_quest_gold: 'Every Gold quest is done: sail a ship to the edge of the map to win!',
    my_event: 'Event {id} · {title}: {text}', my_event_you: 'For you: {delta}.', my_event_none: 'Nothing of yours changes.',
    my_declined: '{name} declined your offer (you give {give}, you get {get}).',
    my_withdrawn: '{name} withdrew the offer to you (you get {give}, you give {get}).',
    my_lapsed_out: 'Your offer to {name} lapsed when the turn ended.',
    my_lapsed_in: '{name}’s offer to you lapsed when the turn ended.',
    my_adjusted: 'The host corrected your resources: {delta} — “{reason}”.',
    my_change: 'Your resources: {delta}.',
    attack_rules: 'C1 · Your ship lies right next to the other (not diagonally). C2 · Neither is in a harbour or within one square of an island or Daeventra. The board decides: look before you attack.',
    their_ship: 'Their ship', shots_h: 'Shots',
  },
  nl: {
    my_quest: 'Quest voltooid: „{title}” ({level}).',
    my_quest_next: '{level}-quests zijn nu open: koop er een en voer hem uit.',
    my_quest_more: { one: 'Nog één {level}-quest, dan gaat {next} open.', other: 'Nog {n} {level}-quests, dan gaat {next} open.' },
    my_quest_gold: 'Alle Gouden quests zijn voltooid: vaar met een schip naar de rand van de kaart en win!',
    my_event: 'Gebeurtenis {id} · {title}: {text}', my_event_you: 'Voor jou: {delta}.', my_event_none: 'Voor jou verandert er niets.',
    my_declined: '{name} weigerde je aanbod (jij geeft {give}, jij krijgt {get}).',
    my_withdrawn: '{name} trok het aanbod aan jou in (jij krijgt {give}, jij geeft {get}).',
    my_lapsed_out: 'Je aanbod aan {name} verviel toen de beurt eindigde.',
    my_lapsed_in: 'Het aanbod van {name} aan jou verviel toen de beurt eindigde.',
    my_adjusted: 'De spelleider corrigeerde je grondstoffen: {delta} — „{reason}”.',
    my_change: 'Jouw grondstoffen: {delta}.',
    attack_rules: 'C1 · Je schip ligt direct naast het andere (niet schuin). C2 · Geen van beide ligt in een haven of binnen één vakje van een eiland of Daeventra. Het bord beslist: kijk voor je aanvalt.',
    their_ship: 'Hun schip', shots_h: 'Schoten',
  },
});

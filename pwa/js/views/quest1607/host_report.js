// The host panel's report (loaded beside the panel: it sits below the first screenful while the game
// runs, above the story once it is over): the resources and quest levels of each player over the
// rounds, and each player's dice luck, folded from the event stream. Its words come with it.
import { html, trusted } from '../../html.js';
import { extend, t } from '../../i18n.js';
import { playerById } from '../../logic/quest1607_facts.js';
import { luckPerPlayer, timeline } from '../../logic/stats.js';
import { barChart, lineChart } from '../../charts.js';
import { characterStyle } from '../../ui.js';

extend({
  en: {
    report: 'End-of-game report', report_so_far: 'The game so far',
    res_over_rounds: 'Resources over the rounds', levels_over_rounds: 'Quest levels over the rounds',
    dice_luck: 'Dice luck per player', luck_dice: { one: '1 die', other: '{n} dice' },
  },
  nl: {
    report: 'Verslag na afloop', report_so_far: 'Het spel tot nu toe',
    res_over_rounds: 'Grondstoffen per ronde', levels_over_rounds: 'Questniveaus per ronde',
    dice_luck: 'Dobbelgeluk per speler', luck_dice: { one: '1 dobbelsteen', other: '{n} dobbelstenen' },
  },
});

/** The report: resources and quest levels over the rounds, and each player's dice luck. */
function report({ state, ruleset, events }) {
  const line = timeline(events);
  const luck = luckPerPlayer(events);
  const colour = (pid) => characterStyle(ruleset, (playerById(state, pid) || {}).character).colour;
  const rounds = line.rounds.map(String);
  const size = { width: 480, height: 280 };
  const res = lineChart({ ...size, title: t('res_over_rounds'), x: rounds,
    series: line.players.map((p) => ({ name: p.name, colour: colour(p.id), values: line.resources[p.id] || [] })) });
  const levels = lineChart({ ...size, title: t('levels_over_rounds'), x: rounds, yLabels: [t('bronze'), t('silver'), t('gold'), t('done')],
    series: line.players.map((p) => ({ name: p.name, colour: colour(p.id), values: line.levels[p.id] || [] })) });
  const dice = barChart({ ...size, title: t('dice_luck'), reference: 3.5, referenceLabel: `${t('expected')} 3.5`, format: (v) => v.toFixed(2), legend: true,
    bars: state.players.map((p) => {
      const { dice: n, mean } = luck[p.id] || { dice: 0, mean: 0 };
      return { label: p.name, value: mean, colour: colour(p.id), note: t('luck_dice', { n }) };
    }) });
  return html`<section class="card report" id="report"><h2>${state.phase === 'finished' ? t('report') : t('report_so_far')}</h2>${trusted(res)}${trusted(levels)}${trusted(dice)}</section>`;
}

/** The report as a part of the panel (../../page.js), drawn while the game is in `phase`. */
export const reportCard = (phase) => ({
  name: `report-${phase}`,
  read: ({ state, ruleset, events }) => [ruleset, state.phase, state.players, events],
  view: (ctx) => (ctx.state.phase === phase ? report(ctx) : ''),
});

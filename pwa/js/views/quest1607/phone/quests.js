// A player's quests: the level they carry out now (Q2) and how far each level is, each quest card with
// its requirements, the steps on the board they report (a visit; goods loaded onto a ship, then
// delivered: Q3) and its hand-in (Q1), and buying a quest card (U5). Its taps need no state of its own.
import { html } from '../../../html.js';
import { t, tx } from '../../../i18n.js';
import { requirementText } from '../../../logic/format.js';
import * as R from '../../../logic/quest1607.js';
import { checkedButton } from '../../parts.js';
import { buttonGroup } from './card.js';
import './words.js';

/** The buttons of one step the player reports: "Visited", "Load onto ship n" (one per ship), "Deliver from ship n". */
function stepButtons({ state, me, player, shared }, quest, step) {
  if (!step.manual || step.done) return '';
  const data = (ship) => ({ act: 'quest_step', quest: quest.id, index: step.index, ship });
  const id = `step-${quest.id}-${step.index}`;
  if (step.kind !== 'cargo') {
    const ship = player.ships[0].number;
    return checkedButton(R.canQuestStep(state, me, quest, step.index, ship), id, t('step_done'), { data: data(ship), shared });
  }
  const loaded = ((quest.progress || [])[step.index] || {}).ship;
  if (loaded) return checkedButton(R.canQuestStep(state, me, quest, step.index, loaded), id, t('step_deliver', { n: loaded }), { data: data(loaded), shared });
  return html`<span class="step-ships">${player.ships.map((s, i) => checkedButton(R.canQuestStep(state, me, quest, step.index, s.number),
    i ? `${id}-ship-${s.number}` : id, t('step_load', { n: s.number }), { data: data(s.number), shared }))}</span>`;
}

function questItem(ctx, quest) {
  const { state, me, player, shared } = ctx;
  const progress = R.questProgress(quest, player);
  const playing = state.phase === 'playing' && !shared; // a quest's taps, when the turn allows a move (the strip says why not)
  return html`<li class="quest level-${quest.level}" id="quest-${quest.id}"><h3>${tx(quest.title)} <span class="tag">${t(quest.level)}</span></h3>
    <p>${tx(quest.text)}</p>
    <ol class="reqs" aria-label="${t('requirements')}">${progress.steps.map((s) => html`<li class="${s.done ? 'done' : ''}">
      <span class="tick" aria-hidden="true">${s.done ? '✓' : '○'}</span> ${requirementText(s.requirement)}${s.done ? html`<span class="sr-only"> (${t('done')})</span>` : ''}
      ${playing ? stepButtons(ctx, quest, s) : ''}</li>`)}</ol>
    <p class="muted">${t('progress')}: ${progress.done}/${progress.total}</p>
    ${playing ? checkedButton(R.canCompleteQuest(state, me, quest), `complete-${quest.id}`, t('complete'), { cls: 'primary', data: { act: 'complete_quest', quest: quest.id }, shared }) : ''}
  </li>`;
}

export const questsCard = {
  name: 'quests',
  read: ({ state, player, ruleset, shared }) => [...R.movesOf(state, player), ruleset, shared],
  view(ctx) {
    const { state, ruleset, me, player, shared } = ctx;
    const quests = player.quests || [];
    const per = (state.options || ruleset.options).quests_per_level; // S6: the game's option
    const buy = R.levels(ruleset).map((l) => ({ check: R.canBuyQuest(state, ruleset, me, l), id: `buy-${l}`, label: t(l), data: { act: 'buy_quest', level: l } }));
    return html`<section class="card" id="quests" aria-labelledby="quests-h"><h2 id="quests-h">${t('quests')} <span class="tag">${t(player.level)}</span></h2>
      <p class="levels">${R.levels(ruleset).map((l) => html`<span class="level level-${l}">${t(l)} ${player.completed[l] || 0}/${per}</span>`)}</p>
      ${quests.length ? html`<ul class="quests">${quests.map((q) => questItem(ctx, q))}</ul>` : html`<p class="muted">${t('no_quests')}</p>`}
      ${state.phase === 'playing' && !shared && player.level !== 'done' ? html`<h3>${t('buy_quests')}</h3>${buttonGroup(buy, shared)}` : ''}
    </section>`;
  },
};

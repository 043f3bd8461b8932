// The player's phone: ship cards, resources, the dice, and every action with its reason when refused.
import { api, saveTokens, tokensFor } from '../../api.js';
import { html, render } from '../../html.js';
import { t, tx } from '../../i18n.js';
import * as R from '../../logic/quest1607.js';
import { explain, formatResources, requirementText, resName, resourcesOrNothing, shotText } from '../../logic/format.js';
import { nowItems, outcome, outcomeIsFresh, outcomeText, tellers } from '../../logic/quest1607_table.js';
import { story } from '../../logic/story.js';
import { openGame } from '../../session.js';
import { dieSvg, listen, paintSwatches, swatch, vibrate } from '../../ui.js';
import { animateDice, broughtBy } from './dice.js';
import { lastRoll as lastRollIn } from '../../logic/stats.js';
import { feed, nowStrip, stepper, stripClick, tapItems } from '../parts.js';

const PARTS = ['cannons', 'sails', 'crew'];

// The reason every turn action shares (not your turn, roll first, a fight is on) is a status, told
// once by the strip at the top in words; the buttons it disables point there instead of repeating
// it. A button refused for a reason of its own (a cost, a cap) cites the rule right under it.
let sharedReason = '';

/** A button that is disabled with its reason (rule ID and why) when the check refuses it. */
function actionButton(check, id, label, data, cls = '') {
  const attrs = Object.entries(data).map(([k, v]) => html` data-${k}="${v}"`);
  if (check.ok) return html`<button type="button" id="${id}" class="${cls}"${attrs}>${label}</button>`;
  const why = explain(check);
  if (why === sharedReason) {
    return html`<button type="button" id="${id}" class="${cls}"${attrs} disabled aria-describedby="now">${label}</button>`;
  }
  return html`<button type="button" id="${id}" class="${cls}"${attrs} disabled aria-describedby="${id}-why">${label}</button>
    <p class="why" id="${id}-why">${why}</p>`;
}

/** Buttons side by side; a reason they share is written once below them. */
function buttonGroup(items) {
  const reasons = new Map();
  const buttons = items.map(({ check, id, label, data, cls = '' }) => {
    const attrs = Object.entries(data).map(([k, v]) => html` data-${k}="${v}"`);
    if (check.ok) return html`<button type="button" id="${id}" class="${cls}"${attrs}>${label}</button>`;
    const why = explain(check);
    const whyId = why === sharedReason ? 'now' : (reasons.get(why) || `${id}-why`);
    if (why !== sharedReason && !reasons.has(why)) reasons.set(why, whyId);
    return html`<button type="button" id="${id}" class="${cls}"${attrs} disabled aria-describedby="${whyId}">${label}</button>`;
  });
  return html`<div class="button-group">${buttons}</div>${[...reasons].map(([why, id]) => html`<p class="why" id="${id}">${why}</p>`)}`;
}

export async function mount(root, { code, navigate }) {
  const mine = tokensFor(code);
  if (!mine.player) { navigate(`/join/${code}`, { replace: true }); return {}; }
  const me = mine.player.id;
  const ui = {
    payWith: {}, sail: {}, offer: { to: '', give: {}, get: {} }, market: { give: '', get: '' },
    bank: { give: {}, get: '' }, keep: {}, fish: {}, attack: { ship: 1, target: '', target_ship: 1 },
    cargoShip: {}, open: {},
  };
  let state = null;
  let session;
  let lastRoll = null;
  let rollEvent = null;

  const resourcesOf = (player) => {
    const base = R.resourceIds(session.ruleset, state).filter((id) => {
      const def = (session.ruleset.resources || []).find((r) => r.id === id);
      return !(def && def.land) || id === player.land_resource || (player.resources[id] || 0) > 0;
    });
    return base;
  };

  function resourceGrid(player) {
    return html`<ul class="resources" aria-label="${t('resources')}">${resourcesOf(player).map((id) => html`
      <li class="res res-${id}"><span class="res-count" id="res-${id}">${player.resources[id] || 0}</span><span class="res-name">${resName(id)}</span></li>`)}</ul>`;
  }

  function shipCard(player, ship, own) {
    const rs = session.ruleset;
    return html`<article class="ship-card" aria-label="${t('ship', { n: ship.number })}">
      <header>${swatch(rs, player.character, false)}<span class="ship-no">${ship.number}</span><span>${t('ship', { n: ship.number })}</span></header>
      <dl class="ship-stats">${PARTS.map((part) => html`<div class="stat"><dt>${t(part)}</dt><dd>${dieSvg(ship[part], 'stat', t(part))}</dd></div>`)}</dl>
      ${ship.sail_hits ? html`<p class="muted">${t('sail_hits')}: ${ship.sail_hits}</p>` : ''}
      ${ship.goods && ship.goods.length ? html`<p class="goods">${t('goods')}: ${ship.goods.map((g) => g.good).join(', ')}</p>` : ''}
      ${own ? html`<div class="upgrades">${PARTS.map((part) => {
        const payWith = ui.payWith[ship.number] || R.payChoices(rs)[0];
        const check = R.canUpgrade(state, rs, me, ship.number, part, payWith);
        const cost = formatResources(R.costOf(rs, part, payWith, state, player.resources));
        return html`<div class="upgrade">${actionButton(check, `up-${ship.number}-${part}`, html`${t('upgrade_part', { part: t(part) })} <small>${cost}</small>`, { act: 'upgrade', ship: ship.number, part })}
          ${part === 'crew' ? html`<label class="inline">${t('pay_with')} <select data-paywith="${ship.number}">
            ${R.payChoices(rs).map((r) => html`<option value="${r}" ${r === payWith ? html`selected` : ''}>${resName(r)}</option>`)}</select></label>` : ''}</div>`;
      })}</div>` : ''}
    </article>`;
  }

  function diceBox(player) {
    const turn = state.turn;
    const mineTurn = turn && turn.player === me;
    const dice = turn && turn.dice;
    return html`<section class="card dicebox" aria-labelledby="dice-h"><h2 id="dice-h">${t('dice')}</h2>
      <div class="dice-row" id="dice-row">${dice ? html`${dieSvg(dice.move.value, 'move', t('movement'))}${dice.white.map((d) => dieSvg(d.value, 'white', t('dice')))}` : html`<p class="muted">${t('no_roll')}</p>`}</div>
      ${dice ? html`<p class="brought">${t('brought')}: <strong>${formatResources(broughtBy(rollEvent && rollEvent.dice && rollEvent.dice.move.index === dice.move.index ? rollEvent : null, state, session.ruleset))}</strong></p>` : ''}
      ${dice && mineTurn ? html`<p class="allowance">${t('allowance', { n: R.allowance(state, player) })}</p>` : ''}
    </section>`;
  }

  function sailBox(player) {
    const rows = player.ships.map((ship) => {
      const n = ui.sail[ship.number] || 1;
      const check = R.canSail(state, me, ship.number, n);
      const moved = (state.turn && state.turn.moved && state.turn.moved[String(ship.number)]) || 0;
      return html`<div class="sail-row"><span>${t('ship', { n: ship.number })} · ${moved}/${R.allowance(state, player)}</span>
        ${stepper(`sail.${ship.number}`, n, t('squares'), { max: 12 })}
        ${actionButton(check, `sail-${ship.number}`, t('sail'), { act: 'sail', ship: ship.number })}</div>`;
    });
    return html`<details class="card" id="sail-form" ${ui.open['sail-form'] ? html`open` : ''}><summary><h2>${t('sail')}</h2></summary>${rows}
      ${actionButton(R.canReachEdge(state, me), 'edge', t('reach_edge'), { act: 'reach_edge' })}</details>`;
  }

  function questBox(player) {
    const rs = session.ruleset;
    const quests = player.quests || [];
    return html`<section class="card" aria-labelledby="quests-h"><h2 id="quests-h">${t('quests')} <span class="tag">${t(player.level)}</span></h2>
      <p class="levels">${R.levels(rs).map((l) => html`<span class="level level-${l}">${t(l)} ${player.completed[l] || 0}/${questsPerLevel()}</span>`)}</p>
      ${quests.length ? html`<ul class="quests">${quests.map((q) => {
        const progress = R.questProgress(q, player);
        return html`<li class="quest level-${q.level}"><h3>${tx(q.title)} <span class="tag">${t(q.level)}</span></h3>
          <p>${tx(q.text)}</p>
          <ol class="reqs" aria-label="${t('requirements')}">${progress.steps.map((s) => {
            const entry = Array.isArray(q.progress) ? q.progress[s.index] || {} : {};
            let control = '';
            if (s.manual && !s.done) {
              const loaded = entry.ship;
              const ship = ui.cargoShip[q.id] || player.ships[0].number;
              const stepCheck = R.canQuestStep(state, me, q, s.index, loaded || ship);
              const label = s.kind === 'cargo' ? (loaded ? t('step_deliver', { n: loaded }) : t('step_load', { n: ship })) : t('step_done');
              control = actionButton(stepCheck, `step-${q.id}-${s.index}`, label, { act: 'quest_step', quest: q.id, index: s.index, ship: loaded || ship }, 'small');
            }
            return html`<li class="${s.done ? 'done' : ''}"><span class="tick" aria-hidden="true">${s.done ? '✓' : '○'}</span> ${requirementText(s.requirement)}${s.done ? html`<span class="sr-only"> (${t('done')})</span>` : ''} ${control}</li>`;
          })}</ol>
          <p class="muted">${t('progress')}: ${progress.done}/${progress.total}</p>
          ${actionButton(R.canCompleteQuest(state, me, q), `complete-${q.id}`, t('complete'), { act: 'complete_quest', quest: q.id }, 'primary')}
        </li>`;
      })}</ul>` : html`<p class="muted">${t('no_quests')}</p>`}
      <h3>${t('buy_quests')}</h3>
      ${buttonGroup(R.levels(rs).map((l) => ({ check: R.canBuyQuest(state, rs, me, l), id: `buy-${l}`, label: t(l), data: { act: 'buy_quest', level: l } })))}
    </section>`;
  }

  function questsPerLevel() {
    return (state.options || session.ruleset.options).quests_per_level; // S6: the game's option
  }

  function offerLine(o) {
    const from = R.playerById(state, o.from);
    const to = R.playerById(state, o.to);
    return html`<span>${from ? from.name : '?'} → ${to ? to.name : '?'}: ${t('give')} ${formatResources(o.give)} · ${t('get')} ${formatResources(o.get)}</span>`;
  }

  function tradeBox(player) {
    const rs = session.ruleset;
    const incoming = state.offers.filter((o) => o.to === me);
    const outgoing = state.offers.filter((o) => o.from === me);
    const others = state.players.filter((p) => p.id !== me);
    const ids = resourcesOf(player);
    const allIds = R.resourceIds(rs, state).filter((id) => ids.includes(id) || others.some((p) => p.land_resource === id));
    if (!ui.offer.to && others.length) ui.offer.to = (state.turn && state.turn.player !== me) ? state.turn.player : others[0].id;
    const offerCheck = R.canOffer(state, rs, me, ui.offer.to, ui.offer.give, ui.offer.get);
    const marketCheck = R.canMarket(state, rs, me, ui.market.give, ui.market.get);
    const bankCheck = R.canBank(state, rs, me, ui.bank.give, ui.bank.get);
    const select = (id, value, options) => html`<select id="${id}" data-field="${id}">${options.map((o) => html`<option value="${o}" ${o === value ? html`selected` : ''}>${resName(o)}</option>`)}</select>`;
    if (!ui.market.give) { ui.market.give = ids[0]; ui.market.get = ids[1]; }
    if (!ui.bank.get) ui.bank.get = ids[0];
    return html`<section class="card" aria-labelledby="trade-h"><h2 id="trade-h">${t('trade')}</h2>
      <h3>${t('offers_in')}</h3>
      ${incoming.length ? html`<ul class="offers">${incoming.map((o) => html`<li class="offer">${offerLine(o)}
        <div class="row">${actionButton(R.canAccept(state, rs, me, o), `accept-${o.id}`, t('accept'), { act: 'accept', offer: o.id }, 'primary')}
        <button type="button" data-act="decline" data-offer="${o.id}" id="decline-${o.id}">${t('decline')}</button></div></li>`)}</ul>` : html`<p class="muted">${t('no_offers')}</p>`}
      <h3>${t('offers_out')}</h3>
      ${outgoing.length ? html`<ul class="offers">${outgoing.map((o) => html`<li class="offer">${offerLine(o)}
        <button type="button" data-act="withdraw" data-offer="${o.id}" id="withdraw-${o.id}">${t('withdraw')}</button></li>`)}</ul>` : html`<p class="muted">${t('no_offers')}</p>`}
      <details id="offer-form" ${ui.open['offer-form'] ? html`open` : ''}><summary>${t('make_offer')}</summary>
        <label>${t('offer_to')} <select id="offer-to" data-field="offer-to">${others.map((p) => html`<option value="${p.id}" ${p.id === ui.offer.to ? html`selected` : ''}>${p.name}</option>`)}</select></label>
        <div class="two-col"><div><h4>${t('give')}</h4>${ids.map((id) => stepper(`offer.give.${id}`, ui.offer.give[id] || 0, resName(id), { max: player.resources[id] || 0 }))}</div>
        <div><h4>${t('get')}</h4>${allIds.map((id) => stepper(`offer.get.${id}`, ui.offer.get[id] || 0, resName(id)))}</div></div>
        ${actionButton(offerCheck, 'offer-send', t('make_offer'), { act: 'offer' }, 'primary')}
      </details>
      <details ${ui.open['market-form'] ? html`open` : ''} id="market-form"><summary>${t('market')}</summary>
        <div class="row"><label>${t('give')} ${R.marketRate(state, rs)}× ${select('market-give', ui.market.give, ids)}</label>
        <label>${t('get')} 1× ${select('market-get', ui.market.get, allIds)}</label></div>
        ${actionButton(marketCheck, 'market-send', t('exchange'), { act: 'market' })}
      </details>
      <details ${ui.open['bank-form'] ? html`open` : ''} id="bank-form"><summary>${t('bank')}</summary>
        ${ids.map((id) => stepper(`bank.give.${id}`, ui.bank.give[id] || 0, resName(id), { max: player.resources[id] || 0 }))}
        <label>${t('get')} 1× ${select('bank-get', ui.bank.get, allIds)}</label>
        ${actionButton(bankCheck, 'bank-send', t('exchange'), { act: 'bank' })}
      </details>
    </section>`;
  }

  function combatBox(player) {
    const rs = session.ruleset;
    const combat = state.combat;
    if (!combat) {
      const others = state.players.filter((p) => p.id !== me);
      if (!ui.attack.target && others.length) ui.attack.target = others[0].id;
      const target = R.playerById(state, ui.attack.target);
      const check = R.canAttack(state, rs, me, ui.attack.ship, ui.attack.target, ui.attack.target_ship);
      return html`<details class="card" id="attack-form" ${ui.open['attack-form'] ? html`open` : ''}><summary><h2>${t('attack')}</h2></summary>
        <label>${t('your_ship')} <select id="attack-ship" data-field="attack-ship">${player.ships.map((s) => html`<option value="${s.number}" ${s.number === ui.attack.ship ? html`selected` : ''}>${t('ship', { n: s.number })}</option>`)}</select></label>
        <label>${t('target')} <select id="attack-target" data-field="attack-target">${others.map((p) => html`<option value="${p.id}" ${p.id === ui.attack.target ? html`selected` : ''}>${p.name}</option>`)}</select></label>
        <label>${t('ship', { n: '' })} <select id="attack-target-ship" data-field="attack-target-ship">${(target ? target.ships : []).map((s) => html`<option value="${s.number}" ${s.number === ui.attack.target_ship ? html`selected` : ''}>${t('ship', { n: s.number })}</option>`)}</select></label>
        ${actionButton(check, 'attack-send', t('attack'), { act: 'attack' }, 'danger')}
      </details>`;
    }
    const a = R.playerById(state, combat.attacker.player);
    const d = R.playerById(state, combat.defender.player);
    const side = R.combatSide(state, me);
    const info = R.salvage(state);
    let stageControls = '';
    if (combat.stage === 'salvage' && info.sunkPlayer === me) {
      const n = R.keepCount(state, rs, player);
      stageControls = html`<p>${t('keep_half', { n })}</p>${resourcesOf(player).filter((id) => player.resources[id] > 0).map((id) => stepper(`keep.${id}`, ui.keep[id] || 0, resName(id), { max: player.resources[id] || 0 }))}
        ${actionButton(R.canKeep(state, rs, me, ui.keep), 'keep-send', t('keep'), { act: 'keep' }, 'primary')}`;
    } else if (combat.stage === 'fishing' && info.winner === me) {
      const n = R.fishCount(state, rs);
      const water = info.water || {};
      stageControls = html`<p>${t('fish_n', { n })}</p>${Object.keys(water).filter((id) => water[id] > 0).map((id) => stepper(`fish.${id}`, ui.fish[id] || 0, resName(id), { max: water[id] }))}
        ${actionButton(R.canFish(state, rs, me, ui.fish), 'fish-send', t('fish'), { act: 'fish' }, 'primary')}`;
    } else if (side && (combat.stage === 'firing' || combat.stage === 'surrender_offered')) {
      // C6, C8: the shooter fires; the side that did not offer to surrender may accept it
      const offered = combat.stage === 'surrender_offered' ? combat.surrendering : null;
      stageControls = html`<div class="combat-actions">
        ${combat.shooter === me ? actionButton(R.canFire(state, me), 'fire', t('fire'), { act: 'fire' }, 'danger huge') : ''}
        ${offered && offered !== me ? actionButton(R.canAcceptSurrender(state, me), 'accept-surrender', t('accept_surrender'), { act: 'accept_surrender' }, 'primary') : ''}
        ${offered ? '' : actionButton(R.canSurrender(state, me, rs), 'surrender', t('surrender'), { act: 'surrender' })}</div>`;
    }
    const surrendering = combat.stage === 'surrender_offered' && R.playerById(state, combat.surrendering);
    return html`<section class="card combat" aria-labelledby="combat-h" aria-live="polite"><h2 id="combat-h">${t('combat')}</h2>
      <p class="versus">${swatch(session.ruleset, a.character, false)} <strong>${a.name}</strong> (${t('ship', { n: combat.attacker.ship })}) ${t('vs')} ${swatch(session.ruleset, d.character, false)} <strong>${d.name}</strong> (${t('ship', { n: combat.defender.ship })})</p>
      ${combat.stage === 'firing' || combat.stage === 'surrender_offered' ? html`<p class="shooter">${t('shooter', { name: (R.playerById(state, combat.shooter) || {}).name || '?' })} · <span class="to-hit">${t('needs', { n: R.toHit(state, rs) })}</span></p>` : ''}
      ${surrendering ? html`<p class="surrender-by">${t('surrender_by', { name: surrendering.name })}</p>` : ''}
      ${combat.sunk ? html`<p class="sunk">${t('sunk')} ${(R.playerById(state, combat.sunk) || {}).name || ''}</p>` : ''}
      ${shotList(combat.shots.slice(-4))}
      ${stageControls}
    </section>`;
  }

  function shotList(shots) {
    return html`<ol class="shots">${shots.map((s) => {
      const shooter = R.playerById(state, s.shooter && s.shooter.player ? s.shooter.player : s.shooter);
      return html`<li>${shotText(s, shooter ? shooter.name : '?', session.ruleset)}</li>`;
    })}</ol>`;
  }

  /** The strip's checks: the same rules as the buttons further down, so a refusal reads alike. */
  const checks = () => ({
    roll: () => R.canRoll(state, me),
    fire: () => R.canFire(state, me),
    accept: (o) => R.canAccept(state, session.ruleset, me, o),
    acceptSurrender: () => R.canAcceptSurrender(state, me),
  });

  /** The last fight's outcome while it is still this turn's news: who won and what changed hands. */
  function outcomeCard() {
    const events = session.log.all();
    const end = outcome(events, state);
    if (!outcomeIsFresh(end, events)) return '';
    return html`<section class="card outcome" aria-live="polite"><h2>${t('outcome_h')}</h2><p>${outcomeText(end, state)}</p></section>`;
  }

  function draw() {
    if (!state) return;
    const player = R.playerById(state, me);
    if (!player) { navigate(`/join/${code}`, { replace: true }); return; }
    if (state.phase === 'lobby') { navigate(`/join/${code}`, { replace: true }); return; }
    const rs = session.ruleset;
    const base = R.turnCheck(state, me);
    sharedReason = base.ok ? '' : explain(base);
    const ctx = { state, ruleset: rs, events: session.log.all() };
    const who = html`${swatch(rs, player.character, false)} <strong class="me-name">${player.name}</strong>
      ${state.phase === 'playing' ? html`<span class="muted">${t('round', { n: state.round })}</span>` : ''}`;
    const items = nowItems(state, rs, me, checks());
    const queued = new Set(session.outbox.pending.map((e) => JSON.stringify(e.action)));
    for (const b of items.flatMap((i) => i.buttons)) {
      if (b.act && queued.has(JSON.stringify(actionFor({ dataset: { act: b.act, ...b.data } })))) b.waiting = true;
    }
    render(root, html`
      ${nowStrip(who, [...tapItems(session), ...items])}
      ${feed(story(ctx.events, tellers, ctx, { limit: 4 }))}
      ${state.event ? html`<section class="event-banner" aria-label="${t('event')}"><strong>${state.event.id} · ${tx(state.event.title)}</strong><p>${tx(state.event.text)}</p></section>` : ''}
      ${state.combat ? combatBox(player) : outcomeCard()}
      ${diceBox(player)}
      <section class="card" aria-labelledby="res-h"><h2 id="res-h">${t('resources')}</h2>${resourceGrid(player)}</section>
      <section class="card" aria-labelledby="ships-h"><h2 id="ships-h">${t('ships')}</h2><div class="ships">${player.ships.map((s) => shipCard(player, s, true))}</div></section>
      ${sailBox(player)}
      ${questBox(player)}
      ${tradeBox(player)}
      ${state.combat ? '' : combatBox(player)}
      ${state.phase === 'playing' ? html`<seat-move></seat-move>` : ''}
      <div class="actionbar">${actionButton(R.canEndTurn(state, me), 'end-turn', t('end_turn'), { act: 'end_turn' }, 'primary wide')}</div>
    `);
    paintSwatches(root);
    const dice = state.turn && state.turn.dice;
    const key = dice ? `${dice.move.index}` : null;
    if (key && lastRoll !== null && key !== lastRoll) {
      animateDice(root.querySelector('#dice-row'), dice);
      vibrate([40, 30, 40, 30, 80]);
    }
    lastRoll = key;
  }

  function actionFor(el) {
    const d = el.dataset;
    switch (d.act) {
      case 'roll': return { type: 'roll' };
      case 'end_turn': return { type: 'end_turn' };
      case 'upgrade': {
        const action = { type: 'upgrade', ship: Number(d.ship), part: d.part };
        if (d.part === 'crew') action.pay_with = ui.payWith[d.ship] || R.payChoices(session.ruleset)[0];
        return action;
      }
      case 'sail': return { type: 'sail', ship: Number(d.ship), squares: ui.sail[d.ship] || 1 };
      case 'reach_edge': return { type: 'reach_edge', ship: R.playerById(state, me).ships[0].number };
      case 'buy_quest': return { type: 'buy_quest', level: d.level };
      case 'complete_quest': return { type: 'complete_quest', quest_id: d.quest };
      case 'quest_step': return { type: 'quest_step', quest_id: d.quest, step: Number(d.index), ship: Number(d.ship) };
      case 'accept': return { type: 'accept', offer_id: d.offer };
      case 'decline': return { type: 'decline', offer_id: d.offer };
      case 'withdraw': return { type: 'withdraw', offer_id: d.offer };
      case 'offer': return { type: 'offer', to: ui.offer.to, give: nonZero(ui.offer.give), get: nonZero(ui.offer.get) };
      case 'market': return { type: 'market', give: ui.market.give, get: ui.market.get };
      case 'bank': return { type: 'bank', give: nonZero(ui.bank.give), get: ui.bank.get };
      case 'attack': return { type: 'attack', ship: Number(ui.attack.ship), target: ui.attack.target, target_ship: Number(ui.attack.target_ship) };
      case 'fire': return { type: 'fire' };
      case 'surrender': return { type: 'surrender' };
      case 'accept_surrender': return { type: 'accept_surrender' };
      case 'keep': return { type: 'keep', resources: nonZero(ui.keep) };
      case 'fish': return { type: 'fish', resources: nonZero(ui.fish) };
      default: return null;
    }
  }

  async function onClick(event) {
    if (stripClick(event, session)) return;
    const summary = event.target.closest('details > summary');
    if (summary && summary.parentElement.id) {
      // remember it now: an update may redraw the page before the toggle event fires
      ui.open[summary.parentElement.id] = !summary.parentElement.open;
      return;
    }
    const step = event.target.closest('[data-step]');
    if (step) {
      const path = step.dataset.step.split('.');
      let obj = ui;
      for (const key of path.slice(0, -1)) obj = obj[key] ??= {};
      const last = path[path.length - 1];
      obj[last] = Math.max(0, (obj[last] || 0) + Number(step.dataset.d));
      draw();
      return;
    }
    const button = event.target.closest('[data-act]');
    if (!button || button.disabled) return;
    const action = actionFor(button);
    if (!action) return;
    button.disabled = true;
    const answer = await session.act(action, labelOf(action, button));
    if (answer) {
      if (action.type === 'offer') ui.offer = { to: ui.offer.to, give: {}, get: {} };
      if (action.type === 'bank') ui.bank.give = {};
      if (action.type === 'keep') ui.keep = {};
      if (action.type === 'fish') ui.fish = {};
    }
    draw();
  }

  /** What a tap is called in the strip while it waits, and in its answer: the button, and whose offer. */
  function labelOf(action, button) {
    const label = button.textContent.trim().replace(/\s+/g, ' ');
    const offer = action.offer_id && state.offers.find((o) => o.id === action.offer_id);
    if (!offer) return label;
    return `${label}: ${R.playerById(state, offer.from).name} → ${R.playerById(state, offer.to).name}, ${resourcesOrNothing(offer.give)} / ${resourcesOrNothing(offer.get)}`;
  }

  function onChange(event) {
    const el = event.target;
    if (el.dataset.paywith) ui.payWith[el.dataset.paywith] = el.value;
    const field = el.dataset.field;
    if (field === 'offer-to') ui.offer.to = el.value;
    if (field === 'market-give') ui.market.give = el.value;
    if (field === 'market-get') ui.market.get = el.value;
    if (field === 'bank-get') ui.bank.get = el.value;
    if (field === 'attack-ship') ui.attack.ship = Number(el.value);
    if (field === 'attack-target') { ui.attack.target = el.value; ui.attack.target_ship = 1; }
    if (field === 'attack-target-ship') ui.attack.target_ship = Number(el.value);
    draw();
  }

  const off = listen(root, { click: onClick, change: onChange });
  let first;
  try {
    first = await api.state(code, mine.player.token);
  } catch (error) {
    if (error.status === 401 || error.status === 404) {
      // The server no longer knows this token (or the game): forget it and ask again.
      saveTokens(code, { player: null });
      if (error.body.error === 'seat_moved') { navigate(`/join/${code}#seat-moved`, { replace: true }); return {}; }
      render(root, html`<section class="card"><p>${error.status === 404 ? t('unknown_game', { code }) : t('not_joined')}</p>
        <a class="button primary" data-link href="/join/${code}">${t('join')}</a></section>`);
      return {};
    }
  }
  session = await openGame(code, mine.player.token, {
    onState: (s) => { state = s; draw(); },
    onEvents: (events) => { rollEvent = lastRollIn(events) || rollEvent; },
    onChange: draw,
  });
  if (first) session.live.apply(first.version, first, []);
  return {
    refresh: draw,
    unmount() { off(); session.close(); },
  };
}

function nonZero(map) {
  const out = {};
  for (const [k, v] of Object.entries(map || {})) if (v > 0) out[k] = v;
  return out;
}

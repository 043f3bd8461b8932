// The phone's rule checks (pwa/js/logic/*.js), run in Node for the differential test: one JSON line in,
// one JSON line out, thousands of cases per process.
//
// A case line: {game, view, ruleset, me, action, dice?} → {ok, rule, kind, words, numbers}. `ok` is
// the phone's "allowed"; a refusal names its `rule` (rules.json), or says `kind` "forbidden" (the
// server's 403) or "conflict" (409), and `words` are what the player reads under the button. `numbers` are what the phone shows besides (a price, a to-hit number), for
// the test to hold against what the server then did. `view` and `ruleset` may be the name of a value
// sent before on a definition line {define: name, value}, which gets no answer; so a view that many
// cases share crosses the pipe once.
import { createInterface } from 'node:readline';

const logic = '../../pwa/js/logic';

const F = await import(`${logic}/format.js`);
await import('../../pwa/js/views/serenissima/strings.js');
await import('../../pwa/js/views/voyagers/strings.js');
const R = await import(`${logic}/quest1607.js`);
const S = await import(`${logic}/serenissima.js`);
const V = await import(`${logic}/voyagers.js`);

/** What the phone shows besides the answer, by game and action type. */
const NUMBERS = {
  quest1607: {
    fire: (view, rs) => ({ needed: R.toHit(view, rs) }),
    upgrade: (view, rs, me, a) => ({ cost: R.costOf(rs, a.part, a.pay_with, view, R.playerById(view, me).resources) }),
    buy_quest: (view, rs, me) => ({ cost: R.costOf(rs, 'quest', null, view, R.playerById(view, me).resources) }),
    market: (view, rs) => ({ rate: R.marketRate(view, rs) }),
    keep: (view, rs, me) => ({ keep: R.keepCount(view, rs, R.playerById(view, me)) }),
    fish: (view, rs) => ({ fish: R.fishCount(view, rs) }),
  },
  serenissima: {
    buy: (view, rs, me, a) => ({ price: S.priceAt(view, rs, me, a.port) }),
  },
  voyagers: {},
};

const CHECKS = { quest1607: R.checkAction, serenissima: S.checkAction, voyagers: V.checkAction };

const named = new Map();
const value = (v) => (typeof v === 'string' ? named.get(v) : v);

function answer(line) {
  const { game, me, action, dice } = line;
  const view = value(line.view);
  const ruleset = value(line.ruleset);
  const check = CHECKS[game](view, ruleset, me, action, { dice: Boolean(dice) });
  if (!check) return { error: `no check for ${game} ${action.type}` };
  const kind = check.forbidden ? 'forbidden' : check.conflict ? 'conflict' : null;
  const out = { ok: check.ok, rule: check.ok ? null : check.rule, kind };
  if (!check.ok) out.words = F.explain(check);
  const numbers = check.ok && NUMBERS[game][action.type];
  if (numbers) out.numbers = numbers(view, ruleset, me, action);
  return out;
}

const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
const out = [];
for await (const text of lines) {
  if (!text) continue;
  const line = JSON.parse(text);
  if ('define' in line) { named.set(line.define, line.value); continue; }
  let reply;
  try { reply = answer(line); } catch (error) { reply = { error: String(error && error.stack || error) }; }
  out.push(JSON.stringify(reply));
  if (out.length >= 512 || line.flush) { process.stdout.write(`${out.join('\n')}\n`); out.length = 0; }
}
if (out.length) process.stdout.write(`${out.join('\n')}\n`);

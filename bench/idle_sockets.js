'use strict';
// Idle sockets on one Shipmate process: memory per socket, and the latency of a live table beside
// them. Run by bench/sockets.py (NODE_PATH gives it the peers' `ws` package); prints one JSON line
// per step on stdout.
//
// argv: base URL, worker pid, then the idle-socket counts to reach, ascending (e.g. 0 500 1000).
// Idle sockets are public-view sockets spread over idle games, SOCKETS_PER_GAME each; they read
// and answer protocol pings like a phone, and never send anything. At each step a probe table (4
// players and a screen, like the table-sync bench) plays PROBE_ACTIONS actions over the players'
// sockets: latency is send -> the 5th socket holding the new version.

const http = require('http');
const fs = require('fs');
const WebSocket = require('ws');

const [base, workerPid, ...stepArgs] = process.argv.slice(2);
const STEPS = stepArgs.map(Number);
const SOCKETS_PER_GAME = Number(process.env.SOCKETS_PER_GAME || 50);
const PROBE_ACTIONS = Number(process.env.PROBE_ACTIONS || 200);
const OPEN_CONCURRENCY = Number(process.env.OPEN_CONCURRENCY || 50);
// Seconds each step holds its sockets before the probe: past 25 s every socket has had its
// keep-alive pings (protocol and application), so their cost is in the probe's latency.
const HOLD_S = Number(process.env.HOLD_S || 2);
const url = new URL(base);
const agent = new http.Agent({ keepAlive: true });

function request(method, path, body, token) {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? null : Buffer.from(JSON.stringify(body));
    const headers = { accept: 'application/json' };
    if (payload) Object.assign(headers, { 'content-type': 'application/json', 'content-length': payload.length });
    if (token) headers.authorization = `Bearer ${token}`;
    const req = http.request({ host: url.hostname, port: url.port, method, path, headers, agent }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode, body: JSON.parse(Buffer.concat(chunks).toString() || 'null') }));
    });
    req.on('error', reject);
    if (payload) req.write(payload);
    req.end();
  });
}

async function newGame(players) {
  const created = (await request('POST', '/api/games', { game: 'quest1607', options: { quests_per_level: 1 } })).body;
  const path = `/api/games/${created.code}`;
  const ruleset = (await request('GET', `${path}/ruleset`)).body;
  const tokens = [];
  for (let i = 0; i < players; i++) {
    tokens.push((await request('POST', `${path}/players`, { name: `p${i}`, character: ruleset.characters[i].id })).body);
  }
  let seating = [];
  if (players) {
    const started = await request('POST', `${path}/actions`, { type: 'start' }, created.host_token);
    seating = started.body.state.players.map((p) => tokens.find((t) => t.player_id === p.id).token);
  }
  return { code: created.code, seating };
}

function open(code, token, onFrame) {
  return new Promise((resolve, reject) => {
    const q = token ? `?token=${token}` : '';
    const ws = new WebSocket(`ws://${url.host}/ws/games/${code}${q}`, { perMessageDeflate: false });
    let first = true;
    ws.on('message', (data) => {
      const msg = JSON.parse(data.toString());
      if (first && msg.type === 'snapshot') {
        first = false;
        resolve(ws);
      }
      if (onFrame) onFrame(msg);
    });
    ws.on('error', reject);
    ws.on('close', (code) => { if (first) reject(new Error(`closed ${code} before the snapshot`)); });
  });
}

function rssMb(pid) {
  const m = /VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(m[1]) / 1024;
}

function pct(sorted, p) {
  if (!sorted.length) return null;
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)];
}

async function probe() {
  const game = await newGame(4);
  const conns = [];
  const waiters = [];
  const onFrame = (i) => (msg) => {
    if (msg.type === 'snapshot' || msg.type === 'update') {
      conns[i].version = msg.version;
      conns[i].state = msg.state;
      for (const w of waiters.splice(0)) w();
    } else if (msg.type === 'result' && conns[i].result) {
      conns[i].result(msg);
    }
  };
  for (let i = 0; i < 5; i++) {
    conns.push({ version: -1 });
    conns[i].ws = await open(game.code, i < 4 ? game.seating[i] : null, onFrame(i));
  }
  const allAt = (v) => new Promise((resolve) => {
    const check = () => (conns.every((c) => c.version >= v) ? resolve() : waiters.push(check));
    check();
  });
  const samples = [];
  let n = 0;
  for (let a = 0; a < PROBE_ACTIONS; a++) {
    const st = conns[4].state;
    const seat = st.players.findIndex((p) => p.id === st.turn.player);
    const action = st.turn.rolled ? { type: 'end_turn' } : { type: 'roll' };
    const v = conns[4].version + 1;
    const t0 = performance.now();
    const result = new Promise((resolve) => { conns[seat].result = resolve; });
    conns[seat].ws.send(JSON.stringify({ type: 'action', id: `a${n++}`, action }));
    const answer = await result;
    if (answer.status !== 200) throw new Error(`probe action refused: ${JSON.stringify(answer)}`);
    await allAt(v);
    samples.push(performance.now() - t0);
  }
  for (const c of conns) c.ws.close();
  samples.sort((x, y) => x - y);
  return { p50: pct(samples, 50), p99: pct(samples, 99), max: samples[samples.length - 1] };
}

async function main() {
  const idle = [];
  const games = [];
  for (const target of STEPS) {
    const t0 = performance.now();
    while (idle.length < target) {
      const batch = [];
      for (let k = 0; k < OPEN_CONCURRENCY && idle.length + batch.length < target; k++) {
        const index = idle.length + batch.length;
        if (index % SOCKETS_PER_GAME === 0 && games.length <= index / SOCKETS_PER_GAME) {
          games.push(newGame(0));
        }
        const game = games[Math.floor(index / SOCKETS_PER_GAME)];
        batch.push(game.then((g) => open(g.code, null, null)));
      }
      idle.push(...(await Promise.all(batch)));
    }
    const opened = (performance.now() - t0) / 1000;
    await new Promise((r) => setTimeout(r, HOLD_S * 1000));
    const rss = rssMb(workerPid);
    const latency = await probe();
    const alive = idle.filter((ws) => ws.readyState === WebSocket.OPEN).length;
    console.log(JSON.stringify({ idle_sockets: target, alive, open_s: Number(opened.toFixed(1)), worker_rss_mb: Number(rss.toFixed(1)),
      probe_ms: Object.fromEntries(Object.entries(latency).map(([k, v]) => [k, Number(v.toFixed(2))])) }));
  }
  for (const ws of idle) ws.terminate();
  agent.destroy();
}

main().then(() => process.exit(0), (e) => { console.error(e); process.exit(1); });

// The play page (docs/play.md): draws the game with the replay viewer's code (board.js), shows the
// legal actions of the person's decision as a menu built from the mask, highlights the cells and
// pieces the chosen action allows, and sends one action index at a time. The server checks every
// message; the page only ever offers what the server listed as legal.
"use strict";
const $ = id => document.getElementById(id);
const cv = $("board"), ctx = cv.getContext("2d");
let ws = null, G = null, BD = null, CELL = 24, frame = null, decision = null;
let chosenKind = null, selected = null, options = [], queue = [], busy = false, waiting = false;
// what the browser tests read (tests/play/test_play_browser.py)
// and benchmarks/play_latency.py --browser: ms from each action sent to the opponent's first answer
window.playState = {id: null, steps: 0, done: false, decision: null, legal: 0, errors: 0, received: 0, answers: []};
let sentAt = null;

function esc(s) { return String(s).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/"/g, "&quot;"); }
function say(text, isError) { const m = $("message"); m.textContent = text; m.className = isError ? "error" : ""; }
function send(obj) { ws.send(JSON.stringify(obj)); }

function connect() {
  ws = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws`);
  ws.onopen = () => {
    const id = new URLSearchParams(location.search).get("game");
    send(id ? {type: "resume", id} : {type: "new"});
  };
  ws.onmessage = ev => receive(JSON.parse(ev.data));
  ws.onclose = () => say("disconnected from the server: reload the page to resume this game", true);
}

function receive(m) {
  window.playState.received++;
  if (sentAt !== null && m.type === "step" && (!m.human || m.decision || m.done)) {
    window.playState.answers.push(performance.now() - sentAt); sentAt = null;
  }
  if (m.type === "game") start(m);
  else if (m.type === "step") { queue.push(m); pump(); }
  else if (m.type === "error") { window.playState.errors++; waiting = false; say(m.message, true); renderMenu(); }
  else if (m.type === "saved") say(`saved: resume at ${location.origin}${m.resume}`, false);
}

function start(m) {
  G = m; queue = []; busy = false; waiting = false;
  const B = m.view.board;
  CELL = Math.max(12, Math.min(30, Math.floor(720 / Math.max(B.width, B.height))));
  cv.width = B.width * CELL; cv.height = B.height * CELL;
  BD = makeBoard(ctx, m.view, CELL);
  history.replaceState(null, "", `?game=${m.id}`);
  $("title").textContent = `${m.game}: you play ${m.view.gangs[m.side]} against ${m.opponent} (seed ${m.seed})`;
  $("gameid").textContent = `game ${m.id} (resume: ${location.origin}/?game=${m.id})`;
  $("download").href = `/games/${m.id}/replay.jsonl`;
  $("viewer").href = `/games/${m.id}/viewer.html`;
  $("log").innerHTML = "";
  for (const h of m.history) if (h.label !== undefined) logLine(h.by, h.label, h.by === m.side); else logText(h.text);
  window.playState.id = m.id;
  show(m, true);
}

// Opponent moves arrive one by one; each is shown for the chosen time before the next.
function pump() {
  if (busy || !queue.length) return;
  const m = queue.shift();
  show(m);
  const delay = m.human ? 0 : +$("speed").value;
  if (delay > 0 && queue.length) { busy = true; setTimeout(() => { busy = false; pump(); }, delay); }
  else pump();
}

function show(m, fromHistory) {
  frame = m.frame; decision = queue.length ? null : m.decision; waiting = false;
  chosenKind = null; selected = null; options = [];
  if (!fromHistory) {  // a game's first message brings the whole log so far as its history
    if (m.label !== null && m.label !== undefined) logLine(m.by, m.label, m.human);
    for (const line of frame.log) logText(line);
  }
  draw(); renderScore(m.score); renderMenu();
  $("cards").innerHTML = BD.cardsHtml(frame);
  Object.assign(window.playState, {steps: m.steps, done: m.done, decision: decision ? decision.name : null,
                                   legal: decision ? decision.legal.length : 0});
  $("result").textContent = m.done ? `game over: ${m.result}` : "";
  if (m.done) say("the game is over: download its replay or open it in the viewer", false);
}

function logLine(by, label, human) {
  const div = document.createElement("div");
  div.className = human ? "me" : "them";
  div.textContent = `${human ? "you" : G.view.gangs[by]}: ${label}`;
  $("log").appendChild(div); $("log").scrollTop = $("log").scrollHeight;
}
function logText(text) {
  const div = document.createElement("div"); div.textContent = text;
  $("log").appendChild(div); $("log").scrollTop = $("log").scrollHeight;
}

function renderScore(s) {
  let html = `round ${s.round}${s.round_limit ? ` of ${s.round_limit}` : ""}`;
  s.sides.forEach((side, i) => {
    html += `<div class="side" style="border-left-color:${G.view.colours[i % G.view.colours.length]}">` +
      `${esc(side.name)}${side.house ? ` (${esc(side.house)})` : ""}${i === G.side ? " — you" : ""}: ` +
      `${side.left}/${side.total} models left${side.score !== null ? `, ${esc(side.score)} points` : ""}</div>`;
  });
  $("score").innerHTML = html;
  $("status").textContent = decision ? `your decision: ${decision.name}` : (frame && G ? frame.status : "");
}

// The menu: one button per action kind with legal actions, then the chosen kind's options; the kinds
// with none legal are greyed, and hovering one shows the engine's reason.
function renderMenu() {
  const menu = $("menu"), opts = $("options"), off = $("notnow");
  menu.innerHTML = ""; opts.innerHTML = ""; off.innerHTML = "";
  $("decision").textContent = decision ? `Your decision: ${decision.name}` : (G && !window.playState.done ? "the opponent is playing…" : "\u00a0");
  window.playState.cells = options.filter(a => a.cell).map(a => a.cell);
  if (!decision || waiting) return;
  for (const k of decision.kinds) {
    if (k.legal) {
      const b = document.createElement("button");
      b.className = "kind" + (k.name === chosenKind ? " chosen" : ""); b.dataset.kind = k.name;
      b.textContent = `${k.name} (${k.legal})`; b.onclick = () => chooseKind(k.name);
      menu.appendChild(b);
    } else {
      const s = document.createElement("span");
      s.className = "off"; s.dataset.kind = k.name; s.title = k.why; s.textContent = k.name;
      s.onclick = () => say(`${k.name} is not possible now: ${k.why}`, true);
      off.appendChild(s);
    }
  }
  for (const a of options) {
    const b = document.createElement("button");
    b.className = "opt"; b.dataset.action = a.i; b.textContent = a.label; b.onclick = () => act(a.i);
    opts.appendChild(b);
  }
}

function chooseKind(name) {
  chosenKind = name;
  options = decision.legal.filter(a => a.kind === name && (selected === null || a.piece === selected || a.target === selected));
  if (!options.length) options = decision.legal.filter(a => a.kind === name);
  if (options.length === 1) { act(options[0].i); return; }
  say(`${name}: click a highlighted cell or piece, or pick from the list`, false);
  draw(); renderMenu();
}

function act(i) {
  if (!decision || waiting) return;
  waiting = true; sentAt = performance.now(); send({type: "act", id: G.id, action: i});
  say("", false); renderMenu();
}

// Two pieces are the same when they are, or when both are models of one unit (a game whose view gives
// each piece its "unit", as Firefight's does: clicking any model of a unit picks the unit).
function same(p, f) {
  if (p === null || p === undefined) return false;
  const a = G.view.fighters[p], b = G.view.fighters[f];
  return p === f || (a !== undefined && b !== undefined && a.unit !== undefined && a.unit === b.unit);
}

function pieceAt(x, y) {
  if (!frame) return null;
  const f = frame.fi.findIndex(r => r[6] === 1 && r[0] === x && r[1] === y);
  return f >= 0 ? f : null;
}

// A click on the board: with an action chosen, the option at that cell or piece; otherwise a piece
// is selected and its own actions listed. A click that matches nothing legal changes nothing.
cv.addEventListener("click", ev => {
  if (!decision || waiting) return;
  const r = cv.getBoundingClientRect();
  const x = Math.floor((ev.clientX - r.left) / CELL), y = Math.floor((ev.clientY - r.top) / CELL);
  const f = pieceAt(x, y);
  const pool = chosenKind ? options : decision.legal;
  const hits = pool.filter(a => (a.cell && a.cell[0] === x && a.cell[1] === y) || (f !== null && (chosenKind ? same(a.target, f) : same(a.piece, f) || same(a.target, f))));
  if (!hits.length) {
    const what = f !== null ? G.view.fighters[f].name : `cell (${x},${y})`;
    say(`${what}: no legal ${chosenKind || "action"} there now`, true);
    return;
  }
  if (hits.length === 1) { act(hits[0].i); return; }
  if (!chosenKind && f !== null) selected = f;
  options = hits; draw(); renderMenu();
  say(`${hits.length} choices: pick one from the list`, false);
});

function draw() {
  if (!BD || !frame) return;
  ctx.clearRect(0, 0, cv.width, cv.height);
  BD.drawBoard(frame); BD.drawMarks(frame); BD.drawFighters(frame);
  const live = chosenKind || selected !== null ? options : [];
  ctx.fillStyle = "rgba(60, 220, 90, 0.38)";
  for (const a of live) if (a.cell) ctx.fillRect(a.cell[0] * CELL + 1, a.cell[1] * CELL + 1, CELL - 2, CELL - 2);
  ctx.strokeStyle = "#3cdc5a"; ctx.lineWidth = 3;
  for (const a of live) if (a.target !== null && frame.fi[a.target]) {
    const [x, y] = frame.fi[a.target];
    ctx.beginPath(); ctx.arc(BD.cx(x), BD.cx(y), CELL * 0.5, 0, 7); ctx.stroke();
  }
  if (selected !== null && frame.fi[selected]) {
    const [x, y] = frame.fi[selected];
    ctx.strokeStyle = "#ffd866"; ctx.beginPath(); ctx.arc(BD.cx(x), BD.cx(y), CELL * 0.55, 0, 7); ctx.stroke();
  }
}

window.cellCentre = (x, y) => ({x: x * CELL + CELL / 2, y: y * CELL + CELL / 2});  // for the tests' clicks
$("new").onclick = () => { history.replaceState(null, "", "/"); send({type: "new"}); };
$("save").onclick = () => { if (G) send({type: "save", id: G.id}); };
connect();

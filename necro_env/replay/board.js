// The board and piece drawing shared by the replay viewer (viewer.html) and the play page
// (necro_env/play/static/play.html): one copy, so both draw a game alike (moved here on 2026-12-02).
// makeBoard(ctx, D, CELL) returns the drawing functions for the data D (board, fighters, colours,
// conditions: a ruleset's view, e.g. necro_env/rulesets/necromunda/frames.py) on a 2-D canvas context with
// CELL pixels a cell.
"use strict";
function makeBoard(ctx, D, CELL) {
const B = D.board;
const FDX = [0, 1, 1, 1, 0, -1, -1, -1], FDY = [-1, -1, 0, 1, 1, 1, 0, -1];
const DOOR_COL = ["#785028", "#46aa5a", "#c82828", "#828282"];
const MARK_COL = {move: "#ffffff", fire: "#ffdc00", fire_wound: "#ff2828", melee: "#ff8c00"};
const POSTURE = ["standing", "pinned", "seriously injured"], STATE = ["-", "on board", "out of action", "fled"];

function cx(x) { return x * CELL + CELL / 2; }
function drawBoard(fr) {
  const maxH = B.heights ? Math.max(1, ...B.heights.flat()) : 1;
  for (let y = 0; y < B.height; y++) for (let x = 0; x < B.width; x++) {
    const t = B.terrain[y][x];
    if (t === "#") { ctx.fillStyle = "#343840"; ctx.fillRect(x * CELL, y * CELL, CELL, CELL); continue; }
    let col = "#cec8ba";
    if (B.heights && B.heights[y][x]) { const k = 0.45 * B.heights[y][x] / maxH; col = `rgb(${206 + (49 * k) | 0},${200 + (55 * k) | 0},${186 + (69 * k) | 0})`; }
    ctx.fillStyle = col; ctx.fillRect(x * CELL, y * CELL, CELL, CELL);
    ctx.strokeStyle = "#beb8aa"; ctx.lineWidth = 1; ctx.strokeRect(x * CELL + 0.5, y * CELL + 0.5, CELL - 1, CELL - 1);
    if (t === "o") { ctx.fillStyle = "#8b653c"; ctx.fillRect(x * CELL + CELL * 0.12, y * CELL + CELL * 0.12, CELL * 0.76, CELL * 0.76); }
    if (B.features && B.features[y][x]) { ctx.fillStyle = "#3c3ca0"; ctx.font = `${CELL * 0.4 | 0}px sans-serif`; ctx.textAlign = "right"; ctx.textBaseline = "top"; ctx.fillText(B.features[y][x], (x + 1) * CELL - 1, y * CELL); }
    if (B.heights && B.heights[y][x]) { ctx.fillStyle = "#5a5a5a"; ctx.font = `${CELL * 0.4 | 0}px sans-serif`; ctx.textAlign = "left"; ctx.textBaseline = "top"; ctx.fillText(B.heights[y][x], x * CELL + 1, y * CELL); }
  }
  ctx.setLineDash([4, 4]); ctx.strokeStyle = "#9650c8"; ctx.lineWidth = 2;
  for (const [x0, y0, x1, y1] of B.ducts) { ctx.beginPath(); ctx.moveTo(cx(x0), cx(y0)); ctx.lineTo(cx(x1), cx(y1)); ctx.stroke(); }
  ctx.setLineDash([]); ctx.lineWidth = Math.max(2, CELL / 8);
  for (const [x0, y0, x1, y1] of B.ducts) for (const [x, y] of [[x0, y0], [x1, y1]]) { ctx.beginPath(); ctx.arc(cx(x), cx(y), CELL * 0.35, 0, 7); ctx.stroke(); }
  for (const [x, y] of B.terminals) { ctx.fillStyle = "#28bed2"; ctx.fillRect(x * CELL + CELL / 4, y * CELL + CELL / 4, CELL / 2, CELL / 2); }
  B.doors.forEach(([x, y], i) => {
    const st = fr.doors[i] || 0, col = DOOR_COL[st] || DOOR_COL[0];
    const horiz = x > 0 && x < B.width - 1 && B.terrain[y][x - 1] === "#" && B.terrain[y][x + 1] === "#";
    const t = Math.max(3, CELL / 4);
    ctx.fillStyle = col; ctx.strokeStyle = col;
    if (st === 0 || st === 2) { if (horiz) ctx.fillRect(x * CELL, cx(y) - t / 2, CELL, t); else ctx.fillRect(cx(x) - t / 2, y * CELL, t, CELL); }
    else if (st === 1) { ctx.lineWidth = 2; ctx.strokeRect(x * CELL + 1, y * CELL + 1, CELL - 2, CELL - 2); }
    else { for (let k = 0; k < 3; k++) { ctx.beginPath(); ctx.arc(x * CELL + (k + 1) * CELL / 4, y * CELL + ((k * 7) % 3 + 1) * CELL / 4, 2, 0, 7); ctx.fill(); } }
  });
  for (const [x, y, st] of fr.caskets) {
    if (st === 1) { ctx.fillStyle = "#e1b41e"; ctx.fillRect(x * CELL + CELL * 0.22, y * CELL + CELL * 0.22, CELL * 0.56, CELL * 0.56); }
    else if (st === 2) { ctx.strokeStyle = "#e1b41e"; ctx.lineWidth = 2; ctx.strokeRect(x * CELL + CELL * 0.22, y * CELL + CELL * 0.22, CELL * 0.56, CELL * 0.56); }
  }
  for (const [kind, x, y, rad, col] of (fr.markers || [])) {  // board markers (smoke clouds, ...)
    ctx.beginPath(); ctx.arc(cx(x), cx(y), rad * CELL, 0, 7);
    ctx.globalAlpha = 0.35; ctx.fillStyle = col; ctx.fill(); ctx.globalAlpha = 1;
    ctx.strokeStyle = col; ctx.lineWidth = Math.max(2, CELL / 8); ctx.stroke();
  }
}
function arrow(x0, y0, x1, y1, col) {
  const ax = cx(x0), ay = cx(y0), bx = cx(x1), by = cx(y1), a = Math.atan2(by - ay, bx - ax), L = 10;
  ctx.strokeStyle = col; ctx.lineWidth = Math.max(2, CELL / 8);
  ctx.beginPath(); ctx.moveTo(ax, ay); ctx.lineTo(bx, by);
  ctx.moveTo(bx, by); ctx.lineTo(bx - L * Math.cos(a - 0.5), by - L * Math.sin(a - 0.5));
  ctx.moveTo(bx, by); ctx.lineTo(bx - L * Math.cos(a + 0.5), by - L * Math.sin(a + 0.5)); ctx.stroke();
}
function drawMarks(fr) {
  for (const [k, x0, y0, x1, y1, rad] of fr.marks) {
    if (k === "area") {
      ctx.fillStyle = "rgba(255,120,0,0.43)"; ctx.fillRect(x0 * CELL, y0 * CELL, CELL, CELL);
      if (rad) { ctx.beginPath(); ctx.arc(cx(x0), cx(y0), rad * CELL, 0, 7); ctx.fillStyle = "rgba(255,120,0,0.23)"; ctx.fill(); ctx.strokeStyle = "#ff7800"; ctx.stroke(); }
    } else if (k === "path") {
      ctx.strokeStyle = "#ffffff"; ctx.lineWidth = Math.max(2, CELL / 8); ctx.beginPath(); ctx.moveTo(cx(x0), cx(y0)); ctx.lineTo(cx(x1), cx(y1)); ctx.stroke();
    } else arrow(x0, y0, x1, y1, MARK_COL[k] || "#fff");
  }
}
function drawFighters(fr) {
  fr.fi.forEach((row, f) => {
    const [x, y, facing, posture, wounds, flesh, state, ready, broken] = row;
    if (state !== 1) return;
    const info = D.fighters[f], col = D.colours[info.gang % D.colours.length];
    const X = cx(x), Y = cx(y), r = CELL * 0.38;
    ctx.fillStyle = col; ctx.strokeStyle = "#141414"; ctx.lineWidth = 1;
    if (posture === 2) ctx.fillStyle = "#333";
    ctx.beginPath();
    if (posture) ctx.ellipse(X, Y, r, r * 0.6, 0, 0, 7); else ctx.arc(X, Y, r, 0, 7);
    ctx.fill(); ctx.stroke();
    if (posture === 2) { ctx.strokeStyle = col; ctx.lineWidth = 2; ctx.stroke(); }
    const fx = FDX[facing & 7], fy = FDY[facing & 7], n = Math.hypot(fx, fy), ux = fx / n, uy = fy / n;
    const bx = X + ux * r * 0.7, by = Y + uy * r * 0.7;
    ctx.fillStyle = "#fafafa"; ctx.strokeStyle = "#141414"; ctx.lineWidth = 1; ctx.beginPath();
    ctx.moveTo(X + ux * r * 1.3, Y + uy * r * 1.3); ctx.lineTo(bx - uy * r * 0.45, by + ux * r * 0.45); ctx.lineTo(bx + uy * r * 0.45, by - ux * r * 0.45);
    ctx.closePath(); ctx.fill(); ctx.stroke();
    ctx.fillStyle = "#fff"; ctx.font = `bold ${CELL * 0.55 | 0}px sans-serif`; ctx.textAlign = "center"; ctx.textBaseline = "middle";
    ctx.fillText(info.symbol, X, Y + 1);
    if (posture === 2) { ctx.strokeStyle = "#ff2828"; ctx.lineWidth = 2; ctx.beginPath(); ctx.moveTo(X - r * 0.6, Y - r * 0.6); ctx.lineTo(X + r * 0.6, Y + r * 0.6); ctx.moveTo(X - r * 0.6, Y + r * 0.6); ctx.lineTo(X + r * 0.6, Y - r * 0.6); ctx.stroke(); }
    const pip = Math.max(2, CELL / 8 | 0); let k = 0;
    for (let i = 0; i < wounds; i++, k++) { ctx.fillStyle = "#28c83c"; ctx.fillRect(x * CELL + 1 + k * (pip + 1), (y + 1) * CELL - 2 - pip, pip, pip); }
    for (let i = 0; i < flesh; i++, k++) { ctx.fillStyle = "#780000"; ctx.fillRect(x * CELL + 1 + k * (pip + 1), (y + 1) * CELL - 2 - pip, pip, pip); }
    if (ready) { ctx.fillStyle = "#ffe600"; ctx.beginPath(); ctx.arc((x + 1) * CELL - pip, y * CELL + pip, pip * 0.8, 0, 7); ctx.fill(); }
    if (broken) { ctx.fillStyle = "#fff"; ctx.strokeStyle = "#000"; ctx.font = `bold ${CELL * 0.6 | 0}px sans-serif`; ctx.textAlign = "left"; ctx.textBaseline = "top"; ctx.strokeText("!", x * CELL + 1, y * CELL); ctx.fillText("!", x * CELL + 1, y * CELL); }
    if ((fr.wp[f] || []).some(v => v)) { ctx.fillStyle = "#6e6e6e"; ctx.fillRect((x + 1) * CELL - pip - 2, (y + 1) * CELL - 2 - pip, pip, pip); }
    (fr.cond[f] || []).forEach(name => { const k = D.conditions.indexOf(name); const cp = Math.max(3, CELL / 5 | 0); ctx.fillStyle = D.condition_colours[k] || "#000"; ctx.fillRect(x * CELL + 1 + (k % 6) * (cp + 1), y * CELL + 1, cp, cp); });
    if (f === fr.active) { ctx.strokeStyle = "#fff"; ctx.lineWidth = 2; ctx.beginPath(); ctx.arc(X, Y, r + 3, 0, 7); ctx.stroke(); }
  });
}
function esc(s) { return s.replace(/&/g, "&amp;").replace(/</g, "&lt;"); }
function cardsHtml(fr) {
  if (fr.cards) return unitCards(fr.cards);  // a game whose frames bring their own cards (Firefight: one per unit)
  let html = "";
  D.fighters.forEach((info, f) => {
    if (info.name === null) return;
    const [x, y, facing, posture, wounds, flesh, state, ready, broken] = fr.fi[f];
    if (state === 0) return;
    const cond = [];
    if (state === 1) { cond.push(POSTURE[posture] || "?"); if (broken) cond.push("Broken"); if (ready) cond.push("Ready"); cond.push(...(fr.cond[f] || [])); }
    else cond.push(STATE[state] || "?");
    const wp = info.weapons.map((w, j) => w + ((fr.wp[f] || [])[j] === 1 ? " (out of ammo)" : (fr.wp[f] || [])[j] === 2 ? " (jammed)" : "")).join(", ");
    const cls = "card" + (f === fr.active ? " active" : "") + (state !== 1 ? " out" : "");
    html += `<div class="${cls}" style="border-left-color:${D.colours[info.gang % D.colours.length]}"><b>${esc(info.symbol)} ${esc(info.name)}</b> [${esc(D.gangs[info.gang])}]<br>` +
      `W ${wounds}/${info.wounds}${flesh ? `, ${flesh} flesh wound(s)` : ""} &middot; ${esc(cond.join(", "))}${state === 1 ? ` &middot; (${x},${y})` : ""}<br><small>${esc(wp)}</small></div>`;
  });
  return html;
}
function unitCards(cards) {
  return cards.map(c => `<div class="card${c.active ? " active" : ""}${c.out ? " out" : ""}" style="border-left-color:${D.colours[c.side % D.colours.length]}">` +
    `<b>${esc(c.name)}</b> [${esc(D.gangs[c.side])}]<br>${esc(c.text)}</div>`).join("");
}
return {cx, drawBoard, drawMarks, drawFighters, arrow, cardsHtml, esc};
}

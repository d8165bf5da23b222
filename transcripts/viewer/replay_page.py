"""The HTML, CSS and script of a replay page (`html_replay`): `__TITLE__` and `__DATA__` (the
page's JSON) are filled in. Every text from the record reaches the page through `textContent`;
only the engine's pictures, whose writer escapes all text, go in as markup."""

from __future__ import annotations

import re

BASE_CSS = """\
body { font: 14px/1.4 "DejaVu Sans", Verdana, Arial, sans-serif; margin: 0; color: #222;
  background: #f4f2ec; }
header { padding: 8px 16px; background: #fff; border-bottom: 1px solid #d8d4ca; }
h1 { font-size: 18px; margin: 0; display: inline; }
main { display: flex; gap: 12px; padding: 0 16px 16px; align-items: flex-start; }
#board { flex: 1 1 auto; min-width: 0; background: #fff; border: 1px solid #d8d4ca; }
#board svg { display: block; width: 100%; height: auto; }
aside { flex: 0 0 360px; max-width: 40vw; }
aside h2 { font-size: 14px; margin: 6px 0 4px; }
.talk { color: #1d6b3a; }
.fallback { color: #b35c00; }
.quiet { color: #888; font-style: italic; }
"""
"""The rules both pages (this one and the live page, `server.watch_page`) share."""

PAGE = r"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none';
  style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>__TITLE__</title>
<style>
__BASE_CSS__
#meta { color: #666; margin-left: 12px; font-size: 12px; }
header details { display: inline; margin-left: 12px; font-size: 12px; color: #666; }
#ruleset { display: block; white-space: normal; word-break: break-all; }
nav { display: flex; flex-wrap: wrap; gap: 6px; align-items: center; padding: 8px 16px; }
nav button, #views button { font: inherit; padding: 3px 9px; border: 1px solid #b9b3a6;
  background: #fff; border-radius: 4px; cursor: pointer; }
#views { display: flex; flex-wrap: wrap; gap: 4px; padding: 0 16px 8px; }
#views button[aria-selected="true"] { background: #2a5d8f; color: #fff; border-color: #2a5d8f; }
#views small { opacity: .75; }
#slider { flex: 1 1 200px; }
#counter { font-weight: bold; min-width: 14em; }
#now, #log { list-style: none; margin: 0; padding: 0; }
#now { background: #fff; border: 1px solid #d8d4ca; padding: 6px 8px; min-height: 3em; }
#log { position: relative; max-height: 55vh; overflow-y: auto; background: #fff;
  border: 1px solid #d8d4ca; }
#log > li { padding: 3px 8px; border-bottom: 1px solid #eee; cursor: pointer; }
#log > li.current { background: #fff3c4; }
#log ul { list-style: none; margin: 0; padding: 0; }
.step-label { color: #666; font-size: 11px; }
.move { font-weight: bold; }
.news { color: #444; padding-left: 1em; }
.attempt { color: #555; }
.rejected { color: #b3261e; }
.why { color: #6b5b95; font-style: italic; padding-left: 1em; }
.note { color: #666; }
.result { font-weight: bold; color: #2a5d8f; }
footer { color: #666; font-size: 12px; padding: 0 16px 16px; }
</style>
</head>
<body>
<header><h1 id="title"></h1><span id="meta"></span>
<details><summary>ruleset</summary><code id="ruleset"></code></details></header>
<nav aria-label="steps">
  <button id="first" title="first step (Home)">&#xAB;</button>
  <button id="prev" title="step back (&#x2190;)">&#x25C0;</button>
  <input id="slider" type="range" min="0" value="0" aria-label="step">
  <button id="next" title="step forward (&#x2192;)">&#x25B6;</button>
  <button id="last" title="last step (End)">&#xBB;</button>
  <span id="counter" aria-live="polite"></span>
</nav>
<div id="views" role="tablist" aria-label="perspective"></div>
<main>
  <section id="board" aria-label="board"></section>
  <aside>
    <h2>This step</h2><ul id="now"></ul>
    <h2>Log <span class="step-label">(what this perspective could read)</span></h2>
    <ol id="log"></ol>
  </aside>
</main>
<footer>Keys: &#x2190; &#x2192; step, Home / End first and last, &#x2191; &#x2193; or 1&#x2013;9
(seats) and 0 (spectator) switch perspective. A seat's perspective shows only what that seat
could see; the spectator sees everything, as after the end of a game.</footer>
<script id="data" type="application/json">__DATA__</script>
<script>
'use strict';
const D = JSON.parse(document.getElementById('data').textContent);
const P = D.perspectives.length;
const order = D.perspectives.map((_, p) => {
  const list = [];
  D.steps.forEach((step, k) => { if (step.shown[p]) list.push(k); });
  return list;
});
const built = D.perspectives.map(() => []);
let view = P - 1;
let pos = 0;

function rebuild(before, ops) {
  const out = [];
  let at = 0;
  for (const op of ops) {
    if (Array.isArray(op)) { for (const id of op) out.push(id); }
    else if (op > 0) { for (let i = 0; i < op; i++) out.push(before[at + i]); at += op; }
    else { at -= op; }
  }
  return out;
}

function picture(p, k) {
  const cache = built[p];
  let j = k;
  while (j >= 0 && cache[j] === undefined) j--;
  let ids = j >= 0 ? cache[j] : null;
  for (let i = j + 1; i <= k; i++) { ids = rebuild(ids, D.steps[i].svg[p]); cache[i] = ids; }
  return ids.map((id) => D.lines[id]).join('\n');
}

function lineItem(line) {
  const li = document.createElement('li');
  li.className = line[0];
  li.textContent = line[1];
  return li;
}

function stepLabel(k) {
  return k === 0 ? 'start' : 'decision ' + D.steps[k].decision;
}

function fillLines(list, k, p) {
  const lines = D.steps[k].lines[p];
  if (k === 0 && !lines.length) {
    list.appendChild(lineItem(['quiet', 'The start: nothing has happened yet.']));
  } else if (!lines.length) {
    list.appendChild(lineItem(['quiet', 'Nothing to read here; the view changed.']));
  }
  for (const line of lines) list.appendChild(lineItem(line));
}

function buildLog() {
  const log = document.getElementById('log');
  log.textContent = '';
  order[view].forEach((k, i) => {
    const li = document.createElement('li');
    li.dataset.pos = String(i);
    const label = document.createElement('div');
    label.className = 'step-label';
    label.textContent = i + ': ' + stepLabel(k);
    const inner = document.createElement('ul');
    fillLines(inner, k, view);
    li.append(label, inner);
    li.addEventListener('click', () => go(i));
    log.appendChild(li);
  });
}

function show() {
  const steps = order[view];
  const k = steps[pos];
  document.getElementById('board').innerHTML = picture(view, k);
  const total = steps.length - 1;
  const end = pos === total ? (D.finished ? ' (end of the game)' : ' (the record stops here)') : '';
  document.getElementById('counter').textContent =
    'Step ' + pos + ' of ' + total + ' \u00b7 ' + stepLabel(k) + end;
  const slider = document.getElementById('slider');
  slider.max = String(total);
  slider.value = String(pos);
  const now = document.getElementById('now');
  now.textContent = '';
  fillLines(now, k, view);
  document.querySelectorAll('#views button').forEach((b, p) => {
    b.setAttribute('aria-selected', p === view ? 'true' : 'false');
  });
  const log = document.getElementById('log');
  const old = log.querySelector('li.current');
  if (old) old.classList.remove('current');
  const item = log.children[pos];
  if (item) { item.classList.add('current'); keepInLog(log, item); }
  document.body.dataset.step = String(k);
  document.body.dataset.view = String(view);
}

// Scrolls the log alone: scrollIntoView would scroll the page too, on every step of a game
// whose page is taller than the window. An entry taller than the log shows from its start.
function keepInLog(log, item) {
  const top = item.offsetTop;
  const bottom = top + item.offsetHeight;
  if (top < log.scrollTop || bottom - top > log.clientHeight) log.scrollTop = top;
  else if (bottom > log.scrollTop + log.clientHeight) log.scrollTop = bottom - log.clientHeight;
}

function go(target) {
  pos = Math.max(0, Math.min(order[view].length - 1, target));
  show();
}

function choose(p) {
  if (p < 0 || p >= P || p === view) return;
  const k = order[view][pos];
  view = p;
  let i = 0;
  while (i + 1 < order[p].length && order[p][i + 1] <= k) i++;
  pos = i;
  buildLog();
  show();
}

document.getElementById('title').textContent = D.title + ' replay';
document.getElementById('meta').textContent =
  D.name + ' \u00b7 seed ' + D.seed + (D.finished ? '' : ' \u00b7 unfinished');
document.getElementById('ruleset').textContent = JSON.stringify(D.ruleset);
D.perspectives.forEach((name, p) => {
  const b = document.createElement('button');
  b.setAttribute('role', 'tab');
  const key = p === P - 1 ? '0' : (p < 9 ? String(p + 1) : '');
  b.append((key ? key + ' ' : '') + name + ' ');
  const who = document.createElement('small');
  who.textContent = D.players[p];
  b.appendChild(who);
  b.addEventListener('click', () => choose(p));
  document.getElementById('views').appendChild(b);
});
document.getElementById('first').addEventListener('click', () => go(0));
document.getElementById('prev').addEventListener('click', () => go(pos - 1));
document.getElementById('next').addEventListener('click', () => go(pos + 1));
document.getElementById('last').addEventListener('click', () => go(Infinity));
document.getElementById('slider').addEventListener('input', (e) => go(Number(e.target.value)));
document.addEventListener('keydown', (e) => {
  if (e.altKey || e.ctrlKey || e.metaKey) return;
  const keys = {
    ArrowRight: () => go(pos + 1), ArrowLeft: () => go(pos - 1),
    Home: () => go(0), End: () => go(Infinity),
    ArrowDown: () => choose((view + 1) % P), ArrowUp: () => choose((view + P - 1) % P),
  };
  let act = keys[e.key];
  if (!act && e.key === '0') act = () => choose(P - 1);
  const seat = /^[1-9]$/.test(e.key) ? Number(e.key) - 1 : -1;
  if (!act && seat >= 0 && seat < P - 1) act = () => choose(seat);
  if (act) { e.preventDefault(); act(); }
});
buildLog();
show();
</script>
</body>
</html>
"""

PAGE = PAGE.replace("__BASE_CSS__\n", BASE_CSS)


def fill(template: str, **values: str) -> str:
    """The template with each `__NAME__` replaced by values["NAME"], in one pass: a value that
    holds another placeholder's name (a file called __DATA__.jsonl) is left as it is."""
    return re.sub(r"__([A-Z]+)__", lambda m: values.get(m.group(1), m.group(0)), template)

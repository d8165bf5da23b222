"""The HTML, CSS and script of the live spectator page (`watch`): `__TITLE__`, `__SVG__` (the
picture when the page was asked for) and `__DATA__` (the rest of that snapshot, as JSON) are
filled in. The script follows `<page address>/events`, with the page's own query (a `?token=`
passes on), and stops once the game is over. Record texts reach the page through
`textContent` only."""

from __future__ import annotations

from ...transcripts.viewer.replay_page import BASE_CSS

WATCH_PAGE = r"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>__TITLE__</title>
<style>
__BASE_CSS__
main { padding-top: 12px; }
#status { margin-left: 12px; font-weight: bold; }
#link { margin-left: 12px; font-size: 12px; color: #666; }
#link.live::before { content: "\25CF "; color: #2ca02c; }
#link.lost::before { content: "\25CF "; color: #b3261e; }
ul { list-style: none; margin: 0; padding: 0; background: #fff; border: 1px solid #d8d4ca; }
li { padding: 3px 8px; border-bottom: 1px solid #eee; white-space: pre-wrap; }
#log { max-height: 60vh; overflow-y: auto; }
#result { font-weight: bold; color: #2a5d8f; }
.seat { font-weight: bold; }
</style>
</head>
<body>
<header><h1 id="title"></h1><span id="status"></span><span id="link"></span></header>
<main>
  <section id="board" aria-label="board">__SVG__</section>
  <aside>
    <ul id="result" hidden></ul>
    <div id="talk"><h2>Talk</h2><ul id="chat"></ul></div>
    <h2>Log</h2><ul id="log"></ul>
  </aside>
</main>
<script id="data" type="application/json">__DATA__</script>
<script>
'use strict';
const first = JSON.parse(document.getElementById('data').textContent);

function items(list, entries, make) {
  for (const entry of entries) list.appendChild(make(entry));
}

function textItem(text, cls) {
  const li = document.createElement('li');
  li.textContent = text;
  if (cls) li.className = cls;
  return li;
}

function logItem(entry) {
  const li = textItem('', entry.type);
  if (entry.seat) {
    const who = document.createElement('span');
    who.className = 'seat';
    who.textContent = entry.seat + ' ';
    li.appendChild(who);
  }
  li.append(entry.text);
  li.dataset.seq = String(entry.seq);
  return li;
}

function update(data) {
  document.getElementById('title').textContent = 'Watching ' + data.title;
  const to = data.to_act.length ? ' \u00b7 to act: ' + data.to_act.join(', ') : '';
  document.getElementById('status').textContent =
    data.status + ' \u00b7 decision ' + data.decision + (data.status === 'over' ? '' : to);
  if (data.svg) document.getElementById('board').innerHTML = data.svg;
  document.getElementById('talk').hidden = !data.chat_kept;
  const chat = document.getElementById('chat');
  chat.textContent = '';
  if (data.chat.length) items(chat, data.chat, (line) => textItem(line, 'talk'));
  else chat.appendChild(textItem('Nothing said in public yet.', 'quiet'));
  const log = document.getElementById('log');
  if (data.reset) log.textContent = '';
  items(log, data.log, logItem);
  while (log.children.length > 200) log.removeChild(log.firstChild);
  log.scrollTop = log.scrollHeight;
  const result = document.getElementById('result');
  result.textContent = '';
  items(result, data.result, (line) => textItem(line));
  result.hidden = !data.result.length;
  document.body.dataset.status = data.status;
  document.body.dataset.decision = String(data.decision);
  document.body.dataset.updates = String(Number(document.body.dataset.updates || '0') + 1);
}

update(first);
if (first.status !== 'over') {
  const link = document.getElementById('link');
  const stream = location.pathname.replace(/\/$/, '') + '/events' + location.search;
  const source = new EventSource(stream);
  function mark(cls, text) { link.className = cls; link.textContent = text; }
  source.addEventListener('open', () => mark('live', 'live'));
  source.addEventListener('error', () => mark('lost', 'reconnecting'));
  source.addEventListener('view', (e) => {
    const data = JSON.parse(e.data);
    update(data);
    if (data.status === 'over') {
      source.close();
      mark('', 'the game is over');
    }
  });
}
</script>
</body>
</html>
"""

WATCH_PAGE = WATCH_PAGE.replace("__BASE_CSS__\n", BASE_CSS)

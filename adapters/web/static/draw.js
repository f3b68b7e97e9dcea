// Drawing the web table (issue 34, docs/web.md): seats around the table, the stock, the
// pile's fan, the melds, the deal's and the match's end, the hand and its actions, and
// the moves' flight from one place to another. No build step; app.js calls
// BuracoDraw.render(view, ctx) with each view the server sends.
"use strict";

window.BuracoDraw = (function () {
  const $ = (id) => document.getElementById(id);
  const SUIT_KEY = { "♥": "h", "♦": "d", "♣": "c", "♠": "s" };
  const RANKS = { A: 1, J: 11, Q: 12, K: 13 };
  const log = [];
  let prev = null;
  let timer = null;

  function el(tag, cls, text) {
    const node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined && text !== null) node.textContent = text;
    return node;
  }

  function fill(template, values) {
    return String(template || "").replace(/\{(\w+)\}/g, (m, k) => (k in values ? values[k] : m));
  }

  // ---- cards ------------------------------------------------------------------------
  function cardName(card, texts) {
    if (!card.suit) return texts.joker || card.text;
    const rank = texts["rank_" + card.rank] || card.rank;
    const suit = texts["suit_" + SUIT_KEY[card.suit]] || card.suit;
    let name = fill(texts.card_name || "{rank} {suit}", { rank: rank, suit: suit });
    if (card.stands) name += " " + fill(texts.stands_for || "({rank})", { rank: card.stands });
    return name;
  }

  function cardNode(card, texts, tag) {
    const suit = SUIT_KEY[card.suit] || "j";
    const node = el(tag || "span", `card s-${suit}` + (card.red ? " red" : ""));
    node.dataset.code = card.code;
    node.appendChild(el("span", "r", card.rank));
    if (card.suit) node.appendChild(el("span", "s", card.suit));
    if (card.stands) node.appendChild(el("span", "w", `(${card.stands})`));
    const name = cardName(card, texts);
    node.setAttribute("aria-label", name);
    node.title = card.stands ? `${card.text}(${card.stands})` : card.text;
    if (!tag) node.setAttribute("role", "img");
    return node;
  }

  function rankOf(card) {
    if (!card.suit) return 99;
    return RANKS[card.rank] || parseInt(card.rank, 10);
  }

  // ---- seats --------------------------------------------------------------------------
  function around(view) {
    // the others in play order from the person's left: left, across, right
    const n = view.players.length;
    const me = view.seat === null || view.seat === undefined ? null : view.seat;
    if (me === null) return view.players.slice();
    const out = [];
    for (let k = 1; k < n; k++) out.push(view.players[(me + k) % n]);
    return out;
  }

  function renderSeats(view, texts, clockText) {
    const box = $("seats");
    box.replaceChildren();
    const mySide = view.seat === null ? null : view.players[view.seat].side;
    for (const p of around(view)) {
      const node = el("div", "seat" + (p.turn ? " turn" : "") +
        (mySide !== null && p.side === mySide ? " partner" : ""));
      node.dataset.seat = String(p.seat);
      node.dataset.cards = String(p.cards);
      node.appendChild(el("span", "name", p.name));
      const info = el("span", "info");
      const count = el("span", "count" + (p.cards <= 2 ? " few" : ""), String(p.cards));
      count.setAttribute("aria-label", `${p.cards} ${texts.cards || ""}`);
      info.appendChild(count);
      if (p.robot) info.appendChild(el("span", "tag robot", texts.robot || "🤖"));
      if (p.away) info.appendChild(el("span", "tag away", texts.away || "…"));
      if (p.turn) info.appendChild(el("span", "clock", clockText));
      node.appendChild(info);
      box.appendChild(node);
    }
  }

  function renderLobbySeats(view, texts) {
    const box = $("seats");
    box.replaceChildren();
    for (const s of view.seats || []) {
      const node = el("div", "seat");
      node.dataset.seat = String(s.seat);
      node.appendChild(el("span", "name", s.name));
      if (s.robot) node.appendChild(el("span", "tag robot", texts.robot || ""));
      box.appendChild(node);
    }
  }

  // ---- the middle ---------------------------------------------------------------------
  function renderCenter(view, texts) {
    const stock = $("stock");
    stock.replaceChildren(el("span", null, texts.stock || ""), el("span", "n", String(view.stock)));
    stock.dataset.count = String(view.stock);
    stock.setAttribute("aria-label", `${texts.stock || ""} ${view.stock}`);
    const mortos = $("mortos");
    mortos.hidden = view.mortos === null;
    if (view.mortos !== null) {
      mortos.replaceChildren(el("span", null, texts.mortos || ""), el("span", "n", String(view.mortos)));
      mortos.dataset.count = String(view.mortos);
    }
    const pile = $("pile");
    pile.classList.toggle("blocked", !!view.pile.blocked);
    pile.dataset.size = String(view.pile.size);
    const cards = view.pile.cards.length ? view.pile.cards : (view.pile.top ? [view.pile.top] : []);
    if (!cards.length) {
      pile.replaceChildren(el("span", "empty", texts.empty_pile || ""));
      return;
    }
    const fan = el("div", "fan");
    for (const card of cards) fan.appendChild(cardNode(card, texts));
    pile.replaceChildren(el("span", "label", texts.pile || ""), fan,
      el("span", "size", `(${view.pile.size})`));
    if (view.pile.blocked) pile.title = texts.blocked || "";
    spread(fan, cards.length);
  }

  function spread(fan, n) {
    // overlap the pile's cards so the fan fits its width: the top card whole
    if (n < 2) return;
    const width = fan.clientWidth;
    const card = 34;
    const overlap = Math.min(2, Math.floor((width - card) / (n - 1)) - card);
    fan.style.setProperty("--overlap", `${Math.max(overlap, -card + 3)}px`);
  }

  // ---- melds --------------------------------------------------------------------------
  function meldAction(view, side, index) {
    if (!view.hand || !side.mine) return null;
    const all = view.hand.actions;
    return all.find((a) => a.code === "e" && a.arg === String(index)) ||
      all.find((a) => a.code === "p" && a.arg === String(index)) || null;
  }

  function renderTable(view, texts, press) {
    const table = $("table");
    table.replaceChildren();
    // the person's own side last, nearest the hand
    const sides = view.sides.slice().sort((a, b) => Number(a.mine) - Number(b.mine));
    for (const side of sides) {
      const box = el("div", "side" + (side.mine ? " mine" : ""));
      box.dataset.side = String(side.side);
      const head = el("div", "side-head");
      head.appendChild(el("span", "label", side.label));
      const bonus = side.bonus ? ` + ${side.bonus}` : "";
      head.appendChild(el("span", "pts", `${side.score} ${texts.points || ""} · ${side.melded}${bonus}`));
      box.appendChild(head);
      const melds = el("div", "melds");
      if (!side.melds.length && !side.threes.length) melds.appendChild(el("span", "none", texts.no_melds || ""));
      for (const meld of side.melds) melds.appendChild(meldNode(view, side, meld, texts, press));
      if (side.threes.length) {
        const threes = el("div", "meld threes");
        for (const card of side.threes) threes.appendChild(cardNode(card, texts));
        melds.appendChild(threes);
      }
      box.appendChild(melds);
      table.appendChild(box);
    }
  }

  function meldNode(view, side, meld, texts, press) {
    const node = el("div", "meld" + (meld.canastra ? ` canastra-${meld.canastra}` : ""));
    node.dataset.meld = String(meld.index);
    node.dataset.side = String(side.side);
    node.appendChild(el("span", "n", `${meld.index + 1})`));
    for (const card of meld.cards) node.appendChild(cardNode(card, texts));
    if (meld.canastra) node.appendChild(el("span", "canastra-tag", meld.canastra_label));
    const act = meldAction(view, side, meld.index);
    if (act) {
      node.classList.add("can-add");
      if (act.code === "e") node.appendChild(el("span", "add", "+"));
      node.dataset.action = act.code;
      node.tabIndex = 0;
      node.setAttribute("role", "button");
      node.setAttribute("aria-label", act.label + ": " + meld.cards.map((c) => cardName(c, texts)).join(", "));
      node.addEventListener("click", () => press(act.data));
      node.addEventListener("keydown", (ev) => {
        if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); press(act.data); }
      });
    }
    return node;
  }

  // ---- the deal's and the match's end --------------------------------------------------
  function renderResult(view, texts) {
    const box = $("result");
    const lines = view.result || [];
    box.hidden = !lines.length && !view.winner;
    box.replaceChildren();
    if (box.hidden) return;
    // the match's end is its winner line alone ("Fim da partida! Vencedor: ..."), not a
    // "Fim da partida" heading over it (a tester read it twice, issue 35)
    box.appendChild(view.winner ? el("h2", "winner", view.winner) : el("h2", null, texts.deal_end));
    for (const line of lines) {
      box.appendChild(el("p", line.startsWith("  ") ? "hand-left" : null, line.trim()));
    }
    if (view.status === "over" && (view.deals || []).length) box.appendChild(dealsTable(view, texts));
    if (view.status === "over" && (view.deals || []).length > 1) box.appendChild(chart(view));
  }

  function dealsTable(view, texts) {
    const table = el("table");
    const head = el("tr");
    head.appendChild(el("th", null, texts.deal || ""));
    for (const side of view.sides) head.appendChild(el("th", null, side.label));
    table.appendChild(head);
    const sum = view.sides.map(() => 0);
    view.deals.forEach((row, k) => {
      const tr = el("tr");
      tr.appendChild(el("td", null, String(k + 1)));
      row.forEach((n, s) => { sum[s] += n; tr.appendChild(el("td", null, String(n))); });
      table.appendChild(tr);
    });
    const total = el("tr");
    total.appendChild(el("th", null, texts.total || ""));
    sum.forEach((n) => total.appendChild(el("th", null, String(n))));
    table.appendChild(total);
    return table;
  }

  function chart(view) {
    // the match as it went: each side's running total after every deal
    const ns = "http://www.w3.org/2000/svg";
    const svg = document.createElementNS(ns, "svg");
    svg.setAttribute("viewBox", "0 0 300 90");
    svg.setAttribute("role", "img");
    const runs = view.sides.map((_, s) => {
      let t = 0;
      return [0, ...view.deals.map((row) => (t += row[s]))];
    });
    const all = runs.flat();
    const lo = Math.min(0, ...all), hi = Math.max(1, ...all);
    const x = (k) => 6 + (288 * k) / (runs[0].length - 1);
    const y = (v) => 84 - (78 * (v - lo)) / (hi - lo);
    const colours = ["#ffca28", "#90caf9", "#a5d6a7"];
    const zero = document.createElementNS(ns, "line");
    zero.setAttribute("x1", "6"); zero.setAttribute("x2", "294");
    zero.setAttribute("y1", String(y(0))); zero.setAttribute("y2", String(y(0)));
    zero.setAttribute("stroke", "rgba(255,255,255,.4)");
    svg.appendChild(zero);
    runs.forEach((run, s) => {
      const line = document.createElementNS(ns, "polyline");
      line.setAttribute("points", run.map((v, k) => `${x(k)},${y(v)}`).join(" "));
      line.setAttribute("fill", "none");
      line.setAttribute("stroke", colours[s % colours.length]);
      line.setAttribute("stroke-width", "2.5");
      svg.appendChild(line);
    });
    svg.setAttribute("aria-label", view.sides.map((s, i) => `${s.label}: ${runs[i].slice(-1)[0]}`).join(", "));
    return svg;
  }

  // ---- the hand and its actions ---------------------------------------------------------
  function renderHand(view, texts, sort, press) {
    const box = $("hand-box");
    // no hand, or the deal is over: the result lists the cards left in every hand and
    // gets the room (issue 38: at 360x640 a greyed old hand left it 193 px)
    box.hidden = !view.hand || view.status === "between" || view.status === "over"
      || (!view.hand.cards.length && view.status !== "playing");
    if (box.hidden) {
      $("hand").replaceChildren();  // no card of an old hand is left to tap
      return;
    }
    $("hand-title").textContent = view.hand.title;
    const cards = view.hand.cards.slice();
    if (sort === "rank") cards.sort((a, b) => rankOf(a) - rankOf(b) || a.index - b.index);
    $("sort-suit").classList.toggle("on", sort === "suit");
    $("sort-rank").classList.toggle("on", sort === "rank");
    const hand = $("hand");
    hand.replaceChildren();
    for (const card of cards) {
      const node = cardNode(card, texts, "button");
      node.type = "button";
      node.dataset.cardIndex = String(card.index);
      node.setAttribute("aria-pressed", card.selected ? "true" : "false");
      if (card.selected) node.classList.add("selected");
      if (card.drawn) node.classList.add("drawn");
      if (card.group) node.appendChild(el("span", "g", String(card.group)));
      node.disabled = !card.data;
      node.addEventListener("click", () => press(card.data, "select"));
      hand.appendChild(node);
    }
    $("hand-lines").replaceChildren(...view.hand.lines.map((t) => el("p", null, t)));
  }

  function actionButton(act, press) {
    const b = el("button", "action", act.label);
    b.type = "button";
    b.dataset.action = act.code;
    b.dataset.arg = act.arg;
    b.addEventListener("click", () => press(act.data));
    return b;
  }

  function renderActions(view, press) {
    const actions = $("actions");
    actions.replaceChildren();
    // adding to a meld is a tap on the meld itself (it says "Juntar ao jogo N"); the
    // lobby's other variants sit under their descriptions, in the scrolling area; the
    // coach's "Dica" (issue 37) sits in the hand's head, so the moves keep their room
    const mine = view.hand ? view.hand.actions : [];
    const own = mine.filter((a) => a.code !== "e" && a.code !== "dc");
    $("hint-box").replaceChildren(
      ...mine.filter((a) => a.code === "dc").map((a) => actionButton(a, press)));
    const table = view.table_actions || [];
    const all = [...own, ...table.filter((a) => a.code !== "v")];
    const picks = $("picks");
    picks.replaceChildren();
    for (const act of table.filter((a) => a.code === "v")) {
      picks.appendChild(actionButton(act, press));
    }
    for (const act of all) {
      actions.appendChild(actionButton(act, press));
    }
    $("dock").classList.toggle("empty", $("hand-box").hidden && !all.length);
  }

  // ---- the clock and the log ------------------------------------------------------------
  function clock(view, offset) {
    clearInterval(timer);
    const tick = () => {
      const text = view.deadline
        ? `${Math.max(0, Math.round(view.deadline - (Date.now() / 1000 + offset)))}s` : "";
      $("timer").textContent = text;
      const chip = document.querySelector(".seat.turn .clock");
      if (chip) chip.textContent = text;
    };
    tick();
    if (view.deadline) timer = setInterval(tick, 1000);
  }

  function renderLog(view) {
    const said = view.narration || "";
    if (said && log[log.length - 1] !== said) log.push(said);
    while (log.length > 12) log.shift();
    $("narration").textContent = said;
    $("shuffle").textContent = view.shuffle || "";  // issue 35: commitment, then seed
    $("log-list").replaceChildren(...log.slice().reverse().map((t) => el("li", null, t)));
  }

  // ---- moves in flight ------------------------------------------------------------------
  function rectOf(node) {
    return node && node.getClientRects().length ? node.getBoundingClientRect() : null;
  }

  function places() {
    const out = { stock: rectOf($("stock")), pile: rectOf($("pile")), hand: rectOf($("hand")),
      seats: {}, sides: {} };
    for (const s of document.querySelectorAll(".seat[data-seat]")) out.seats[s.dataset.seat] = rectOf(s);
    for (const s of document.querySelectorAll(".side[data-side]")) out.sides[s.dataset.side] = rectOf(s);
    return out;
  }

  function fly(from, to, card, texts) {
    if (!from || !to || !document.body.animate) return;
    const node = card ? cardNode(card, texts) : el("span", "card back");
    node.classList.add("flyer");
    node.setAttribute("aria-hidden", "true");
    const x0 = from.left + from.width / 2 - 17, y0 = from.top + from.height / 2 - 24;
    const x1 = to.left + to.width / 2 - 17, y1 = to.top + to.height / 2 - 24;
    node.style.left = `${x1}px`;
    node.style.top = `${y1}px`;
    document.body.appendChild(node);
    const anim = node.animate([{ transform: `translate(${x0 - x1}px, ${y0 - y1}px)`, opacity: 0.9 },
      { transform: "translate(0, 0)", opacity: 1 }], { duration: 420, easing: "ease-out" });
    anim.onfinish = anim.oncancel = () => node.remove();
  }

  function animate(old, view, before, texts) {
    // what the player whose turn it was did, seen from the counts that changed
    if (!old || !old.players || !view.players || old.game !== view.game ||
        document.hidden || !before) return;
    const actor = old.players.find((p) => p.turn);
    if (!actor) return;
    const now = places();
    const mine = actor.seat === view.seat;
    const at = mine ? now.hand : now.seats[actor.seat];
    const atBefore = mine ? before.hand : before.seats[actor.seat];
    const took = view.players[actor.seat].cards - actor.cards;
    if (view.stock < old.stock && took > 0) fly(before.stock, at, null, texts);
    if (view.pile.size < old.pile.size && took > 0) fly(before.pile, at, old.pile.top, texts);
    if (view.pile.size > old.pile.size && view.pile.top) fly(atBefore, now.pile, view.pile.top, texts);
    const side = view.sides.find((s) => s.side === actor.side);
    const was = old.sides.find((s) => s.side === actor.side);
    const count = (s) => s.melds.reduce((n, m) => n + m.cards.length, 0);
    if (side && was && count(side) > count(was)) {
      const meld = side.melds[side.melds.length - 1];
      fly(atBefore, now.sides[actor.side], meld && meld.cards[0], texts);
    }
  }

  // ---- the whole page ----------------------------------------------------------------------
  function render(view, ctx) {
    const texts = view.texts || {};
    const before = prev && prev.sides ? places() : null;
    const focus = focusKey();
    document.documentElement.lang = view.lang === "pt" ? "pt-BR" : view.lang;
    document.body.dataset.status = view.closed ? "closed" : view.status;
    $("title").textContent = view.title;
    $("sort-suit").setAttribute("aria-label", texts.sort_suit || "");
    $("sort-rank").setAttribute("aria-label", texts.sort_rank || "");
    $("four").setAttribute("aria-label", texts.four_colour || "");
    $("four").title = texts.four_colour || "";
    const note = view.closed ? texts.closed : (view.spectator ? texts.spectator : "");
    ctx.message(note || "");
    $("lines").replaceChildren(...(view.lines || []).map((t) => el("p", null, t)));
    const dealt = Array.isArray(view.sides);
    $("center").hidden = !dealt;
    $("log").hidden = !dealt;
    if (dealt) {
      // the totals only (the sides' names are on their melds): "220 × -165"
      $("score").textContent = view.sides.map((s) => String(s.score)).join(" × ");
      $("score").title = view.sides.map((s) => `${s.label}: ${s.score}`).join(" · ");
      $("score").setAttribute("aria-label", $("score").title);
      renderSeats(view, texts, "");
      renderCenter(view, texts);
      renderTable(view, texts, ctx.press);
      renderLog(view);
      $("turn-text").textContent = view.turn || "";
      clock(view, ctx.offset);
    } else {
      $("score").textContent = "";
      $("table").replaceChildren();
      renderLobbySeats(view, texts);
      clock({}, 0);
    }
    renderResult(view, texts);
    renderHand(view, texts, ctx.sort, ctx.press);
    renderActions(view, ctx.press);
    restoreFocus(focus);
    animate(prev, view, before, texts);
    prev = view;
  }

  function focusKey() {
    const a = document.activeElement;
    if (!a || a === document.body) return null;
    if (a.dataset.cardIndex !== undefined) return `#hand .card[data-card-index="${a.dataset.cardIndex}"]`;
    if (a.dataset.action !== undefined && a.classList.contains("action")) {
      return `#actions button[data-action="${a.dataset.action}"]`;
    }
    if (a.dataset.meld !== undefined) return `.meld[data-side="${a.dataset.side}"][data-meld="${a.dataset.meld}"]`;
    return null;
  }

  function restoreFocus(selector) {
    if (!selector) return;
    const node = document.querySelector(selector) || document.querySelector("#actions button");
    if (node) node.focus({ preventScroll: true });
  }

  function relayout() {
    const fan = document.querySelector("#pile .fan");
    if (fan) spread(fan, fan.children.length);
  }

  return { render: render, relayout: relayout, cardName: cardName };
})();

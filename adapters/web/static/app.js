// The web table's page (issue 27, docs/web.md). No build step, nothing loaded from
// elsewhere: Telegram's telegram-web-app.js is added only inside Telegram, for its
// theme colours, and the page works without it.
"use strict";

(function () {
  const $ = (id) => document.getElementById(id);
  const state = { session: null, game: null, version: 0, view: null, ws: null,
    nextId: 1, pending: new Map(), sort: "suit", retry: 0, refused: false,
    offset: 0, timer: null, texts: {} };

  function el(tag, cls, text) {
    const node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined && text !== null) node.textContent = text;
    return node;
  }

  function setState(name) { document.body.dataset.state = name; }

  function showMessage(text) {
    const box = $("message");
    box.textContent = text;
    box.hidden = !text;
  }

  let toastTimer = null;
  function toast(text) {
    const box = $("toast");
    box.textContent = text;
    box.hidden = false;
    clearTimeout(toastTimer);
    toastTimer = setTimeout(() => { box.hidden = true; }, 4000);
  }

  // ---- launch -------------------------------------------------------------------
  function launchProof() {
    const hash = new URLSearchParams(location.hash.slice(1));
    const query = new URLSearchParams(location.search);
    const game = query.get("game") || hash.get("tgWebAppStartParam") || "";
    if (hash.get("t")) return { token: hash.get("t") };
    const tgData = hash.get("tgWebAppData") ||
      (window.Telegram && Telegram.WebApp && Telegram.WebApp.initData) || "";
    if (tgData) return { initData: tgData, game: game };
    return null;
  }

  function telegramExtras() {
    // Theme colours and the back button, where Telegram is present (optional).
    if (!location.hash.includes("tgWebAppData")) return;
    const s = document.createElement("script");
    s.src = "https://telegram.org/js/telegram-web-app.js";
    s.async = true;
    s.onload = () => {
      try {
        const app = window.Telegram.WebApp;
        app.ready();
        app.expand();
        if (app.BackButton) { app.BackButton.show(); app.BackButton.onClick(() => app.close()); }
      } catch (e) { /* the page works without it */ }
    };
    document.head.appendChild(s);
  }

  async function openSession() {
    const saved = sessionStorage.getItem("buraco-session");
    const proof = launchProof();
    if (!proof && saved) { state.session = saved; return true; }
    if (!proof) {
      const res = await fetch("api/session", { method: "POST", body: "{}",
        headers: { "Content-Type": "application/json" } });
      const body = await res.json();
      refuse(body.message);
      return false;
    }
    const res = await fetch("api/session", { method: "POST", body: JSON.stringify(proof),
      headers: { "Content-Type": "application/json" } });
    const body = await res.json();
    if (!res.ok) {
      if (saved && proof.token) { state.session = saved; return true; } // a reload
      refuse(body.message);
      return false;
    }
    state.session = body.session;
    state.game = body.game;
    sessionStorage.setItem("buraco-session", body.session);
    if (proof.token) history.replaceState(null, "", location.pathname + location.search);
    return true;
  }

  function refuse(text) {
    state.refused = true;
    setState("refused");
    showMessage(text);
    $("hand-box").hidden = true;
  }

  // ---- connection ---------------------------------------------------------------
  function connect() {
    if (state.refused || (state.ws && state.ws.readyState <= 1)) return;
    const url = new URL("ws", location.href);
    url.protocol = location.protocol === "https:" ? "wss:" : "ws:";
    url.hash = "";
    url.search = "";
    const ws = new WebSocket(url.href);
    state.ws = ws;
    ws.onopen = () => {
      state.retry = 0;
      ws.send(JSON.stringify({ type: "hello", session: state.session, version: state.version }));
    };
    ws.onmessage = (ev) => onFrame(JSON.parse(ev.data));
    ws.onclose = () => {
      state.ws = null;
      if (state.refused) return;
      setState("offline");
      $("status").textContent = state.texts.offline || "…";
      state.retry = Math.min(state.retry + 1, 6);
      setTimeout(connect, 500 * 2 ** (state.retry - 1));
    };
  }

  function onFrame(msg) {
    if (msg.type === "view") {
      if (msg.version < state.version) return;
      state.version = msg.version;
      state.offset = msg.now - Date.now() / 1000;
      document.body.dataset.version = String(msg.version);
      setState("live");
      $("status").textContent = "";
      render(msg.view);
    } else if (msg.type === "reply") {
      state.pending.delete(msg.id);
      toast(msg.text);
    } else if (msg.type === "done") {
      state.pending.delete(msg.id);
    } else if (msg.type === "error") {
      sessionStorage.removeItem("buraco-session");
      refuse(msg.message);
    } else if (msg.type === "gone") {
      refuse(state.texts.gone || "—");
    }
  }

  function press(data) {
    if (!data || !state.ws || state.ws.readyState !== 1) return;
    for (const pending of state.pending.values()) if (pending === data) return; // a double tap
    const id = state.nextId++;
    state.pending.set(id, data);
    state.ws.send(JSON.stringify({ type: "press", id: id, data: data }));
  }

  // ---- drawing ------------------------------------------------------------------
  function cardNode(card, tag) {
    const node = el(tag || "span", "card" + (card.red ? " red" : ""));
    node.dataset.code = card.code;
    node.appendChild(el("span", "r", card.rank));
    if (card.suit) node.appendChild(el("span", "s", card.suit));
    node.title = card.text;
    return node;
  }

  const RANKS = { A: 1, J: 11, Q: 12, K: 13 };
  function rankOf(card) {
    if (!card.suit) return 99;
    return RANKS[card.rank] || parseInt(card.rank, 10);
  }

  function render(view) {
    state.view = view;
    state.texts = view.texts || {};
    document.documentElement.lang = view.lang === "pt" ? "pt-BR" : view.lang;
    $("title").textContent = view.title;
    $("sort-suit").title = state.texts.sort_suit || "";
    $("sort-rank").title = state.texts.sort_rank || "";
    showMessage(view.spectator ? state.texts.spectator : "");
    const lines = $("lines");
    lines.replaceChildren(...view.lines.map((t) => el("p", null, t)));
    const dealt = Array.isArray(view.sides);
    $("table").hidden = $("center").hidden = !dealt;
    if (dealt) {
      renderScore(view);
      renderTable(view);
      renderCenter(view);
    } else {
      $("score").textContent = "";
    }
    $("turn-text").textContent = view.turn || "";
    $("narration").textContent = view.narration || "";
    $("shuffle").textContent = view.shuffle || "";
    renderTimer(view);
    renderHand(view);
  }

  function renderScore(view) {
    $("score").textContent = view.sides.map((s) => `${s.label}: ${s.score}`).join(" · ");
  }

  function meldAction(view, side, index) {
    if (!view.hand || !side.mine) return null;
    const all = view.hand.actions;
    return all.find((a) => a.code === "e" && a.arg === String(index)) ||
      all.find((a) => a.code === "p" && a.arg === String(index)) || null;
  }

  function renderTable(view) {
    const table = $("table");
    table.replaceChildren();
    for (const side of view.sides) {
      const box = el("div", "side" + (side.mine ? " mine" : ""));
      box.dataset.side = String(side.side);
      const head = el("div", "side-head");
      head.appendChild(el("span", "label", side.label));
      const bonus = side.bonus ? ` + ${side.bonus}` : "";
      head.appendChild(el("span", "pts", `${side.score} ${state.texts.points || ""} · ${side.melded}${bonus}`));
      box.appendChild(head);
      const melds = el("div", "melds");
      if (!side.melds.length) melds.appendChild(el("span", "none", state.texts.no_melds || ""));
      for (const meld of side.melds) {
        const node = el("div", "meld" + (meld.canastra ? ` canastra-${meld.canastra}` : ""));
        node.dataset.meld = String(meld.index);
        node.dataset.side = String(side.side);
        node.appendChild(el("span", "n", `${meld.index + 1})`));
        for (const card of meld.cards) node.appendChild(cardNode(card));
        if (meld.canastra) node.appendChild(el("span", "canastra-tag", meld.canastra_label));
        const act = meldAction(view, side, meld.index);
        if (act) {
          node.classList.add("can-add");
          node.dataset.action = act.code;
          node.addEventListener("click", () => press(act.data));
        }
        melds.appendChild(node);
      }
      if (side.threes.length) {
        const threes = el("div", "meld threes");
        for (const card of side.threes) threes.appendChild(cardNode(card));
        melds.appendChild(threes);
      }
      box.appendChild(melds);
      table.appendChild(box);
    }
  }

  function renderCenter(view) {
    const pile = $("pile");
    pile.replaceChildren(el("span", "label", state.texts.pile || ""));
    pile.classList.toggle("blocked", !!view.pile.blocked);
    if (view.pile.cards.length) {
      for (const card of view.pile.cards) pile.appendChild(cardNode(card));
    } else if (view.pile.top) {
      pile.appendChild(cardNode(view.pile.top));
    } else {
      pile.appendChild(el("span", "empty", state.texts.empty_pile || ""));
    }
    pile.appendChild(el("span", "size", `(${view.pile.size})`));
    pile.dataset.size = String(view.pile.size);
    $("stock").textContent = `${state.texts.stock || ""}: ${view.stock}`;
    $("stock").dataset.count = String(view.stock);
    const mortos = $("mortos");
    mortos.hidden = view.mortos === null;
    mortos.textContent = view.mortos === null ? "" : `${state.texts.mortos || ""}: ${view.mortos}`;
  }

  function renderTimer(view) {
    clearInterval(state.timer);
    const timer = $("timer");
    timer.textContent = "";
    if (!view.deadline) return;
    const tick = () => {
      const left = Math.max(0, Math.round(view.deadline - (Date.now() / 1000 + state.offset)));
      timer.textContent = `${left}s`;
    };
    tick();
    state.timer = setInterval(tick, 1000);
  }

  function renderHand(view) {
    const box = $("hand-box");
    box.hidden = !view.hand;
    if (!view.hand) return;
    $("hand-title").textContent = view.hand.title;
    const cards = view.hand.cards.slice();
    if (state.sort === "rank") {
      cards.sort((a, b) => rankOf(a) - rankOf(b) || a.index - b.index);
    }
    $("sort-suit").classList.toggle("on", state.sort === "suit");
    $("sort-rank").classList.toggle("on", state.sort === "rank");
    const hand = $("hand");
    hand.replaceChildren();
    for (const card of cards) {
      const node = cardNode(card, "button");
      node.type = "button";
      node.dataset.cardIndex = String(card.index);
      if (card.selected) node.classList.add("selected");
      if (card.drawn) node.classList.add("drawn");
      if (card.group) node.appendChild(el("span", "g", String(card.group)));
      node.disabled = !card.data;
      node.addEventListener("click", () => press(card.data));
      hand.appendChild(node);
    }
    $("hand-lines").replaceChildren(...view.hand.lines.map((t) => el("p", null, t)));
    const actions = $("actions");
    actions.replaceChildren();
    for (const act of [...view.hand.actions, ...view.table_actions]) {
      const b = el("button", "action", act.label);
      b.type = "button";
      b.dataset.action = act.code;
      b.dataset.arg = act.arg;
      b.addEventListener("click", () => press(act.data));
      actions.appendChild(b);
    }
  }

  function setSort(kind) {
    state.sort = kind;
    if (state.view) renderHand(state.view);
  }

  // ---- start --------------------------------------------------------------------
  async function boot() {
    try {
      if (await openSession()) connect();
    } catch (e) {
      setState("offline");
      setTimeout(boot, 2000);
    }
  }

  function start() {
    $("sort-suit").addEventListener("click", () => setSort("suit"));
    $("sort-rank").addEventListener("click", () => setSort("rank"));
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "visible" && state.session) connect();
    });
    telegramExtras();
    boot();
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();

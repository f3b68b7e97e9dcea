// The web table's page (issues 27 and 34, docs/web.md): the launch, the session, the
// live connection and Telegram's Mini App features; drawing is draw.js. No build step,
// nothing loaded from elsewhere: Telegram's telegram-web-app.js is added only inside
// Telegram (theme colours, safe areas, haptics, back button, fullscreen), and the page
// works without it.
"use strict";

(function () {
  const $ = (id) => document.getElementById(id);
  const SESSIONS = "buraco-sessions";
  const FALLBACK = "Abra a mesa pelo botão do jogo, no Telegram ou no Discord.";
  const state = { session: null, game: null, version: 0, view: null, ws: null,
    nextId: 1, pending: new Map(), sort: "suit", retry: 0, refused: false,
    offset: 0, texts: {}, tg: null };

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
    haptic("error");
    clearTimeout(toastTimer);
    toastTimer = setTimeout(() => { box.hidden = true; }, 4000);
  }

  // ---- preferences (per person: this browser, and Telegram's CloudStorage) ------------
  function setFour(on, save) {
    document.body.classList.toggle("four", on);
    $("four").setAttribute("aria-pressed", on ? "true" : "false");
    if (!save) return;
    try { localStorage.setItem("buraco-four", on ? "1" : "0"); } catch (e) { /* private mode */ }
    const cloud = state.tg && state.tg.CloudStorage;
    if (cloud && state.tg.isVersionAtLeast && state.tg.isVersionAtLeast("6.9")) {
      try { cloud.setItem("four", on ? "1" : "0"); } catch (e) { /* optional */ }
    }
  }

  function loadPrefs() {
    try { setFour(localStorage.getItem("buraco-four") === "1", false); } catch (e) { /* none */ }
  }

  // ---- sessions: kept per game until they expire ------------------------------------------
  function payload(token) {
    try {
      const body = token.split(".")[0].replace(/-/g, "+").replace(/_/g, "/");
      return JSON.parse(atob(body + "=".repeat((4 - (body.length % 4)) % 4)));
    } catch (e) { return null; }
  }

  function sessions() {
    try { return JSON.parse(localStorage.getItem(SESSIONS) || "{}") || {}; } catch (e) { return {}; }
  }

  function savedFor(game) {
    const all = sessions();
    const now = Date.now() / 1000;
    for (const [g, token] of Object.entries(all)) {
      const p = payload(token);
      if (!p || p.e < now + 60) delete all[g];
    }
    try { localStorage.setItem(SESSIONS, JSON.stringify(all)); } catch (e) { /* none */ }
    if (game) return all[game] || null;
    const last = sessionStorage.getItem("buraco-game");
    return last ? all[last] || null : null;
  }

  function keep(game, token) {
    const all = sessions();
    all[game] = token;
    try { localStorage.setItem(SESSIONS, JSON.stringify(all)); } catch (e) { /* none */ }
    sessionStorage.setItem("buraco-game", game);
  }

  function forget() {
    const all = sessions();
    delete all[state.game];
    try { localStorage.setItem(SESSIONS, JSON.stringify(all)); } catch (e) { /* none */ }
  }

  // ---- launch -----------------------------------------------------------------------------
  function launchProof() {
    const hash = new URLSearchParams(location.hash.slice(1));
    const query = new URLSearchParams(location.search);
    let game = query.get("game") || hash.get("tgWebAppStartParam") || "";
    const token = hash.get("t");
    if (token) {
      const p = payload(token);
      return { token: token, game: (p && p.g) || game };
    }
    const tgData = hash.get("tgWebAppData") ||
      (window.Telegram && Telegram.WebApp && Telegram.WebApp.initData) || "";
    if (tgData) {
      const signed = new URLSearchParams(tgData);
      game = signed.get("start_param") || game;
      let lang = "";
      try { lang = JSON.parse(signed.get("user") || "{}").language_code || ""; } catch (e) { /* */ }
      return { initData: tgData, game: game, lang: lang };
    }
    return null;
  }

  async function post(body) {
    const res = await fetch("api/session", { method: "POST", body: JSON.stringify(body),
      headers: { "Content-Type": "application/json" } });
    let answer = null;
    try { answer = await res.json(); } catch (e) { answer = null; }
    if (!answer) {
      if (res.status >= 500) throw new Error("server");  // worth another try
      answer = { error: "bad_request", message: FALLBACK };
    }
    return { ok: res.ok, body: answer };
  }

  // ---- a Discord Activity (docs/web.md "Discord Activity") ------------------------------
  function activityMode() { return /\/activity\/?$/.test(location.pathname); }

  function loadScript(src) {
    return new Promise((resolve, reject) => {
      const s = document.createElement("script");
      s.src = src;
      s.onload = resolve;
      s.onerror = reject;
      document.head.appendChild(s);
    });
  }

  async function activitySession() {
    // the SDK inside Discord (its frame_id in the address), its mock outside it
    const config = await (await fetch("api/activity")).json();
    if (!config.client_id) { refuse(FALLBACK); return false; }
    await loadScript("static/vendor/discord-sdk.js");
    const lib = window.DiscordEmbeddedAppSDK;
    let sdk;
    if (new URLSearchParams(location.search).get("frame_id")) {
      sdk = new lib.DiscordSDK(config.client_id);
    } else {
      const mock = window.BURACO_ACTIVITY_MOCK || {};
      sdk = new lib.DiscordSDKMock(config.client_id, null, null, null);
      if (mock.code) sdk._updateCommandMocks({ authorize: async () => ({ code: mock.code }) });
      if (mock.instance) sdk.instanceId = mock.instance;
    }
    state.discord = sdk;
    await sdk.ready();
    const { code } = await sdk.commands.authorize({ client_id: config.client_id,
      response_type: "code", state: "", prompt: "none", scope: ["identify"] });
    const got = await post({ discord: { code: code, instance: sdk.instanceId } });
    if (!got.ok) { refuse(got.body.message || FALLBACK); return false; }
    state.session = got.body.session;
    state.game = got.body.game;
    return true;
  }

  async function openSession() {
    if (activityMode()) return activitySession();
    const proof = launchProof();
    const saved = savedFor(proof ? proof.game : null);
    let got;
    if (proof && proof.initData) {
      // the saved session, when it is this person's, spares the launch data's age check
      // (Telegram Desktop reopens with launch data hours old)
      got = await post({ initData: proof.initData, game: proof.game, lang: proof.lang,
        session: saved || undefined });
    } else if (saved) {
      state.session = saved;
      state.game = payload(saved).g;
      if (proof) history.replaceState(null, "", location.pathname + location.search);
      return true;
    } else {
      got = await post(proof ? { token: proof.token } : {});
    }
    if (!got.ok) {
      refuse(got.body.message || FALLBACK);
      return false;
    }
    state.session = got.body.session;
    state.game = got.body.game;
    // an invitation's link (start_param c<code>, issue 35) finds its session on a reload
    if (proof && proof.game && proof.game !== got.body.game) keep(proof.game, got.body.session);
    keep(got.body.game, got.body.session);
    if (proof && proof.token) history.replaceState(null, "", location.pathname + location.search);
    return true;
  }

  function refuse(text) {
    state.refused = true;
    setState("refused");
    showMessage(text);
    $("hand-box").hidden = true;
    $("dock").classList.add("empty");
  }

  // ---- connection -------------------------------------------------------------------------
  function connect() {
    if (state.refused || !state.session || (state.ws && state.ws.readyState <= 1)) return;
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
      if (state.ws === ws) state.ws = null;
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
      state.view = msg.view;
      state.texts = msg.view.texts || {};
      draw();
      if (msg.view.my_turn && !state.wasMyTurn) haptic("turn");
      state.wasMyTurn = !!msg.view.my_turn;
    } else if (msg.type === "reply") {
      state.pending.delete(msg.id);
      toast(msg.text);
    } else if (msg.type === "done") {
      state.pending.delete(msg.id);
    } else if (msg.type === "error") {
      forget();
      refuse(msg.message);
    } else if (msg.type === "gone") {
      refuse(state.texts.gone || "—");
    }
  }

  function press(data, kind) {
    if (!data || !state.ws || state.ws.readyState !== 1) return;
    for (const pending of state.pending.values()) if (pending === data) return; // a double tap
    const id = state.nextId++;
    state.pending.set(id, data);
    haptic(kind || "press");
    state.ws.send(JSON.stringify({ type: "press", id: id, data: data }));
  }

  function draw() {
    if (!state.view) return;
    BuracoDraw.render(state.view, { press: press, sort: state.sort, offset: state.offset,
      message: showMessage });
  }

  // ---- Telegram ---------------------------------------------------------------------------
  function haptic(kind) {
    const h = state.tg && state.tg.HapticFeedback;
    if (!h || !state.tg.isVersionAtLeast || !state.tg.isVersionAtLeast("6.1")) return;
    try {
      if (kind === "select") h.selectionChanged();
      else if (kind === "error") h.notificationOccurred("error");
      else if (kind === "turn") h.notificationOccurred("success");
      else h.impactOccurred("light");
    } catch (e) { /* optional */ }
  }

  function safeArea() {
    // Telegram's insets (CSS env() is 0 inside it): the device's plus its own controls'
    const app = state.tg;
    const root = document.documentElement.style;
    const a = app.safeAreaInset || {}, c = app.contentSafeAreaInset || {};
    for (const side of ["top", "bottom", "left", "right"]) {
      root.setProperty(`--safe-${side}`, `${(a[side] || 0) + (c[side] || 0)}px`);
    }
    if (app.viewportStableHeight) root.setProperty("--app-height", `${app.viewportStableHeight}px`);
    BuracoDraw.relayout();
  }

  function telegram() {
    const app = window.Telegram && window.Telegram.WebApp;
    if (!app) return;
    state.tg = app;
    try {
      app.ready();
      app.expand();
      const at = (v) => app.isVersionAtLeast && app.isVersionAtLeast(v);
      if (at("7.7") && app.disableVerticalSwipes) app.disableVerticalSwipes();
      if (at("8.0") && ["android", "ios"].includes(app.platform) && app.requestFullscreen) {
        try { app.requestFullscreen(); } catch (e) { /* the compact layout works too */ }
      }
      if (at("6.1") && app.BackButton) {
        app.BackButton.show();
        app.BackButton.onClick(() => app.close());
      }
      safeArea();
      for (const ev of ["safeAreaChanged", "contentSafeAreaChanged", "viewportChanged",
        "fullscreenChanged"]) app.onEvent(ev, safeArea);
      app.onEvent("activated", () => { document.body.classList.remove("paused"); connect(); });
      app.onEvent("deactivated", () => document.body.classList.add("paused"));
      if (at("6.9") && app.CloudStorage) {
        app.CloudStorage.getItem("four", (err, value) => {
          if (!err && (value === "1" || value === "0")) setFour(value === "1", false);
        });
      }
    } catch (e) { /* the page works without it */ }
  }

  function telegramExtras() {
    if (!location.hash.includes("tgWebAppData")) return;
    if (window.Telegram && window.Telegram.WebApp) { telegram(); return; }  // already there
    const s = document.createElement("script");
    s.src = "https://telegram.org/js/telegram-web-app.js";
    s.async = true;
    s.onload = telegram;
    document.head.appendChild(s);
  }

  // ---- start ------------------------------------------------------------------------------
  async function boot() {
    try {
      if (await openSession()) connect();
    } catch (e) {  // the server could not be reached: try again
      setState("offline");
      setTimeout(boot, 2000);
    }
  }

  function setSort(kind) {
    state.sort = kind;
    draw();
  }

  function start() {
    loadPrefs();
    $("sort-suit").addEventListener("click", () => setSort("suit"));
    $("sort-rank").addEventListener("click", () => setSort("rank"));
    $("four").addEventListener("click", () => setFour(!document.body.classList.contains("four"), true));
    $("narration").addEventListener("click", () => {
      $("log").classList.toggle("open");
      $("log-list").hidden = !$("log").classList.contains("open");
    });
    $("narration").addEventListener("keydown", (ev) => {
      if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); $("narration").click(); }
    });
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "visible" && state.session) connect();
    });
    window.addEventListener("resize", () => BuracoDraw.relayout());
    telegramExtras();
    boot();
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();

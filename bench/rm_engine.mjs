// RM's engine (rafaelmuylaert/buraco, MIT, GameEngines/Buraco.js) timed on random legal
// play and on applying recorded moves, for bench/rm_engine.py (issue 37).
// Usage: node bench/rm_engine.mjs RM_CHECKOUT ; then one JSON task a line on stdin:
//   ["play", players, deals, replays, seed]  ->  one JSON line of figures on stdout.
// The checkout is read-only: Buraco.js is copied into a temporary directory and imported
// alone (no WASM scoring hooks: the plain JS engine, as RM's server runs it).
// Random player (RM's own move generation, generateAllValidMelds): in the draw phase,
// with probability 1/2 a pick-up uniformly among the candidates that use the pile's top
// card, else a draw; in the play phase, with probability 0.85 a meld or extension
// uniformly among generateAllValidMelds' candidates, else (or if none) a discard of a
// uniformly chosen hand card. A candidate RM's engine refuses is dropped and another
// drawn. checkGameOver runs after every move, as boardgame.io's endIf does.
import fs from 'fs';
import os from 'os';
import path from 'path';
import readline from 'readline';
import { pathToFileURL } from 'url';

const rm = process.argv[2];
if (!rm) { process.stderr.write('usage: node rm_engine.mjs RM_CHECKOUT\n'); process.exit(2); }
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'rm_engine-'));
process.on('exit', () => fs.rmSync(tmp, { recursive: true, force: true }));
fs.writeFileSync(path.join(tmp, 'package.json'), '{"type":"module"}');
fs.copyFileSync(path.join(rm, 'GameEngines/Buraco.js'), path.join(tmp, 'Buraco.js'));
console.log = (...a) => process.stderr.write(a.join(' ') + '\n');
const B = await import(pathToFileURL(path.join(tmp, 'Buraco.js')).href);
const meta = JSON.parse(fs.readFileSync(path.join(rm, 'buraco-server/bots/BotRafa.meta.json'), 'utf8'));

function mulberry32(a) {  // seeded uniform [0, 1)
    return () => {
        a |= 0; a = (a + 0x6D2B79F5) | 0;
        let t = Math.imul(a ^ (a >>> 15), 1 | a);
        t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
        return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
}
function shuffle(arr, rnd) {
    for (let i = arr.length - 1; i > 0; i--) {
        const j = Math.floor(rnd() * (i + 1));
        [arr[i], arr[j]] = [arr[j], arr[i]];
    }
    return arr;
}
const pick = (arr, rnd) => arr.splice(Math.floor(rnd() * arr.length), 1)[0];

function setup(players, rnd) {  // BuracoGame.setup with a seeded shuffle
    const rules = { ...meta.rules, numPlayers: players, debugLog: false };
    return B.BuracoGame.setup({ random: { Shuffle: (d) => shuffle(d, rnd) }, ctx: { numPlayers: players } }, rules);
}

function target(c) {
    if (c.moveType === 'appendRunner') return { type: 'runner', index: c.targetSlot };
    if (c.moveType === 'appendToMeld') return { type: 'seq', suit: c.targetSuit, index: c.targetSlot };
    return null;
}

// One move on G for player p; returns the recorded move or null (refused).
function doMove(G, m) {
    const [kind, p, a, b] = m;
    if (kind === 'draw') return B.moveDrawCard(G, p);
    if (kind === 'pickup') return B.movePickUpDiscard(G, p, a, b);
    if (kind === 'meld') return B.moveMeld(G, p, a, b);
    if (kind === 'discard') return B.moveDiscardCard(G, p, a);
    G.isExhausted = true; return true;  // 'exhaust'
}

function randomDeal(G, rnd) {
    const moves = [];
    const n = G.rules.numPlayers;
    let turn = 0;
    const play = (m) => { if (!doMove(G, m)) return false; moves.push(m); return true; };
    for (let guard = 0; guard < 5000; guard++) {
        const p = String(turn), team = G.teams[p];
        // draw phase
        let done = false;
        if (G.discardPile.length && rnd() < 0.5) {
            const cands = B.generateAllValidMelds(G, p, team, G.discardPile[G.discardPile.length - 1]);
            while (cands.length && !done) {
                const c = pick(cands, rnd), t = target(c);
                done = play(['pickup', p, c.cardCounts, t ? { type: 'append', meldTarget: t } : { type: 'new' }]);
            }
        }
        if (!done && !play(['draw', p])) { play(['exhaust', p]); break; }
        if (B.checkGameOver(G)) break;
        // play phase
        let over = false;
        for (;;) {
            if (rnd() < 0.85) {
                const cands = B.generateAllValidMelds(G, p, team, null);
                let melded = false;
                while (cands.length && !melded) {
                    const c = pick(cands, rnd);
                    melded = play(['meld', p, c.cardCounts, target(c)]);
                }
                if (melded) { if (B.checkGameOver(G)) { over = true; break; } continue; }
            }
            const hand = [];
            for (let i = 0; i < 54; i++) if (G.cards[p][i]) hand.push(i);
            // going out by a discard needs the morto or a clean canastra (mortoSafe)
            if (G.handSizes[p] === 1 && !B.mortoSafe(G, team, 0)) { play(['exhaust', p]); over = true; break; }
            play(['discard', p, pick(hand, rnd)]);
            over = !!B.checkGameOver(G);
            break;
        }
        if (over) break;
        turn = (turn + 1) % n;
    }
    return moves;
}

const lines = readline.createInterface({ input: process.stdin });
for await (const line of lines) {
    const [kind, players, deals, replays, seed] = JSON.parse(line);
    if (kind !== 'play') continue;
    const rnd = mulberry32(seed), deckRnd = mulberry32(seed + 1);
    const starts = [];
    for (let i = 0; i < deals; i++) starts.push(setup(players, deckRnd));
    const firsts = starts.map((s) => structuredClone(s));
    let t0 = performance.now();
    const played = starts.map((s) => randomDeal(s, rnd));
    const playS = (performance.now() - t0) / 1000;
    const moves = played.reduce((a, m) => a + m.length, 0);
    const stuck = played.filter((m) => m[m.length - 1][0] === 'exhaust').length;
    const copies = [];
    for (const f of firsts) for (let r = 0; r < replays; r++) copies.push(structuredClone(f));
    t0 = performance.now();
    let bad = 0;
    for (let i = 0; i < copies.length; i++) {
        const G = copies[i];
        for (const m of played[Math.floor(i / replays)]) {
            if (!doMove(G, m)) bad++;
            B.checkGameOver(G);
        }
    }
    const replayS = (performance.now() - t0) / 1000;
    process.stdout.write(JSON.stringify({
        moves, deals_s: deals / playS, moves_s: moves / playS,
        replay_moves_s: moves * replays / replayS, replay_deals_s: deals * replays / replayS,
        exhausted: stuck, replay_refused: bad,
    }) + '\n');
}

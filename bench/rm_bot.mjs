// BotRafa's own move selection (rafaelmuylaert/buraco, MIT) behind a JSON-lines pipe,
// for bench/vs_rm.py (issue 37). Usage: node bench/rm_bot.mjs RM_CHECKOUT
//
// RM's checkout is used read-only: GameEngines/Buraco.js and BotEngines/wasm_loader.js
// are copied into a temporary directory with the loader's package import
// ('@buraco/game/Buraco.js') pointed at the copy, and BotEngines/nn_engine.wasm is
// copied as nn_engine_new.wasm, the name the loader looks for at RM's HEAD (1e89683).
// Weights: buraco-server/bots/BotRafa.json, net shape from BotRafa.meta.json.
//
// Protocol (one JSON object a line; stdout carries only the protocol, RM's own console
// output goes to stderr):
//   in : {"op":"turn","seat":"1","state":G}   G: the seat's view in RM's format
//   out: {"op":"move","kind":"draw"|"pickup"|"meld"|"append"|"discard"|"exhaust",
//         "cards":{id:n}, "target":{...}, "card":id}
//   in : {"ok":true|false,"state":G}          the referee's answer and the new view
//   out: {"op":"done","self_refused":n,"ms":t} the turn is over (ms: RM's own compute)
//   out: {"op":"ready",...}                  once, when the weights are loaded
// Before a move is sent, RM's own engine checks it on a copy of the view (moveMeld,
// movePickUpDiscard, moveDiscardCard); RM's turn loop offers candidates that its
// engine refuses by design (stale after an earlier meld) and those are answered here
// as RM's engine would, counted in self_refused. Draws are always sent (the stock is
// hidden).
import fs from 'fs';
import os from 'os';
import path from 'path';
import readline from 'readline';
import { pathToFileURL } from 'url';

const trace = process.env.VS_RM_TRACE ? (m) => process.stderr.write(`${Date.now()} ${m}\n`) : () => {};
const out = (obj) => { trace(`out ${obj.op} ${obj.kind ?? ''}`); process.stdout.write(JSON.stringify(obj) + '\n'); };
console.log = (...a) => process.stderr.write(a.join(' ') + '\n');
console.warn = console.log;

const rm = process.argv[2];
if (!rm) { process.stderr.write('usage: node rm_bot.mjs RM_CHECKOUT\n'); process.exit(2); }
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'rm_bot-'));
process.on('exit', () => fs.rmSync(tmp, { recursive: true, force: true }));
fs.writeFileSync(path.join(tmp, 'package.json'), '{"type":"module"}');
fs.copyFileSync(path.join(rm, 'GameEngines/Buraco.js'), path.join(tmp, 'Buraco.js'));
const loader = fs.readFileSync(path.join(rm, 'BotEngines/wasm_loader.js'), 'utf8')
    .replace("'@buraco/game/Buraco.js'", "'./Buraco.js'");
fs.writeFileSync(path.join(tmp, 'wasm_loader.js'), loader);
const wasmNew = path.join(rm, 'BotEngines/nn_engine_new.wasm');
const wasm = fs.existsSync(wasmNew) ? wasmNew : path.join(rm, 'BotEngines/nn_engine.wasm');
fs.copyFileSync(wasm, path.join(tmp, 'nn_engine_new.wasm'));

const game = await import(pathToFileURL(path.join(tmp, 'Buraco.js')).href);
const W = await import(pathToFileURL(path.join(tmp, 'wasm_loader.js')).href);
if (!await W.initWasm()) { process.stderr.write('rm_bot: WASM engine did not load\n'); process.exit(3); }
W.setDiagnosticLog(0);
const bots = path.join(rm, 'buraco-server/bots');
const meta = JSON.parse(fs.readFileSync(path.join(bots, 'BotRafa.meta.json'), 'utf8'));
W.setActiveNetConfig(meta.netParams || game.DEFAULT_NET_PARAMS);
const dna = new Float32Array(JSON.parse(fs.readFileSync(path.join(bots, 'BotRafa.json'), 'utf8')));
W.loadMatchDNA(dna, dna);  // both team slots: the seat's team picks its slot
out({ op: 'ready', wasm: path.basename(wasm), weights: dna.length });

const lines = readline.createInterface({ input: process.stdin })[Symbol.asyncIterator]();
async function read() {
    const { value, done } = await lines.next();
    if (done) process.exit(0);
    trace(`in ${value.length}`);
    return JSON.parse(value);
}

let waitMs = 0;
function fromView(G) {  // RM's engine mutates arrays: plain copies
    G.discardPile = Array.from(G.discardPile);
    return G;
}
function ownCheck(S, p, kind, a, b) {  // RM's own engine on a copy of the view
    const C = structuredClone(S);
    if (kind === 'pickup') return game.movePickUpDiscard(C, p, a, b);
    if (kind === 'meld') return game.moveMeld(C, p, a);
    if (kind === 'append') return game.moveMeld(C, p, a, b);
    if (kind === 'discard') return game.moveDiscardCard(C, p, a);
    return true;
}

let selfRefused = 0;
function iface(S, p) {
    const send = async (msg, check) => {
        if (check && !check()) { selfRefused++; return false; }
        const t0 = performance.now();
        out({ op: 'move', ...msg });
        const ans = await read();
        waitMs += performance.now() - t0;
        Object.assign(S, fromView(ans.state));
        return !!ans.ok;
    };
    return {
        refreshState: () => {},
        isMyTurn: () => true,
        draw: () => send({ kind: 'draw' }),
        exhaust: () => send({ kind: 'exhaust' }),
        pickup: (cc, tgt) => send({ kind: 'pickup', cards: cc, target: tgt },
            () => ownCheck(S, p, 'pickup', cc, tgt)),
        meld: (cc) => send({ kind: 'meld', cards: cc }, () => ownCheck(S, p, 'meld', cc)),
        append: (tgt, cc) => send({ kind: 'append', cards: cc, target: tgt },
            () => ownCheck(S, p, 'append', cc, tgt)),
        discard: (id) => send({ kind: 'discard', card: id }, () => ownCheck(S, p, 'discard', id)),
    };
}

for (;;) {
    const msg = await read();
    if (msg.op !== 'turn') continue;
    const S = fromView(msg.state);
    const p = String(msg.seat);
    selfRefused = 0; waitMs = 0;
    const t0 = performance.now();
    let error = null;
    try {
        await W.runTurn(S, p, iface(S, p));
    } catch (e) {
        error = String(e?.stack || e);
    }
    out({ op: 'done', self_refused: selfRefused, ms: performance.now() - t0 - waitMs, error });
}

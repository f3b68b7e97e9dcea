// Starts the telegram-test-api Bot API emulator on 127.0.0.1:<port> for the e2e tests.
//
// Usage: node tests/e2e/emulator.js <port> [<bot user id>]
// Prints "READY <port>" on stdout once listening; stops on SIGTERM/SIGINT.
//
// Six test-harness fixes to the emulator (4.2.1), none of which touch the bot:
//  * bot messages come back with `date` in milliseconds; Telegram (and python-telegram-bot)
//    use seconds, so the returned Message is given a seconds timestamp;
//  * getMe lacks the required `is_bot`; it is answered with a complete bot User;
//  * webhook deliveries carry the secret header, stay in the history, and are sent again
//    while not answered 2xx, as Telegram does (GET /_deliveries lists them);
//  * edits, answers and deletions return `result: null` where Telegram returns `true`;
//  * callback-query updates lack the required `chat_instance` field; one is added;
//  * every Bot API request (/bot<token>/<method>; getUpdates only once) is recorded with
//    its time and body and can be read back at GET /_calls, so a test can check that every
//    callback query was answered and count calls and group edits. POST /_reset clears it.
'use strict';

const path = require('path');

const root = path.resolve(__dirname, '..', '..', 'node_modules', 'telegram-test-api', 'lib');
const loggerModule = require(path.join(root, 'modules', 'requestLogger'));

const calls = [];
// The emulator's getMe omits the required `is_bot`; answer it here with a complete User.
const BOT_USER = {
  id: Number(process.argv[3]) || 666,
  is_bot: true,
  first_name: 'Buraco',
  username: 'BuracoTestBot',
  can_join_groups: true, can_read_all_group_messages: false, supports_inline_queries: false,
};
const botPath = /^\/bot([^/]+)\/([A-Za-z]+)$/;

loggerModule.requestLogger = (req, res, next) => {
  const url = req.originalUrl.split('?')[0];
  if (req.method === 'GET' && url === '/_calls') {
    res.json({ ok: true, result: calls });
    return;
  }
  if (req.method === 'GET' && url === '/_deliveries') {
    res.json({ ok: true, result: deliveries });
    return;
  }
  if (req.method === 'POST' && url === '/_reset') {
    calls.length = 0;
    res.json({ ok: true, result: true });
    return;
  }
  const match = botPath.exec(url);
  if (match) {
    // getUpdates is polled many times a second: only the first poll is recorded.
    if (match[2] !== 'getUpdates' || !calls.some((c) => c.method === 'getUpdates')) {
      calls.push({ time: Date.now() / 1000, method: match[2], body: req.body || {} });
    }
    if (match[2] === 'getMe') {
      res.json({ ok: true, result: BOT_USER });
      return;
    }
    // Several routes answer `result: null` where Telegram answers `true`.
    const json = res.json.bind(res);
    res.json = (body) => json(body && body.ok === true && body.result === null
      ? { ...body, result: true } : body);
  }
  next();
};

const { TelegramServer } = require(path.join(root, 'telegramServer'));

const originalAddBotMessage = TelegramServer.prototype.addBotMessage;
TelegramServer.prototype.addBotMessage = function addBotMessage(rawMessage, botToken) {
  const msg = originalAddBotMessage.call(this, rawMessage, botToken);
  msg.date = Math.floor(msg.date / 1000);
  const chatId = Number(msg.chat.id);
  msg.chat = chatId < 0
    ? { id: chatId, type: 'group', title: 'Mesa' }
    : { id: chatId, type: 'private', first_name: 'Player' };
  return msg;
};

// Webhook deliveries: like Telegram, send the secret given to setWebhook in the
// X-Telegram-Bot-Api-Secret-Token header (the emulator sends none), and, like Telegram,
// send an update again while the answer is not a 2xx (an error status, a refused or
// dropped connection): after 0.1, 0.2, ... up to 1 s, for up to 60 s. Deliveries run in
// the background (Telegram's do too). Every delivery is kept and
// read back at GET /_deliveries: {update_id, statuses (per attempt), delivered}.
const axios = require(path.join(root, '..', '..', 'axios'));
const deliveries = [];
const sleep = (ms) => new Promise((resolve) => { setTimeout(resolve, ms); });
async function attempt(webhook, data, record) {
  const headers = webhook.secret_token
    ? { 'X-Telegram-Bot-Api-Secret-Token': webhook.secret_token } : {};
  try {
    const answer = await axios({ url: webhook.url, method: 'POST', headers, data,
      timeout: 30000, validateStatus: () => true });
    record.statuses.push(answer.status);
    record.delivered = answer.status >= 200 && answer.status < 300;
  } catch (error) {
    record.statuses.push(String(error.code || error.message));
  }
  return record.delivered;
}
async function redeliver(webhook, data, record) {
  const until = Date.now() + 60000;
  for (let n = 1; Date.now() < until; n += 1) {
    await sleep(Math.min(100 * n, 1000));
    if (await attempt(webhook, data, record)) return;
  }
  process.stderr.write(`webhook delivery of ${data.update_id} given up\n`);
}
TelegramServer.prototype.addUserUpdate = function addUserUpdate(update) {
  const webhook = this.webhooks[update.botToken];
  if (!webhook) {
    this.storage.userMessages.push(update);
  } else {
    const data = TelegramServer.formatUpdate(update);
    const record = { update_id: data.update_id, statuses: [], delivered: false };
    deliveries.push(record);
    // in the background: the emulator's callers number updates and callback queries
    // after this returns, so nothing may be awaited here (two presses sent at once
    // would get the same ids); a bot that answers after handling takes a while
    attempt(webhook, data, record).then((done) => {
      if (!done) {
        redeliver(webhook, data, record);
      }
    });
    this.storage.userMessages.push({ ...update, isRead: true });  // kept for the history
  }
  this.updateId++;
};

const originalFormatUpdate = TelegramServer.formatUpdate;
TelegramServer.formatUpdate = function formatUpdate(update) {
  const formatted = originalFormatUpdate.call(this, update);
  if (formatted.callback_query) {
    const chat = formatted.callback_query.message && formatted.callback_query.message.chat;
    formatted.callback_query.chat_instance = String(chat ? chat.id : 0);
  }
  return formatted;
};

async function main() {
  const port = Number(process.argv[2]);
  if (!Number.isInteger(port) || port <= 0) {
    process.stderr.write('usage: node emulator.js <port>\n');
    process.exit(2);
  }
  const server = new TelegramServer({ port, host: '127.0.0.1', storeTimeout: 3600 });
  await server.start();
  process.stdout.write(`READY ${port}\n`);
  const stop = async () => {
    await server.stop();
    process.exit(0);
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

main().catch((error) => {
  process.stderr.write(`${error.stack || error}\n`);
  process.exit(1);
});

// The Node peer of bench/peers: `rpc.health` and a validated `tatra.executePayment` over
// newline-delimited JSON-RPC 2.0 on TCP, with Node's standard library only (net, JSON).
//
// Usage: node peer.js --port N --schema Schemas/models/tatra.ExecutePaymentParams.json
//                     --sandbox Sources/TatraService/Resources/tatra-sandbox.json
// Prints `listening PORT` once bound (port 0 picks one). It checks what peer.py checks, in the same
// order (docs/benchmarks.md, "Beside the peers").
'use strict';
const fs = require('fs');
const net = require('net');

function option(name) {
  const index = process.argv.indexOf(name);
  if (index < 0 || index + 1 >= process.argv.length) {
    if (name === '--port') return '0';
    console.error(`peer.js: ${name} is required`);
    process.exit(2);
  }
  return process.argv[index + 1];
}

const schema = JSON.parse(fs.readFileSync(option('--schema'), 'utf8'));
const sandbox = JSON.parse(fs.readFileSync(option('--sandbox'), 'utf8'));
const setup = sandbox.setup;
const PARAMS = new Set(['amount', 'contact', 'recepient', 'reference', 'messageForRecipient']);
const CONTACT = new Set(['fullName', 'phones', 'phone', 'image', 'icon']);
const amountPattern = new RegExp(schema.properties.amount.pattern, 'u');
const amountMessage = 'must be ' + schema.properties.amount['x-format'];
const phonePattern = new RegExp(setup.phoneValidationRegex, 'u');
const descriptionPattern = new RegExp(setup.descriptionValidationRegex, 'u');
const texts = sandbox.texts;

// The amount in cents when it has at most two decimals (trailing zeros aside); else null.
function cents(text) {
  const negative = text.startsWith('-');
  const [whole, fraction = ''] = text.replace(/^-/, '').split('.');
  const kept = fraction.replace(/0+$/, '');
  if (kept.length > 2) return null;
  const value = BigInt(whole) * 100n + BigInt(kept.padEnd(2, '0'));
  return negative ? -value : value;
}
// `a` compared with `b` as exact decimals (the message of amountLimit only).
function compareDecimal(a, b) {
  const scale = (t) => (t.split('.')[1] || '').length;
  const s = Math.max(scale(a), scale(b));
  const units = (t) => {
    const negative = t.startsWith('-');
    const [w, f = ''] = t.replace(/^-/, '').split('.');
    const v = BigInt(w) * 10n ** BigInt(s) + BigInt(f.padEnd(s, '0') || '0');
    return negative ? -v : v;
  };
  const x = units(a), y = units(b);
  return x < y ? -1 : x > y ? 1 : 0;
}
const minCents = cents(setup.minTransactionAmount);
const maxCents = cents(setup.maxTransactionAmount);

function twoDecimals(value) {
  const sign = value < 0n ? '-' : '';
  const v = value < 0n ? -value : value;
  return `${sign}${v / 100n}.${String(v % 100n).padStart(2, '0')}`;
}

function kind(value) {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}
function violation(out, pointer, keyword, message) {
  out.push({ pointer, keyword, message });
}
function checkString(out, pointer, value) {
  if (typeof value !== 'string') {
    violation(out, pointer, 'type', `expected string, found ${kind(value)}`);
    return false;
  }
  return true;
}
const has = (object, key) => Object.prototype.hasOwnProperty.call(object, key);

function checkContact(out, pointer, contact) {
  if (kind(contact) !== 'object') {
    violation(out, pointer, 'type', `expected object, found ${kind(contact)}`);
    return null;
  }
  for (const key of Object.keys(contact)) {
    if (!CONTACT.has(key)) violation(out, `${pointer}/${key}`, 'additionalProperties', `member "${key}" is not allowed`);
  }
  if (!has(contact, 'fullName')) violation(out, pointer, 'required', 'missing required member "fullName"');
  else if (checkString(out, pointer + '/fullName', contact.fullName) && [...contact.fullName].length < 1) {
    violation(out, pointer + '/fullName', 'minLength', 'must be at least 1 character long');
  }
  let phones = has(contact, 'phones') ? contact.phones : undefined;
  const phone = has(contact, 'phone') ? contact.phone : undefined;
  if (phones !== undefined && phone !== undefined) violation(out, pointer, 'not', 'must not match the schema of not');
  else if (phones === undefined && phone === undefined) {
    violation(out, pointer, 'required', 'missing required member "phones" (or Android\'s "phone")');
  }
  if (phones !== undefined) {
    if (!Array.isArray(phones)) violation(out, pointer + '/phones', 'type', `expected array, found ${kind(phones)}`);
    else phones.forEach((item, index) => checkString(out, `${pointer}/phones/${index}`, item));
  } else if (phone !== undefined && checkString(out, pointer + '/phone', phone)) {
    phones = [phone];
  }
  if (has(contact, 'image') && has(contact, 'icon')) violation(out, pointer, 'not', 'must not match the schema of not');
  for (const key of ['image', 'icon']) if (has(contact, key)) checkString(out, `${pointer}/${key}`, contact[key]);
  return phones;
}

function tatraError(code, message, type, status, title, text) {
  return { code, message, data: { type, status, fatal: false, title, message: text } };
}
const paymentError = (text) =>
  tatraError(-33002, 'Execute payment error', 'executePayment', 'INVALID_ARGUMENT', texts.executePayment, text);

// [result, error]: the confirmation text, or a JSON-RPC error object.
function executePayment(params) {
  const out = [];
  if (params === undefined) params = {};
  if (kind(params) !== 'object') {
    violation(out, '', 'type', `expected object, found ${kind(params)}`);
    return [null, { code: -32602, message: 'Invalid params', data: { violations: out } }];
  }
  const amount = has(params, 'amount') ? params.amount : undefined;
  if (amount === undefined) violation(out, '', 'required', 'missing required member "amount"');
  const hasContact = has(params, 'contact'), hasRecepient = has(params, 'recepient');
  if (!hasContact && !hasRecepient) {
    violation(out, '', 'required', 'missing required member "contact" (or Android\'s "recepient")');
  } else if (hasContact && hasRecepient) violation(out, '', 'not', 'must not match the schema of not');
  if (has(params, 'reference') && has(params, 'messageForRecipient')) {
    violation(out, '', 'not', 'must not match the schema of not');
  }
  for (const key of Object.keys(params)) {
    if (!PARAMS.has(key)) violation(out, '/' + key, 'additionalProperties', `member "${key}" is not allowed`);
  }
  if (amount !== undefined && checkString(out, '/amount', amount) && !amountPattern.test(amount)) {
    violation(out, '/amount', 'pattern', amountMessage);
  }
  let name = null, phones = null, reference = null;
  for (const key of ['contact', 'recepient']) {
    if (has(params, key)) {
      phones = checkContact(out, '/' + key, params[key]);
      name = kind(params[key]) === 'object' ? params[key].fullName : null;
    }
  }
  for (const key of ['reference', 'messageForRecipient']) {
    if (has(params, key) && checkString(out, '/' + key, params[key])) reference = params[key];
  }
  if (out.length) return [null, { code: -32602, message: 'Invalid params', data: { violations: out } }];
  const value = cents(amount);
  if (value === null || value < minCents || value > maxCents) {
    const inRange =
      compareDecimal(amount, setup.minTransactionAmount) >= 0 && compareDecimal(amount, setup.maxTransactionAmount) <= 0;
    const text = inRange
      ? 'The amount may have at most two decimals.'
      : `The amount must be from ${setup.minTransactionAmount} to ${setup.maxTransactionAmount} ${sandbox.currency}.`;
    return [null, tatraError(-33003, 'Amount limit', 'amountLimit', 'OUT_OF_RANGE', texts.amountLimit, text)];
  }
  if (!phones || phones.length === 0) return [null, paymentError('The recipient has no phone number.')];
  const phone = phones[0];
  if (!phonePattern.test(phone)) return [null, paymentError(`The recipient's phone number ${phone} is not valid.`)];
  if (phone === sandbox.owner.phone) {
    return [null, tatraError(-33004, 'Same recipient', 'sameRecipient', 'INVALID_ARGUMENT', texts.sameRecipient,
      'The recipient is your own phone number.')];
  }
  if (reference !== null) {
    // A JavaScript string's length is in UTF-16 units, as the limit is.
    if (reference.length > setup.descriptionValidationLength) {
      return [null, paymentError(`The reference may have at most ${setup.descriptionValidationLength} characters.`)];
    }
    if (!descriptionPattern.test(reference)) {
      return [null, paymentError('The reference contains characters that are not allowed.')];
    }
  }
  const text = texts.paymentConfirmation.replace('{amount}', twoDecimals(value)).replace('{currency}', sandbox.currency)
    .replace('{name}', name).replace('{phone}', phone);
  return [text, null];
}

// The response line to one request line, or null for a notification.
function answer(line) {
  let request;
  try {
    request = JSON.parse(line);
  } catch {
    return '{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}\n';
  }
  if (kind(request) !== 'object') return '{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request"}}\n';
  const id = has(request, 'id') ? request.id : null;
  if (request.jsonrpc !== '2.0' || typeof request.method !== 'string') {
    return JSON.stringify({ jsonrpc: '2.0', id, error: { code: -32600, message: 'Invalid Request' } }) + '\n';
  }
  if (!has(request, 'id')) return null;
  const params = request.params;
  let result = null, error = null;
  if (request.method === 'rpc.health') {
    if (params === undefined || (kind(params) === 'object' && Object.keys(params).length === 0)) {
      return `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":{"status":"SERVING"}}\n`;
    }
    error = { code: -32602, message: 'Invalid params' };
  } else if (request.method === 'tatra.executePayment') {
    [result, error] = executePayment(params);
  } else {
    error = { code: -32601, message: 'Method not found' };
  }
  return JSON.stringify(error ? { jsonrpc: '2.0', id, error } : { jsonrpc: '2.0', id, result }) + '\n';
}

const server = net.createServer((socket) => {
  let pending = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk) => {
    const lines = (pending + chunk).split('\n');
    pending = lines.pop();
    let out = '';
    for (const line of lines) {
      if (line.trim() === '') continue;
      const response = answer(line);
      if (response !== null) out += response;
    }
    if (out) socket.write(out);
  });
  socket.on('error', () => socket.destroy());
});
server.listen(Number(option('--port')), '127.0.0.1', () => {
  process.stdout.write(`listening ${server.address().port}\n`);
});
process.on('SIGTERM', () => process.exit(0));

// The HornetQ console page: plain JavaScript, no build step, no framework. Every value from the
// broker (queue names, client ids, message properties and bodies, all chosen by clients) is put
// in the page with textContent, never parsed as HTML, so a queue named `<img onerror=...>` shows
// as those characters. The server's Content-Security-Policy forbids inline scripts as a second wall.

const POLL_MS = 2000;
const MESSAGE_LIMIT = 50;

/** The logged-in session: { user, csrfToken, view, manage, managementAddress }, or null. */
let session = null;
/** The queue whose messages are shown, or null. */
let openQueue = null;
let pollTimer = null;

const $ = (id) => document.getElementById(id);

class ApiError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

/** Calls the JSON API; a POST carries the session's CSRF token. Rejects with an ApiError. */
async function api(method, path, body) {
  const headers = { Accept: 'application/json' };
  if (method === 'POST') {
    headers['Content-Type'] = 'application/json';
    if (session?.csrfToken) headers['X-CSRF-Token'] = session.csrfToken;
  }
  const response = await fetch(`/api/${path}`, {
    method,
    headers,
    credentials: 'same-origin',
    body: method === 'POST' ? JSON.stringify(body ?? {}) : undefined,
  });
  const answer = await response.json().catch(() => ({ error: response.statusText }));
  if (!response.ok) throw new ApiError(response.status, answer.error ?? response.statusText);
  return answer;
}

const q = (name) => encodeURIComponent(name);

/** A table cell holding `value` as text. */
function cell(value, className) {
  const td = document.createElement('td');
  td.textContent = value === null || value === undefined ? '' : String(value);
  if (className) td.className = className;
  return td;
}

const number = (value) => cell(value, 'number');
const rate = (value) => cell(value === null ? '–' : value.toFixed(1), 'number');
const time = (epochMs) => cell(epochMs ? new Date(epochMs).toLocaleString() : '');

function button(label, onClick, options = {}) {
  const b = document.createElement('button');
  b.type = 'button';
  b.textContent = label;
  if (options.danger) b.className = 'danger';
  if (options.manage && !session?.manage) {
    b.disabled = true;
    b.title = 'needs the manage permission';
  }
  b.addEventListener('click', onClick);
  return b;
}

function fill(tableId, rows) {
  const body = $(tableId).tBodies[0];
  body.replaceChildren(...rows);
}

function say(message, isError = false) {
  const status = $('status');
  status.textContent = message;
  status.className = isError ? 'error' : '';
}

/** Asks for confirmation in a dialog; with `input`, also a text (resolves to it, or null). */
function confirmAction(text, input) {
  const dialog = $('confirm');
  $('confirm-text').textContent = text;
  $('confirm-input-label').hidden = !input;
  $('confirm-input').value = '';
  dialog.returnValue = '';
  return new Promise((resolve) => {
    dialog.addEventListener(
      'close',
      () => {
        if (dialog.returnValue !== 'ok') resolve(null);
        else resolve(input ? $('confirm-input').value.trim() : true);
      },
      { once: true },
    );
    dialog.showModal();
  });
}

// ---- views ----

function showLogin(message = '') {
  session = null;
  stopPolling();
  $('main-view').hidden = true;
  $('logout').hidden = true;
  $('who').textContent = '';
  $('broker').textContent = '';
  $('login-view').hidden = false;
  $('login-error').textContent = message;
}

function showMain() {
  $('login-view').hidden = true;
  $('main-view').hidden = false;
  $('logout').hidden = false;
  $('who').textContent = `${session.user} (${session.manage ? 'manage' : 'view only'})`;
  for (const b of document.querySelectorAll('button.manage')) {
    b.disabled = !session.manage;
    b.title = session.manage ? '' : 'needs the manage permission';
  }
  startPolling();
}

function queueRow(queue) {
  const tr = document.createElement('tr');
  tr.dataset.queue = queue.name;
  if (queue.name === openQueue) tr.className = 'selected';
  tr.append(
    cell(queue.name, 'name'),
    number(queue.readyCount),
    number(queue.deliveringCount),
    number(queue.scheduledCount),
    cell(queue.messageCount, 'number count'),
    number(queue.consumerCount),
    rate(queue.addedPerSecond),
    rate(queue.acknowledgedPerSecond),
    number(queue.messagesAdded),
    cell(queue.paused ? 'paused' : 'active', 'state'),
  );
  const actions = document.createElement('td');
  actions.append(button('Messages', () => openQueueView(queue.name)));
  tr.append(actions);
  return tr;
}

async function refreshQueues() {
  const filter = $('queue-filter').value.trim();
  const listing = await api('GET', `queues${filter ? `?name=${q(filter)}` : ''}`);
  fill('queues', listing.rows.map(queueRow));
  $('queues-note').textContent = listing.truncated
    ? `(first ${listing.rows.length} of ${listing.total})`
    : `(${listing.total})`;
}

function connectionRow(connection) {
  const tr = document.createElement('tr');
  tr.dataset.connection = connection.id;
  const actions = document.createElement('td');
  actions.append(button('Close', () => closeConnection(connection), { manage: true, danger: true }));
  tr.append(
    cell(connection.id),
    cell(connection.remoteAddress),
    cell(connection.user),
    cell(connection.clientId),
    time(connection.creationTime),
    number(connection.sessionCount),
    number(connection.consumerCount),
    number(connection.producerCount),
    actions,
  );
  return tr;
}

function consumerRow(consumer) {
  const tr = document.createElement('tr');
  tr.append(
    cell(consumer.queueName),
    cell(consumer.connectionId),
    cell(consumer.sessionId),
    number(consumer.id),
    cell(consumer.browseOnly ? 'yes' : 'no'),
    cell(consumer.filter),
    number(consumer.deliveringCount),
    time(consumer.creationTime),
  );
  return tr;
}

function subscriptionRow(subscription) {
  const tr = document.createElement('tr');
  const actions = document.createElement('td');
  if (subscription.durable)
    actions.append(button('Drop', () => dropSubscription(subscription), { manage: true, danger: true }));
  tr.append(
    cell(subscription.topic),
    cell(subscription.clientId),
    cell(subscription.name ?? subscription.queueName),
    cell(subscription.durable ? 'yes' : 'no'),
    cell(subscription.selector),
    number(subscription.messageCount),
    number(subscription.consumerCount),
    actions,
  );
  return tr;
}

async function refreshOthers() {
  const [connections, consumers, subscriptions, broker] = await Promise.all([
    api('GET', 'connections'),
    api('GET', 'consumers'),
    api('GET', 'subscriptions'),
    api('GET', 'broker'),
  ]);
  fill('connections', connections.rows.map(connectionRow));
  fill('consumers', consumers.rows.map(consumerRow));
  fill('subscriptions', subscriptions.rows.map(subscriptionRow));
  $('broker').textContent =
    `${broker.version} · ${broker.connectionCount} connections · ${broker.queueCount} queues`;
}

// ---- one queue ----

function propertiesText(properties) {
  return properties
    .map((p) => `${p.name} (${p.type}) = ${p.value === null ? 'null' : String(p.value)}`)
    .join('\n');
}

function hasControlCharacters(text) {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0d) return true;
  }
  return false;
}

/** Bytes as UTF-8 text when they are that (up to a character the preview cut in two), else null. */
function utf8Text(bytes, truncated) {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  for (let cut = 0; cut <= (truncated ? 3 : 0) && cut <= bytes.length; cut++) {
    try {
      const text = decoder.decode(bytes.subarray(0, bytes.length - cut));
      // Control characters other than white space: binary, better shown as base64.
      return hasControlCharacters(text) ? null : text;
    } catch {
      // not UTF-8 (yet): try without the last byte
    }
  }
  return null;
}

/** A body as text: a text message's text, other bodies' bytes as UTF-8 when they are, else base64. */
function bodyText(body) {
  const bytes = Uint8Array.from(atob(body.base64), (c) => c.charCodeAt(0));
  const shown = body.text ?? utf8Text(bytes, body.truncated) ?? `base64: ${body.base64}`;
  return body.truncated ? `${shown}… (${body.size} bytes in all)` : shown;
}

function messageRow(message) {
  const tr = document.createElement('tr');
  tr.dataset.message = String(message.id);
  tr.append(
    number(message.id),
    cell(message.state),
    number(message.priority),
    cell(message.durable ? 'yes' : 'no'),
    time(message.timestamp),
    number(message.deliveryCount),
    cell(propertiesText(message.properties), 'properties'),
    cell(bodyText(message.body), 'body'),
  );
  return tr;
}

async function openQueueView(name) {
  openQueue = name;
  $('queue-view').hidden = false;
  $('queue-name').textContent = name;
  for (const tr of $('queues').tBodies[0].rows) tr.classList.toggle('selected', tr.dataset.queue === name);
  await refreshMessages();
}

async function refreshMessages() {
  if (openQueue === null) return;
  try {
    const answer = await api('GET', `queues/${q(openQueue)}/messages?limit=${MESSAGE_LIMIT}`);
    fill('messages', answer.messages.map(messageRow));
    $('messages-note').textContent =
      answer.queue.messageCount > answer.messages.length
        ? `The first ${answer.messages.length} of ${answer.queue.messageCount} messages.`
        : `${answer.messages.length} messages.`;
  } catch (error) {
    fill('messages', []);
    $('messages-note').textContent = error.message;
  }
}

/** Runs a confirmed change, then says what it did and shows the new state. */
async function change(question, perform, describe, input = false) {
  const answer = await confirmAction(question, input);
  if (answer === null || answer === '') return;
  try {
    const result = await perform(answer);
    say(describe(result, answer));
  } catch (error) {
    say(error.message, true);
  }
  await refresh();
  await refreshMessages();
}

function queueAction(action, question, describe, body = () => ({})) {
  const name = openQueue;
  return change(
    question(name),
    () => api('POST', `queues/${q(name)}/${action}`, body()),
    (result) => describe(result, name),
  );
}

async function closeConnection(connection) {
  await change(
    `Close connection ${connection.id} from ${connection.remoteAddress}? Its client is disconnected.`,
    () => api('POST', `connections/${q(connection.id)}/close`),
    (result) =>
      result.closed ? `Closed connection ${connection.id}.` : `Connection ${connection.id} was already gone.`,
  );
}

async function dropSubscription(subscription) {
  await change(
    `Drop the durable subscription ${subscription.clientId}.${subscription.name} of ${subscription.topic}, with its ${subscription.messageCount} messages?`,
    () =>
      api('POST', 'subscriptions/drop', {
        topic: subscription.topic,
        clientId: subscription.clientId,
        name: subscription.name,
      }),
    () => `Dropped ${subscription.clientId}.${subscription.name}.`,
  );
}

function wireQueueActions() {
  $('refresh-messages').addEventListener('click', () => refreshMessages());
  $('close-queue').addEventListener('click', () => {
    openQueue = null;
    $('queue-view').hidden = true;
  });
  $('purge').addEventListener('click', () =>
    queueAction(
      'purge',
      (name) => `Purge ${name}? Every message not being delivered is deleted.`,
      (result, name) => `Removed ${result.removed} messages from ${name}.`,
    ),
  );
  $('retry').addEventListener('click', () =>
    queueAction(
      'retry',
      (name) => `Send the messages of ${name} back to the addresses they were dead-lettered from?`,
      (result, name) => `Sent ${result.retried} messages of ${name} back to their original addresses.`,
    ),
  );
  $('pause').addEventListener('click', () =>
    queueAction(
      'pause',
      (name) => `Pause ${name}? Its consumers get nothing until it is resumed.`,
      (_r, name) => `Paused ${name}.`,
    ),
  );
  $('resume').addEventListener('click', () =>
    queueAction(
      'resume',
      (name) => `Resume ${name}?`,
      (_r, name) => `Resumed ${name}.`,
    ),
  );
  $('delete').addEventListener('click', async () => {
    const name = openQueue;
    await change(
      `Delete the queue ${name} with its messages?`,
      () => api('POST', `queues/${q(name)}/delete`),
      () => `Deleted ${name}.`,
    );
    openQueue = null;
    $('queue-view').hidden = true;
  });
  $('move').addEventListener('click', () => {
    const name = openQueue;
    return change(
      `Move every waiting message of ${name} to which queue?`,
      (target) => api('POST', `queues/${q(name)}/move`, { target }),
      (result, target) => `Moved ${result.moved} messages from ${name} to ${target}.`,
      true,
    );
  });
}

// ---- polling and login ----

async function refresh() {
  try {
    await Promise.all([refreshQueues(), refreshOthers()]);
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) showLogin(error.message);
    else say(error.message, true);
  }
}

function startPolling() {
  stopPolling();
  const tick = async () => {
    if (!document.hidden) await refresh();
    if (session !== null) pollTimer = setTimeout(tick, POLL_MS);
  };
  void tick();
}

function stopPolling() {
  if (pollTimer !== null) clearTimeout(pollTimer);
  pollTimer = null;
}

async function start() {
  wireQueueActions();
  $('login-form').addEventListener('submit', async (event) => {
    event.preventDefault();
    const form = new FormData(event.target);
    try {
      session = await api('POST', 'login', { user: form.get('user'), password: form.get('password') });
      event.target.reset();
      showMain();
    } catch (error) {
      showLogin(error.message);
    }
  });
  $('logout').addEventListener('click', async () => {
    await api('POST', 'logout').catch(() => undefined);
    showLogin('Logged out.');
  });
  $('queue-filter').addEventListener('input', () => void refresh());
  try {
    session = await api('GET', 'session');
    showMain();
  } catch {
    showLogin();
  }
}

void start();

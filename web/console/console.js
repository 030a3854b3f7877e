// The Higgins web console (web/README.md). Plain JavaScript, no dependency: it polls
// GET /v1/streams, draws the stream graph as SVG, follows one stream over a WebSocket and runs
// queries. Stream names, keys and records come from users, so every piece of data reaches the
// page as a text node or an attribute value, never as markup.
'use strict';

(() => {
  const kPollMs = 2000;
  const kTailLimit = 200;
  const kOffsetsShown = 4;
  const kTokenKey = 'higgins.console.token';
  const kSvgNs = 'http://www.w3.org/2000/svg';

  const byId = (id) => document.getElementById(id);

  // Sets attributes (skipping null, undefined and false) and appends children: nodes as they
  // are, anything else as text.
  function fill(node, attrs, children) {
    for (const [name, value] of Object.entries(attrs || {})) {
      if (value !== null && value !== undefined && value !== false) {
        node.setAttribute(name, String(value));
      }
    }
    for (const child of children.flat()) {
      if (child === null || child === undefined || child === false) continue;
      node.append(child instanceof Node ? child : String(child));
    }
    return node;
  }
  const html = (tag, attrs, ...children) => fill(document.createElement(tag), attrs, children);
  const svg = (tag, attrs, ...children) =>
    fill(document.createElementNS(kSvgNs, tag), attrs, children);

  const byName = (a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
  const formatCount = (n) => (typeof n === 'number' ? n.toLocaleString('en-US') : '—');

  // ---- The token ------------------------------------------------------------------------------

  function token() {
    return byId('token').value.trim();
  }

  function loadToken() {
    try {
      byId('token').value = localStorage.getItem(kTokenKey) || '';
    } catch (e) {
      // Storage disabled: the token lives as long as the page.
    }
  }

  function saveToken() {
    try {
      if (token()) {
        localStorage.setItem(kTokenKey, token());
      } else {
        localStorage.removeItem(kTokenKey);
      }
    } catch (e) {
      // Storage disabled: see loadToken.
    }
  }

  // ---- The HTTP API ---------------------------------------------------------------------------

  class ApiError extends Error {
    constructor(status, code, message) {
      super(message);
      this.status = status;
      this.code = code;
    }
    toString() {
      return this.status ? `${this.status} ${this.code}: ${this.message}` : this.message;
    }
  }

  // GET (or `init`) `path`; resolves to the parsed JSON answer, rejects with an ApiError that
  // carries the broker's {"error": {code, message}} when there is one.
  async function api(path, init = {}) {
    const headers = new Headers(init.headers);
    if (token()) headers.set('Authorization', `Bearer ${token()}`);
    let response;
    try {
      response = await fetch(path, { ...init, headers, cache: 'no-store' });
    } catch (e) {
      throw new ApiError(0, 'unreachable', `the broker did not answer (${e.message})`);
    }
    const text = await response.text();
    let body = null;
    try {
      body = text ? JSON.parse(text) : null;
    } catch (e) {
      body = null;
    }
    if (!response.ok) {
      const error = body && typeof body.error === 'object' && body.error ? body.error : {};
      throw new ApiError(response.status, error.code || `http_${response.status}`,
        error.message || text || response.statusText);
    }
    if (body === null || typeof body !== 'object') {
      throw new ApiError(response.status, 'bad_answer', 'the answer is not a JSON object');
    }
    return body;
  }

  function setStatus(text, isError) {
    const status = byId('status');
    status.textContent = text;
    status.classList.toggle('error', Boolean(isError));
  }

  // ---- Streams --------------------------------------------------------------------------------

  const streams = {
    list: [],
    previous: new Map(),     // name -> {records, at}: the last poll, for records/s
    openSchemas: new Set(),  // names whose schema is unfolded, kept across polls
    graphKey: '',            // what the drawn graph was made of
    choicesKey: '',          // the names in the stream pickers
    timer: 0,
    polls: 0,                // polls started, to tell the latest one
  };

  function windowSpec(window) {
    if (!window || typeof window !== 'object') return '';
    const measure = (n) => (window.type === 'time' && typeof n === 'number' ? duration(n) : n);
    let spec = `${window.type} ${measure(window.interval)}`;
    // A tumbling window's slide is 0, absent, or its interval.
    if (window.slide && window.slide !== window.interval) spec += ` slide ${measure(window.slide)}`;
    return spec;
  }

  // Milliseconds as the configuration writes durations: 90000 -> "90s", 3600000 -> "1h".
  function duration(ms) {
    for (const [unit, size] of [['h', 3600000], ['m', 60000], ['s', 1000]]) {
      if (ms >= size && ms % size === 0) return `${ms / size}${unit}`;
    }
    return `${ms}ms`;
  }

  // "map · delay_class", "window · count 10", "join · 2 inputs", "source".
  function kindLabel(stream) {
    const kind = stream.kind || '?';
    if ((kind === 'map' || kind === 'reduce') && stream.fn) return `${kind} · ${stream.fn}`;
    if (kind === 'window' && stream.window) return `window · ${windowSpec(stream.window)}`;
    if (kind === 'join' && Array.isArray(stream.inputs)) {
      return `join · ${stream.inputs.length} inputs`;
    }
    return kind;
  }

  function schemaCell(stream) {
    const fields = Array.isArray(stream.schema) ? stream.schema : [];
    const details = html('details', { open: streams.openSchemas.has(stream.name) },
      html('summary', {}, fields.map((f) => f.name).join(', ') || '(no fields)'),
      html('ul', { class: 'fields' }, fields.map((f) => html('li', {},
        html('span', { class: 'field' }, f.name), ': ', html('span', { class: 'type' }, f.type),
        f.nullable === false ? html('span', { class: 'muted' }, ' not null') : null))));
    details.addEventListener('toggle', () => {
      if (details.open) {
        streams.openSchemas.add(stream.name);
      } else {
        streams.openSchemas.delete(stream.name);
      }
    });
    return html('td', {}, details);
  }

  // The keys with the highest latest offsets, then how many more there are.
  function offsetsCell(stream) {
    const offsets = stream.latest_offsets && typeof stream.latest_offsets === 'object'
      ? Object.entries(stream.latest_offsets) : [];
    offsets.sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    const cell = html('td', { class: 'offsets' });
    if (offsets.length === 0) return fill(cell, {}, [html('span', { class: 'muted' }, 'none')]);
    cell.title = offsets.map(([key, offset]) => `${key}: ${offset}`).join('\n');
    for (const [key, offset] of offsets.slice(0, kOffsetsShown)) {
      cell.append(html('span', { class: 'offset' }, html('span', { class: 'key' }, key), ` ${offset}`));
    }
    const more = offsets.length - kOffsetsShown;
    if (more > 0 || stream.latest_offsets_truncated) {
      const text = stream.latest_offsets_truncated ? '+ more' : `+${more} more`;
      cell.append(html('span', { class: 'muted' }, text));
    }
    return cell;
  }

  function renderStreams(list, rates) {
    const rows = list.map((s) => {
      const rate = rates.get(s.name);
      return html('tr', { 'data-stream': s.name },
        html('td', { class: 'name' }, s.name),
        html('td', { class: `kind kind-${s.kind}` }, kindLabel(s)),
        html('td', {}, s.partition_key ?? ''),
        schemaCell(s),
        html('td', { class: 'num' }, formatCount(s.partitions)),
        html('td', { class: 'num records' }, formatCount(s.records)),
        html('td', { class: 'num rate' }, rate === null ? '—' : formatCount(Math.round(rate))),
        html('td', { class: 'num' }, formatCount(s.lag)),
        offsetsCell(s));
    });
    byId('streams').tBodies[0].replaceChildren(...rows);
    byId('streams-empty').hidden = list.length > 0;
  }

  // Fills the stream pickers of the tail and of the query form, keeping their choices.
  function renderChoices(list) {
    const key = JSON.stringify(list.map((s) => s.name));
    if (key === streams.choicesKey) return;
    streams.choicesKey = key;
    for (const [id, first] of [['tail-stream', '(none)'], ['query-stream', null]]) {
      const select = byId(id);
      const chosen = select.value;
      const names = list.map((s) => s.name);
      if (chosen && !names.includes(chosen)) names.push(chosen);
      const options = names.map((name) => html('option', { value: name }, name));
      if (first !== null) options.unshift(html('option', { value: '' }, first));
      select.replaceChildren(...options);
      select.value = chosen;
    }
  }

  // Polls now, then every kPollMs. A poll started while another is under way (a new token)
  // supersedes it: the older one's answer is dropped and it schedules nothing.
  async function pollStreams() {
    clearTimeout(streams.timer);
    const poll = ++streams.polls;
    try {
      const body = await api('/v1/streams');
      if (poll !== streams.polls) return;
      const at = performance.now();
      const list = (Array.isArray(body.streams) ? body.streams : []).slice().sort(byName);
      const rates = new Map();
      for (const s of list) {
        const before = streams.previous.get(s.name);
        const seconds = before ? (at - before.at) / 1000 : 0;
        const rate = seconds > 0 ? (s.records - before.records) / seconds : NaN;
        rates.set(s.name, Number.isFinite(rate) && rate >= 0 ? rate : null);
      }
      streams.previous = new Map(list.map((s) => [s.name, { records: s.records, at }]));
      streams.list = list;
      renderStreams(list, rates);
      renderGraph(list);
      renderChoices(list);
      setStatus(`${list.length} streams · ${new Date().toLocaleTimeString()}`, false);
    } catch (e) {
      if (poll === streams.polls) setStatus(`GET /v1/streams: ${e}`, true);
    } finally {
      if (poll === streams.polls) streams.timer = setTimeout(pollStreams, kPollMs);
    }
  }

  // ---- The stream graph -----------------------------------------------------------------------

  const kNodeWidth = 210;
  const kNodeHeight = 46;
  const kColumnGap = 90;
  const kRowGap = 18;
  const kMargin = 12;

  // The inputs of a stream that are known streams. An errors stream names no input; it hangs
  // off the map or reduce stream whose name it extends.
  function inputsOf(stream, known) {
    const inputs = (Array.isArray(stream.inputs) ? stream.inputs : []).filter((n) => known.has(n));
    if (inputs.length === 0 && stream.kind === 'errors' && stream.name.endsWith('/errors')) {
      const owner = stream.name.slice(0, -'/errors'.length);
      if (known.has(owner)) return [owner];
    }
    return inputs;
  }

  // Longest-path layering: sources in layer 0, every other stream one layer right of its deepest
  // input. A cycle (which the broker refuses) is cut where it is found.
  function layers(list) {
    const known = new Map(list.map((s) => [s.name, s]));
    const names = new Set(known.keys());
    const layer = new Map();
    const visiting = new Set();
    const depth = (name) => {
      if (layer.has(name)) return layer.get(name);
      if (visiting.has(name)) return 0;
      visiting.add(name);
      const inputs = inputsOf(known.get(name), names);
      const d = inputs.length === 0 ? 0 : 1 + Math.max(...inputs.map(depth));
      visiting.delete(name);
      layer.set(name, d);
      return d;
    };
    list.forEach((s) => depth(s.name));
    const columns = [];
    for (const s of list) {
      const d = layer.get(s.name);
      (columns[d] = columns[d] || []).push(s);
    }
    return columns.map((column) => (column || []).sort(byName));
  }

  function truncate(text, max) {
    return text.length > max ? `${text.slice(0, max - 1)}…` : text;
  }

  function renderGraph(list) {
    const key = JSON.stringify(list.map((s) => [s.name, s.kind, s.inputs, s.fn, s.window]));
    if (key === streams.graphKey) return;
    streams.graphKey = key;
    const container = byId('graph');
    if (list.length === 0) {
      container.replaceChildren(html('p', { class: 'note' }, 'No streams.'));
      return;
    }

    const columns = layers(list);
    const tallest = Math.max(...columns.map((c) => c.length));
    const stack = tallest * kNodeHeight + (tallest - 1) * kRowGap;
    const place = new Map();
    const bottoms = columns.map((column, d) => {
      const used = column.length * kNodeHeight + (column.length - 1) * kRowGap;
      const top = kMargin + (stack - used) / 2;
      column.forEach((s, i) => {
        place.set(s.name, {
          x: kMargin + d * (kNodeWidth + kColumnGap),
          y: top + i * (kNodeHeight + kRowGap),
          layer: d,
        });
      });
      return top + used;
    });

    // An edge between adjacent layers is one curve. An edge that spans layers runs below the
    // nodes of the layers it passes, in a lane of its own, so that it never crosses a node.
    const names = new Set(place.keys());
    const edges = [];
    let lanes = 0;
    let lowest = kMargin + stack;
    for (const s of list) {
      inputsOf(s, names).forEach((input, i) => {
        const from = place.get(input);
        const to = place.get(s.name);
        const x1 = from.x + kNodeWidth;
        const y1 = from.y + kNodeHeight / 2;
        const x2 = to.x - 2;
        const y2 = to.y + kNodeHeight / 2;
        const curve = (ax, ay, bx, by) => {
          const bend = Math.max(30, (bx - ax) / 2);
          return `C ${ax + bend} ${ay}, ${bx - bend} ${by}, ${bx} ${by}`;
        };
        let d;
        if (to.layer - from.layer <= 1) {
          d = `M ${x1} ${y1} ${curve(x1, y1, x2, y2)}`;
        } else {
          const passed = bottoms.slice(from.layer + 1, to.layer);
          const lane = Math.max(...passed) + kRowGap + lanes * 10;
          lanes += 1;
          lowest = Math.max(lowest, lane);
          const enter = x1 + kColumnGap;
          const leave = x2 - kColumnGap;
          d = `M ${x1} ${y1} ${curve(x1, y1, enter, lane)} L ${leave} ${lane} ` +
            curve(leave, lane, x2, y2);
        }
        const role = s.kind === 'errors' ? 'errors' : s.kind === 'join' && i > 0 ? 'join' : 'base';
        edges.push(svg('path', {
          class: `edge edge-${role}`,
          d,
          'marker-end': 'url(#higgins-arrow)',
          'data-from': input,
          'data-to': s.name,
        }, svg('title', {}, `${input} → ${s.name} (${s.kind})`)));
      });
    }
    const height = Math.ceil(lowest) + kMargin;
    const width = 2 * kMargin + columns.length * kNodeWidth + (columns.length - 1) * kColumnGap;

    const nodes = list.map((s) => {
      const at = place.get(s.name);
      const node = svg('g', {
        class: `node kind-${s.kind}`,
        transform: `translate(${at.x} ${at.y})`,
        'data-stream': s.name,
        'data-kind': s.kind,
        'data-layer': at.layer,
        tabindex: 0,
        role: 'button',
      },
      svg('title', {}, `${s.name}\n${kindLabel(s)}\npartition key: ${s.partition_key}`),
      svg('rect', { width: kNodeWidth, height: kNodeHeight, rx: 6 }),
      svg('text', { class: 'node-name', x: 10, y: 19 }, truncate(s.name, 26)),
      svg('text', { class: 'node-kind', x: 10, y: 36 }, truncate(kindLabel(s), 30)));
      const follow = () => followStream(s.name);
      node.addEventListener('click', follow);
      node.addEventListener('keydown', (e) => {
        if (e.key === 'Enter' || e.key === ' ') {
          e.preventDefault();
          follow();
        }
      });
      return node;
    });

    container.replaceChildren(svg('svg', {
      id: 'graph-svg',
      width,
      height,
      viewBox: `0 0 ${width} ${height}`,
      role: 'img',
      'aria-label': 'streams and the derived streams computed from them',
    },
    svg('defs', {}, svg('marker', {
      id: 'higgins-arrow', viewBox: '0 0 10 10', refX: 9, refY: 5,
      markerWidth: 8, markerHeight: 8, orient: 'auto-start-reverse',
    }, svg('path', { d: 'M 0 0 L 10 5 L 0 10 z', class: 'arrow' }))),
    svg('g', { class: 'edges' }, edges),
    svg('g', { class: 'nodes' }, nodes)));
  }

  // ---- The live tail --------------------------------------------------------------------------

  const tail = {
    socket: null,
    name: '',      // what the socket follows, for the status line
    pending: [],   // messages received and not drawn yet (at most kTailLimit)
    received: 0,
    frame: 0,
  };

  // The close codes a WebSocket may see: the standard ones, and what the broker means by its
  // own (docs/http.md, "WebSocket channels").
  const kCloseCodes = {
    1000: 'normal closure',
    1001: 'the broker is stopping',
    1002: 'protocol error',
    1003: 'unsupported data',
    1005: 'no status code',
    1006: 'connection lost, no close frame',
    1007: 'invalid data',
    1008: 'policy violation',
    1009: 'message too big',
    1011: "the stream's feed failed",
    1012: 'service restart',
    1013: 'slow reader: too many records waiting to be sent',
    3001: 'the token expired',
  };

  function tailUrl(stream, from, key) {
    const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
    let path = `/v1/ws/${encodeURIComponent(stream)}`;
    if (token()) path += `/${encodeURIComponent(token())}`;
    let query = `?from=${encodeURIComponent(from)}`;
    if (key !== '') query += `&key=${encodeURIComponent(key)}`;
    return `${scheme}//${location.host}${path}${query}`;
  }

  // What the tail follows, as its status says it: "flights, key JFK, from latest".
  function tailName(stream, from, key) {
    return `${stream}${key !== '' ? `, key ${key}` : ''}, from ${from}`;
  }

  function setTailStatus(text, isError) {
    const status = byId('tail-status');
    status.textContent = text;
    status.classList.toggle('error', Boolean(isError));
  }

  function closeTail() {
    const socket = tail.socket;
    tail.socket = null;
    if (socket && socket.readyState <= WebSocket.OPEN) socket.close(1000, 'console: stream changed');
  }

  function clearTail() {
    tail.pending = [];
    tail.received = 0;
    byId('tail').tBodies[0].replaceChildren();
  }

  // (Re)opens the tail on the chosen stream, or closes it when none is chosen.
  function openTail() {
    closeTail();
    clearTail();
    const stream = byId('tail-stream').value;
    const from = byId('tail-from').value;
    const key = byId('tail-key').value;
    if (!stream) {
      setTailStatus('Pick a stream to follow its new records.', false);
      return;
    }
    const name = tailName(stream, from, key);
    let socket;
    try {
      socket = new WebSocket(tailUrl(stream, from, key));
    } catch (e) {
      setTailStatus(`${name}: cannot open a WebSocket (${e.message})`, true);
      return;
    }
    tail.socket = socket;
    tail.name = name;
    let opened = false;
    setTailStatus(`${name}: connecting…`, false);
    socket.addEventListener('open', () => {
      opened = true;
      if (tail.socket === socket) setTailStatus(`following ${name}`, false);
    });
    socket.addEventListener('message', (event) => {
      if (tail.socket === socket) receive(event.data);
    });
    socket.addEventListener('close', (event) => {
      if (tail.socket !== socket) return;
      tail.socket = null;
      if (!opened) {
        // The broker refuses in HTTP, which a browser does not show to the page.
        setTailStatus(`${name}: the broker refused the connection (code ${event.code}): ` +
          'no such stream, a bad parameter, or the token does not allow reading it', true);
        return;
      }
      const meaning = kCloseCodes[event.code];
      const reason = event.reason ? `: ${event.reason}` : '';
      setTailStatus(`${name}: closed, code ${event.code}${meaning ? ` (${meaning})` : ''}` +
        `${reason} · ${tail.received} messages received`, event.code !== 1000);
    });
  }

  function receive(data) {
    tail.received += 1;
    tail.pending.push(data);
    if (tail.pending.length > kTailLimit) tail.pending.splice(0, tail.pending.length - kTailLimit);
    if (!tail.frame) tail.frame = requestAnimationFrame(drawTail);
  }

  function tailRow(data) {
    let message;
    try {
      message = JSON.parse(data);
    } catch (e) {
      return html('tr', { class: 'error' }, html('td', { colspan: 4 }, `not JSON: ${data}`));
    }
    if (!message || typeof message !== 'object') {
      return html('tr', { class: 'error' }, html('td', { colspan: 4 }, `unexpected: ${data}`));
    }
    return html('tr', {
      'data-key': String(message.partition_key),
      'data-offset': String(message.offset),
    },
    html('td', { class: 'num' }, String(message.offset)),
    html('td', { class: 'key' }, String(message.partition_key)),
    html('td', { class: 'time' }, String(message.commit_time ?? '')),
    html('td', {}, html('code', {}, JSON.stringify(message.record))));
  }

  // Draws what arrived since the last frame, newest first, keeping kTailLimit rows.
  function drawTail() {
    tail.frame = 0;
    const body = byId('tail').tBodies[0];
    const rows = tail.pending.map(tailRow).reverse();
    tail.pending = [];
    body.prepend(...rows);
    while (body.rows.length > kTailLimit) body.lastElementChild.remove();
    if (tail.socket) {
      const shown = Math.min(tail.received, kTailLimit);
      setTailStatus(`following ${tail.name} · ${tail.received} received, newest ${shown} shown`,
        false);
    }
  }

  function followStream(name) {
    const select = byId('tail-stream');
    if (![...select.options].some((o) => o.value === name)) {
      select.append(html('option', { value: name }, name));
    }
    select.value = name;
    byId('query-stream').value = name;
    openTail();
    byId('tail-section').scrollIntoView({ behavior: 'smooth', block: 'start' });
  }

  // ---- Queries --------------------------------------------------------------------------------

  function valueText(value) {
    if (value === null || value === undefined) return html('span', { class: 'muted' }, 'null');
    return typeof value === 'object' ? JSON.stringify(value) : String(value);
  }

  // A window stream's answer: "window 38 (open): base offsets [380, 390)".
  function windowSummary(window) {
    if (typeof window !== 'object') return `window ${JSON.stringify(window)}`;
    const state = window.closed ? 'closed' : 'open';
    const span = window.type === 'time'
      ? `commit times [${isoTime(window.start)}, ${isoTime(window.end)})`
      : `base offsets [${window.start}, ${window.end})`;
    return `window ${window.number} (${state}): ${span}`;
  }

  function isoTime(ms) {
    const date = new Date(ms);
    return Number.isNaN(date.getTime()) ? String(ms) : date.toISOString();
  }

  function renderAnswer(request, body) {
    const records = Array.isArray(body.records) ? body.records : [];
    const fields = [];
    for (const r of records) {
      for (const name of Object.keys(r.record || {})) {
        if (!fields.includes(name)) fields.push(name);
      }
    }
    const known = ['stream', 'partition_key', 'records', 'window'];
    const extra = Object.entries(body).filter(([k]) => !known.includes(k));
    const count = `${records.length} record${records.length === 1 ? '' : 's'}`;
    return [
      html('p', { class: 'request' }, html('code', {}, request)),
      html('p', { class: 'summary' },
        `${body.stream ?? ''} · key ${body.partition_key ?? ''} · ${count}`,
        body.window ? ` · ${windowSummary(body.window)}` : null,
        extra.map(([k, v]) => ` · ${k}: ${JSON.stringify(v)}`)),
      html('div', { class: 'scroll' }, html('table', { class: 'answer' },
        html('thead', {}, html('tr', {},
          html('th', { class: 'num' }, 'offset'), html('th', {}, 'commit time'),
          fields.map((f) => html('th', {}, f)))),
        html('tbody', {}, records.map((r) => html('tr', { 'data-offset': r.offset },
          html('td', { class: 'num' }, String(r.offset)),
          html('td', { class: 'time' }, String(r.commit_time ?? '')),
          fields.map((f) => html('td', {}, valueText((r.record || {})[f])))))))),
      html('details', {}, html('summary', {}, 'JSON'),
        html('pre', {}, JSON.stringify(body, null, 2))),
    ];
  }

  let queries = 0;  // queries started: only the latest one's answer is shown

  async function runQuery(event) {
    event.preventDefault();
    const result = byId('query-result');
    const stream = byId('query-stream').value;
    const key = byId('query-key').value;
    const offset = byId('query-offset').value.trim().toLowerCase() || 'latest';
    if (!stream) {
      result.replaceChildren(html('p', { class: 'error' }, 'Pick a stream.'));
      return;
    }
    if (offset !== 'latest' && !/^\d+$/.test(offset)) {
      result.replaceChildren(html('p', { class: 'error' }, 'Offset: a number, or latest.'));
      return;
    }
    const at = offset === 'latest' ? 'latest' : `offset=${offset}`;
    const path = `/v1/streams/${encodeURIComponent(stream)}/records` +
      `?key=${encodeURIComponent(key)}&${at}`;
    result.replaceChildren(html('p', { class: 'note' }, `GET ${path} …`));
    const query = ++queries;
    try {
      const body = await api(path);
      if (query === queries) result.replaceChildren(...renderAnswer(`GET ${path}`, body));
    } catch (e) {
      if (query !== queries) return;
      result.replaceChildren(html('p', { class: 'request' }, html('code', {}, `GET ${path}`)),
        html('p', { class: 'error', 'data-code': e.code || '' }, String(e)));
    }
  }

  // ---- Start ----------------------------------------------------------------------------------

  function start() {
    loadToken();
    let applied = token();
    byId('token').addEventListener('change', () => {
      if (token() === applied) return;
      applied = token();
      saveToken();
      pollStreams();
      if (byId('tail-stream').value) openTail();
    });
    byId('tail-stream').addEventListener('change', openTail);
    byId('tail-from').addEventListener('change', openTail);
    byId('tail-key').addEventListener('change', openTail);
    byId('tail-clear').addEventListener('click', clearTail);
    byId('tail-form').addEventListener('submit', (e) => e.preventDefault());
    byId('query-form').addEventListener('submit', runQuery);
    pollStreams();
  }

  start();
})();

// InfraGraph interactive viewer: one canvas, pan/zoom, search, type filters, attributes, drill-down.
// Data comes from <script id="igdata" type="application/json"> (see visualizer/page.py).
// Zoomed out, large fabrics show their aggregated boxes; zoomed in, the individual devices of
// the visible area only, so 100k boxes stay interactive.
(function () {
  "use strict";
  const D = JSON.parse(document.getElementById("igdata").textContent);
  const canvas = document.getElementById("view");
  const ctx = canvas.getContext("2d");
  const info = document.getElementById("info");
  const crumbs = document.getElementById("crumbs");
  const results = document.getElementById("results");
  const hidden = new Set();
  let scene = null, layer = null, sel = null, T = {s: 1, x: 0, y: 0};

  // ---- scenes: the fabric, or the inside of one device --------------------------------------
  function fabricScene() {
    const f = D.fabric;
    f.labelOf = i => f.label ? f.label[i] : instLabel(i);
    return {kind: "fabric", title: D.title, g: f, agg: D.agg, notes: D.notes};
  }
  function instLabel(i) {
    const inst = D.instances[D.fabric.block[i]];
    return inst.name + "." + (i - inst.first);
  }
  function deviceScene(name, prefix) {
    const d = D.devices[name];
    d.labelOf = i => d.label[i];
    return {kind: "device", title: "device " + name + (prefix ? " (" + prefix + ")" : ""), g: d, agg: null,
            notes: d.notes, device: name, prefix: prefix || ""};
  }
  function setScene(s, keepView) {
    scene = s; sel = null;
    crumbs.innerHTML = "";
    const a = document.createElement("a");
    a.textContent = "fabric"; a.href = "#"; a.onclick = e => { e.preventDefault(); setScene(fabricScene()); };
    crumbs.appendChild(a);
    if (s.kind === "device") crumbs.appendChild(document.createTextNode(" › " + s.title));
    document.getElementById("notes").textContent = (s.notes || []).join("\n");
    buildFilters();
    if (!keepView) fit();
    info.textContent = "Click a box to see its attributes.";
    draw();
  }

  // ---- geometry ------------------------------------------------------------------------------
  function bounds(g) {
    let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
    for (let i = 0; i < g.x.length; i++) {
      if (g.x[i] < x0) x0 = g.x[i]; if (g.x[i] > x1) x1 = g.x[i];
      if (g.y[i] < y0) y0 = g.y[i]; if (g.y[i] > y1) y1 = g.y[i];
    }
    return [x0, y0, x1, y1];
  }
  function fit() {
    const [x0, y0, x1, y1] = bounds(scene.g);
    const w = canvas.width, h = canvas.height, pad = 60;
    T.s = Math.min((w - 2 * pad) / Math.max(x1 - x0, 1), (h - 2 * pad) / Math.max(y1 - y0, 1));
    T.x = w / 2 - T.s * (x0 + x1) / 2; T.y = h / 2 - T.s * (y0 + y1) / 2;
  }
  const sx = x => x * T.s + T.x, sy = y => y * T.s + T.y;
  // Individual devices once they are 14 px apart: closer, their lines merge into a grey block.
  function detailed() { return !scene.agg || T.s * scene.g.unit >= 14; }

  // ---- drawing -------------------------------------------------------------------------------
  function heat(u) {
    u = Math.max(0, Math.min(1, u));
    const stops = [[0, [44, 160, 44]], [0.5, [255, 200, 0]], [1, [214, 39, 40]]];
    for (let k = 1; k < stops.length; k++) if (u <= stops[k][0]) {
      const [a, ca] = stops[k - 1], [b, cb] = stops[k], t = (u - a) / (b - a);
      return "rgb(" + ca.map((c, j) => Math.round(c + (cb[j] - c) * t)).join(",") + ")";
    }
    return "rgb(214,39,40)";
  }
  function lineStyle(g, e) {
    const u = g.util ? g.util[e] : null, r = g.rail ? g.rail[e] : -1;
    ctx.strokeStyle = (u !== null && u !== undefined) ? heat(u)
      : (g.util ? "#c0c4cc" : (r >= 0 ? D.rail_colours[r % D.rail_colours.length] : "#6b7280"));
    ctx.lineWidth = g.width[e];
    ctx.setLineDash([]);
    const f = g.failed ? g.failed[e] : 0, d = g.degraded ? g.degraded[e] : 0;
    if (f > 0) {  // failed links: red, dashed when the whole line failed
      ctx.strokeStyle = "#d62728";
      if (f === g.count[e]) { ctx.setLineDash([6, 4]); ctx.lineWidth = 1.5; }
    } else if (d > 0) {  // degraded links: orange, dotted when all of them
      ctx.strokeStyle = "#e67e00";
      ctx.lineWidth = Math.max(ctx.lineWidth, 2.5);
      if (d === g.count[e]) ctx.setLineDash([2, 3]);
    }
  }
  function draw() {
    const w = canvas.width, h = canvas.height;
    ctx.clearRect(0, 0, w, h);
    layer = detailed() ? scene.g : scene.agg;
    const g = layer, n = g.x.length, boxes = layer === scene.agg;
    const vis = new Uint8Array(n), m = boxes ? 120 : 20;
    for (let i = 0; i < n; i++) {
      const X = sx(g.x[i]), Y = sy(g.y[i]);
      vis[i] = X > -m && X < w + m && Y > -m && Y < h + m && !hidden.has(D.kinds[g.kind[i]]) ? 1 : 0;
    }
    if (!boxes && scene.kind === "fabric") for (const u of D.units || []) {  // racks, scalable units, pods
      const [x0, y0, x1, y1] = u.box;
      ctx.setLineDash([5, 4]); ctx.strokeStyle = "#9ca3af"; ctx.lineWidth = 1;
      ctx.strokeRect(sx(x0), sy(y0), sx(x1) - sx(x0), sy(y1) - sy(y0));
      ctx.setLineDash([]); ctx.fillStyle = "#6b7280"; ctx.font = "11px sans-serif"; ctx.textAlign = "center";
      if (ctx.measureText(u.label).width < sx(x1) - sx(x0)) ctx.fillText(u.label, (sx(x0) + sx(x1)) / 2, sy(y1) - 6);
    }
    ctx.lineCap = "round";
    for (let e = 0; e < g.src.length; e++) {
      const a = g.src[e], b = g.dst[e];
      if (!(vis[a] || vis[b]) || hidden.has(D.kinds[g.kind[a]]) || hidden.has(D.kinds[g.kind[b]])) continue;
      lineStyle(g, e);
      ctx.beginPath(); ctx.moveTo(sx(g.x[a]), sy(g.y[a])); ctx.lineTo(sx(g.x[b]), sy(g.y[b])); ctx.stroke();
    }
    const r = boxes ? 0 : Math.max(2, Math.min(22, T.s * g.unit * 0.32));
    const labels = boxes || r >= 9, room = T.s * g.unit - 6;
    ctx.font = (boxes ? 11 : Math.min(12, r * 0.8)) + "px sans-serif";
    ctx.textAlign = "center"; ctx.textBaseline = "middle";
    for (let i = 0; i < n; i++) {
      if (!vis[i]) continue;
      const X = sx(g.x[i]), Y = sy(g.y[i]);
      const small = g.small && g.small[i];
      ctx.fillStyle = D.colours[g.kind[i]];
      ctx.strokeStyle = i === sel ? "#111" : "#333"; ctx.lineWidth = i === sel ? 3 : 0.7;
      if (boxes) {
        const lines = g.label[i].split("\n");
        const bw = Math.max(...lines.map(s => ctx.measureText(s).width)) + 12, bh = 14 * lines.length + 8;
        ctx.beginPath(); ctx.rect(X - bw / 2, Y - bh / 2, bw, bh); ctx.fill(); ctx.stroke();
        ctx.fillStyle = "#111";
        lines.forEach((s, k) => ctx.fillText(s, X, Y - (lines.length - 1) * 7 + k * 14));
      } else if (small) {
        ctx.beginPath(); ctx.arc(X, Y, r * 0.35, 0, 2 * Math.PI); ctx.fill(); ctx.stroke();
      } else {
        ctx.beginPath(); ctx.rect(X - r * 1.4, Y - r * 0.7, r * 2.8, r * 1.4); ctx.fill(); ctx.stroke();
        if (labels) {  // only where it fits between this box and its nearest neighbour
          const text = scene.g.labelOf(i);
          if (ctx.measureText(text).width <= room) { ctx.fillStyle = "#111"; ctx.fillText(text, X, Y); }
        }
      }
    }
    document.getElementById("mode").textContent = boxes
      ? "zoomed out: aggregated boxes (zoom in to see devices)" : (scene.agg ? "zoomed in: individual devices" : "");
  }

  // ---- interaction ---------------------------------------------------------------------------
  function nearest(px, py) {
    const g = layer; let best = -1, bd = Infinity;
    for (let i = 0; i < g.x.length; i++) {
      if (hidden.has(D.kinds[g.kind[i]])) continue;
      const d = Math.hypot(sx(g.x[i]) - px, sy(g.y[i]) - py);
      if (d < bd) { bd = d; best = i; }
    }
    return bd < (layer === scene.agg ? 60 : Math.max(14, T.s * scene.g.unit * 0.5)) ? best : -1;
  }
  function nearestLine(px, py) {  // the drawn line within 6 px of the click, or -1
    const g = layer; let best = -1, bd = 6;
    for (let e = 0; e < g.src.length; e++) {
      if (hidden.has(D.kinds[g.kind[g.src[e]]]) || hidden.has(D.kinds[g.kind[g.dst[e]]])) continue;
      const ax = sx(g.x[g.src[e]]), ay = sy(g.y[g.src[e]]), bx = sx(g.x[g.dst[e]]), by = sy(g.y[g.dst[e]]);
      const dx = bx - ax, dy = by - ay, len = dx * dx + dy * dy;
      const t = len ? Math.max(0, Math.min(1, ((px - ax) * dx + (py - ay) * dy) / len)) : 0;
      const d = Math.hypot(ax + t * dx - px, ay + t * dy - py);
      if (d < bd) { bd = d; best = e; }
    }
    return best;
  }
  function pct(u) { return Math.round(u * 100) + "%"; }
  function showLine(e) {  // a line: its links, bandwidth (rated when some failed), rail, load
    sel = null; draw();
    const g = layer, t = document.createElement("table"), name = i => layer === scene.agg ? g.label[i].replace("\n", " — ") : scene.g.labelOf(i);
    info.innerHTML = "";
    const h = document.createElement("h3"); h.textContent = name(g.src[e]) + " — " + name(g.dst[e]); info.appendChild(h);
    const f = g.failed ? g.failed[e] : 0, d = g.degraded ? g.degraded[e] : 0;
    t.appendChild(row("links", g.count[e]));
    t.appendChild(row("bandwidth", f ? gbps(g.bw[e]) + " working of " + gbps(g.rated[e]) + " rated" : gbps(g.bw[e])));
    if (f) t.appendChild(row("failed", f === g.count[e] ? "all " + f + " (" + gbps(g.rated[e]) + " rated)" : f + " of " + g.count[e]));
    if (d) t.appendChild(row("degraded", d + " of " + g.count[e]));
    if (g.rail && g.rail[e] >= 0) t.appendChild(row("rail", g.rail[e] + " (" + g.rail_names[g.rail[e]] + ")"));
    const u = g.util ? g.util[e] : null;
    if (u !== null && u !== undefined) {
      if (g.umean && g.count[e] > 1) {
        t.appendChild(row("utilization", "mean " + pct(g.umean[e]) + ", max " + pct(u)));
        t.appendChild(row("carried traffic", g.used[e] + " of " + g.count[e] + " links"));
      } else t.appendChild(row("utilization", pct(u)));
    }
    info.appendChild(t);
  }
  function row(k, v) {
    const tr = document.createElement("tr");
    tr.innerHTML = "<th></th><td></td>";
    tr.children[0].textContent = k; tr.children[1].textContent = String(v);
    return tr;
  }
  function lineSummary(g, i) {
    let links = 0, bw = 0, peers = 0;
    for (let e = 0; e < g.src.length; e++) if (g.src[e] === i || g.dst[e] === i) { links += g.count[e]; bw += g.bw[e]; peers++; }
    return [links, bw, peers];
  }
  function gbps(x) {
    for (const [u, s] of [["Pbit/s", 1e6], ["Tbit/s", 1e3]]) if (x >= s) return +(x / s).toPrecision(3) + " " + u;
    return +x.toPrecision(3) + " Gbit/s";
  }
  function show(i) {
    sel = i; draw();
    const g = layer, t = document.createElement("table");
    info.innerHTML = "";
    const h = document.createElement("h3");
    if (layer === scene.agg) {
      h.textContent = g.label[i].replace("\n", " — ");
      info.appendChild(h);
      t.appendChild(row("holds", g.size[i] + " devices"));
      t.appendChild(row("type", D.kinds[g.kind[i]]));
      const [links, bw] = lineSummary(g, i);
      t.appendChild(row("links out", links)); t.appendChild(row("bandwidth out", gbps(bw)));
      info.appendChild(t);
      const b = document.createElement("button"); b.textContent = "zoom in";
      b.onclick = () => zoomTo(g.x[i], g.y[i], 8 / scene.g.unit); info.appendChild(b);
      return;
    }
    const name = scene.g.labelOf(i);
    h.textContent = (scene.prefix || "") + name; h.id = "selected-name";
    info.appendChild(h);
    t.appendChild(row("type", D.kinds[g.kind[i]]));
    if (scene.kind === "fabric") {
      const inst = D.instances[g.block[i]];
      t.appendChild(row("instance", inst.name)); t.appendChild(row("index", i - inst.first));
      t.appendChild(row("device", inst.device));
    } else {
      for (const [k, v] of Object.entries(g.attrs[i] || {})) t.appendChild(row(k, v));
      const node = copyNode(scene.prefix, i);  // this copy's own annotations (rank, ...)
      if (node >= 0) for (const [k, vals] of Object.entries(D.annotations || {})) if (node in vals) t.appendChild(row(k, vals[node]));
    }
    const [links, bw, peers] = lineSummary(g, i);
    t.appendChild(row("links", links)); t.appendChild(row("neighbours", peers));
    t.appendChild(row("bandwidth", gbps(bw)));
    info.appendChild(t);
    if (scene.kind === "fabric") {
      const dev = D.instances[g.block[i]].device;
      if (D.devices[dev]) {
        const b = document.createElement("button"); b.id = "drill"; b.textContent = "open device " + dev + " ›";
        b.onclick = () => setScene(deviceScene(dev, name + ".")); info.appendChild(b);
      }
    }
  }
  function copyNode(prefix, i) {  // "srv.12." and local component i -> the graph's node id
    const parts = (prefix || "").split("."), k = Number(parts[parts.length - 2]);
    const inst = D.instances.find(x => x.name === parts.slice(0, -2).join("."));
    return inst && Number.isInteger(k) && k < inst.count ? inst.first_node + k * inst.per_copy + i : -1;
  }
  function zoomTo(x, y, s) {
    T.s = s; T.x = canvas.width / 2 - s * x; T.y = canvas.height / 2 - s * y; draw();
  }

  // ---- search: "leaf.3", "host.12.xpu.0" (drills into the device), or a prefix ---------------
  function fabricIndex(name) {
    const dot = name.lastIndexOf(".");
    if (dot < 0) return -1;
    const inst = D.instances.find(x => x.name === name.slice(0, dot));
    const k = Number(name.slice(dot + 1));
    return inst && Number.isInteger(k) && k >= 0 && k < inst.count ? inst.first + k : -1;
  }
  function select(i) {
    const unit = scene.g.unit;
    zoomTo(scene.g.x[i], scene.g.y[i], Math.max(T.s, 60 / unit));
    layer = scene.g; show(i);
  }
  function search(q) {
    q = q.trim(); results.innerHTML = "";
    if (!q) return;
    const parts = q.split(".");
    for (let cut = 2; cut <= parts.length; cut += 2) {  // instance.index[.component.index]
      const head = parts.slice(0, cut).join("."), rest = parts.slice(cut).join(".");
      const i = fabricIndex(head);
      if (i < 0) continue;
      if (!rest) { if (scene.kind !== "fabric") setScene(fabricScene()); select(i); return; }
      const dev = D.instances[D.fabric.block[i]].device, d = D.devices[dev];
      const j = d ? d.label.indexOf(rest) : -1;
      if (j >= 0) { setScene(deviceScene(dev, head + ".")); select(j); return; }
    }
    if (scene.kind === "device") {
      const j = scene.g.label.indexOf(q);
      if (j >= 0) { select(j); return; }
    }
    const hits = [];
    for (const inst of D.instances) {
      if (!inst.name.startsWith(q.split(".")[0])) continue;
      for (let k = 0; k < inst.count && hits.length < 12; k++) {
        const nm = inst.name + "." + k;
        if (nm.startsWith(q)) hits.push([nm, inst.first + k]);
      }
    }
    if (!hits.length) { results.textContent = "no node named '" + q + "'"; return; }
    for (const [nm, i] of hits) {
      const a = document.createElement("a"); a.href = "#"; a.textContent = nm;
      a.onclick = e => { e.preventDefault(); if (scene.kind !== "fabric") setScene(fabricScene()); select(i); };
      results.appendChild(a); results.appendChild(document.createTextNode(" "));
    }
  }

  function buildFilters() {
    const box = document.getElementById("filters");
    box.innerHTML = "";
    const used = new Set(Array.from(scene.g.kind));
    D.kinds.forEach((k, j) => {
      if (!used.has(j)) return;
      const l = document.createElement("label");
      const c = document.createElement("input"); c.type = "checkbox"; c.checked = !hidden.has(k); c.dataset.kind = k;
      c.onchange = () => { c.checked ? hidden.delete(k) : hidden.add(k); draw(); };
      const sw = document.createElement("span"); sw.className = "swatch"; sw.style.background = D.colours[j];
      l.appendChild(c); l.appendChild(sw); l.appendChild(document.createTextNode(k));
      box.appendChild(l);
    });
  }

  let drag = null;
  canvas.addEventListener("mousedown", e => { drag = {x: e.offsetX, y: e.offsetY, moved: false}; });
  canvas.addEventListener("mousemove", e => {
    if (!drag) return;
    const dx = e.offsetX - drag.x, dy = e.offsetY - drag.y;
    if (Math.abs(dx) + Math.abs(dy) > 2) drag.moved = true;
    T.x += dx; T.y += dy; drag.x = e.offsetX; drag.y = e.offsetY; draw();
  });
  canvas.addEventListener("mouseup", e => {
    if (drag && !drag.moved) {
      const i = nearest(e.offsetX, e.offsetY);
      if (i >= 0) show(i); else { const l = nearestLine(e.offsetX, e.offsetY); if (l >= 0) showLine(l); }
    }
    drag = null;
  });
  canvas.addEventListener("wheel", e => {
    e.preventDefault();
    const f = Math.exp(-e.deltaY * 0.0015);
    T.x = e.offsetX - (e.offsetX - T.x) * f; T.y = e.offsetY - (e.offsetY - T.y) * f; T.s *= f; draw();
  }, {passive: false});
  document.getElementById("search").addEventListener("keydown", e => { if (e.key === "Enter") search(e.target.value); });
  document.getElementById("fit").onclick = () => { fit(); draw(); };
  function resize() {
    canvas.width = canvas.clientWidth; canvas.height = canvas.clientHeight;
    if (scene) draw();
  }
  window.addEventListener("resize", resize);
  resize();
  setScene(fabricScene());
  if (D.start && D.devices[D.start.device]) setScene(deviceScene(D.start.device, D.start.prefix));
  // For tests and scripts: where a fabric box is on screen (CSS pixels from the canvas corner).
  function screenOf(name) {
    const i = scene.kind === "fabric" ? fabricIndex(name) : scene.g.label.indexOf(name);
    return i < 0 ? null : [sx(scene.g.x[i]) , sy(scene.g.y[i])];
  }
  window.igviewer = {search, show, showLine, screenOf, scene: () => scene, fit: () => { fit(); draw(); }};
})();

"use strict";
// The compile explorer's script: draws the data the compiler wrote into #data. No libraries and
// no network: everything is in this page.
(function () {
  const DATA = JSON.parse(document.getElementById("data").textContent);
  const $ = (id) => document.getElementById(id);
  const SVG_NS = "http://www.w3.org/2000/svg";
  const state = { view: "graph", stage: -1, selected: -1, zoom: { x: 0, y: 0, k: 1 }, color: "none" };

  function esc(text) {
    return String(text).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;",
                                                      '"': "&quot;", "'": "&#39;" })[c]);
  }
  function mib(bytes) { return (bytes / 1048576).toFixed(bytes < 1048576 ? 3 : 1) + " MiB"; }
  function ms(value) { return value < 10 ? value.toFixed(2) : value.toFixed(1); }
  function cut(text, length) { return text.length > length ? text.slice(0, length - 1) + "\u2026" : text; }
  // Names share long prefixes (/features/features.1/...): a box shows a name's end.
  function cutStart(text, length) { return text.length > length ? "\u2026" + text.slice(text.length - length + 1) : text; }

  // ---- stages and their name indices ----
  // Views: each stage's root graph, then its subgraphs (their parent node named).
  const stages = DATA.stages;
  const stageNames = [...new Set(stages.map((s) => s.stage))];
  const rank = stages.map((s) => stageNames.indexOf(s.stage));
  // The view of stage `name`'s graph `graph` (its root graph when none is named), or -1.
  function viewOf(name, graph) {
    return stages.findIndex((s) => s.stage === name && (graph ? s.graph === graph : !s.parent));
  }
  function viewLabel(i) {
    return stages[i].parent ? `${stages[i].stage}: ${stages[i].graph}` : stages[i].stage;
  }
  const byName = stages.map((stage) => {
    const map = new Map();
    stage.nodes.forEach((node, i) => map.set(node.n, i));
    return map;
  });
  const profileByName = new Map();
  if (DATA.profile) DATA.profile.nodes.forEach((p) => profileByName.set(p.n, p));

  // ---- header ----
  $("title").textContent = DATA.title ? "\u2014 " + DATA.title : "";
  if (DATA.report) {
    const s = DATA.report.summary;
    $("summary").textContent =
      `${s.nodes_parsed} nodes parsed \u2192 ${s.nodes_compiled} compiled in ${ms(s.total_ms)} ms` +
      (s.parse_ms > 0 ? ` (parse ${ms(s.parse_ms)} ms)` : "") +
      ` \u00b7 ${s.tasks} tasks on ${s.streams} stream(s) \u00b7 arena ${mib(s.arena_bytes)}` +
      ` (lower bound ${mib(s.lower_bound)}) \u00b7 weights ${mib(s.weight_bytes)}` +
      ` \u00b7 ${s.layout_conversions} layout conversion(s)`;
  }

  // ---- tabs ----
  function showView(view) {
    state.view = view;
    for (const button of document.querySelectorAll("#tabs button")) {
      button.classList.toggle("active", button.dataset.view === view);
    }
    for (const section of document.querySelectorAll(".view")) {
      section.hidden = section.id !== "view-" + view;
    }
    if (view === "memory") drawMemory();
    updateHash();
  }
  for (const button of document.querySelectorAll("#tabs button")) {
    button.addEventListener("click", () => showView(button.dataset.view));
  }

  // ---- the graph ----
  const svg = $("graph");
  const viewport = $("viewport");

  function applyZoom() {
    const z = state.zoom;
    viewport.setAttribute("transform", `translate(${z.x},${z.y}) scale(${z.k})`);
  }

  function fit() {
    const stage = stages[state.stage];
    if (!stage || !stage.laid_out) return;
    const box = svg.getBoundingClientRect();
    const k = Math.max(0.05, Math.min(1, (box.width - 20) / Math.max(1, stage.width)));
    state.zoom = { k, x: (box.width - stage.width * k) / 2, y: 10 };
    applyZoom();
  }

  function nodeClass(node) {
    let c = "node";
    if (node.f) c += " fused";
    return c;
  }

  const ENGINE_COLOURS = ["#eef2f7", "#fdf2e3", "#eaf4ff", "#f3e8fd", "#e8f8f0"];
  function timeFill(node) {
    const p = profileByName.get(node.n);
    if (!p || !DATA.profile || DATA.profile.total_us <= 0) return "#f7f7f7";
    const share = p.us / DATA.profile.total_us;
    // Log scale from 0.01% to 10% of the run: pale yellow to deep red.
    const t = Math.max(0, Math.min(1, (Math.log10(Math.max(share, 1e-4)) + 4) / 3));
    const hue = 55 - 55 * t;
    const light = 94 - 30 * t;
    return `hsl(${hue},90%,${light}%)`;
  }

  function drawStage(index) {
    state.stage = index;
    state.selected = -1;
    const stage = stages[index];
    const root = viewOf(stage.stage);
    for (const button of document.querySelectorAll("#stages button")) {
      button.classList.toggle("active", Number(button.dataset.stage) === root);
    }
    const group = stages.map((s, i) => i).filter((i) => stages[i].stage === stage.stage);
    const picker = $("subgraph");
    picker.hidden = group.length < 2;
    picker.innerHTML = group.map((i) => `<option value="${i}"${i === index ? " selected" : ""}>` +
      esc(stages[i].parent ? `${stages[i].graph} (subgraph of ${stages[i].parent})`
                           : `${stages[i].graph} (root graph)`) + "</option>").join("");
    const message = $("graph-message");
    $("search-results").innerHTML = "";
    $("search-count").textContent = "";
    if (stage.too_large) {
      viewport.innerHTML = "";
      message.hidden = false;
      message.innerHTML =
        `<b>The ${esc(stage.stage)} graph has ${stage.drawn} nodes to draw, more than this page ` +
        `draws (${DATA.max_view_nodes}).</b><br>Write it as a picture instead: ` +
        `<code>gec dump ${esc(DATA.title || "MODEL")} --stage ${esc(stage.stage)} --format svg ` +
        `-o ${esc(stage.stage)}.svg</code>`;
      showDetails();
      updateHash();
      return;
    }
    message.hidden = true;
    const engineColours = new Map();
    const engines = [...new Set(stage.nodes.map((n) => n.e).filter(Boolean))].sort();
    engines.forEach((e, i) => engineColours.set(e, ENGINE_COLOURS[i % ENGINE_COLOURS.length]));
    const parts = [];
    for (const [from, to, control, label] of stage.edges) {
      const a = stage.nodes[from];
      const b = stage.nodes[to];
      const x1 = a.x + a.w / 2;
      const y1 = a.y + a.h;
      const x2 = b.x + b.w / 2;
      const y2 = b.y;
      const dy = Math.max(20, (y2 - y1) / 2);
      parts.push(`<path class="edge${control ? " control" : ""}" data-from="${from}" data-to="${to}" ` +
                 `d="M${x1.toFixed(1)},${y1.toFixed(1)} C${x1.toFixed(1)},${(y1 + dy).toFixed(1)} ` +
                 `${x2.toFixed(1)},${(y2 - dy).toFixed(1)} ${x2.toFixed(1)},${y2.toFixed(1)}">` +
                 (label ? `<title>${esc(label)}</title>` : "") + "</path>");
    }
    stage.nodes.forEach((node, i) => {
      const fill = state.color === "time" ? timeFill(node) : engineColours.get(node.e);
      const style = fill ? ` style="fill:${fill}"` : "";
      const badge = node.wt
        ? `<text class="badge" x="6" y="${(node.h - 5).toFixed(0)}">${esc(cut(
            node.wt.length === 1 ? "W " + node.wt[0].replace(/^[^:]*: (DT_)?/, "")
                                 : node.wt.length + " weights", Math.floor(node.w / 6.2)))}</text>`
        : "";
      parts.push(`<g class="${nodeClass(node)}" id="node-${i}" data-i="${i}" ` +
                 `transform="translate(${node.x.toFixed(1)},${node.y.toFixed(1)})">` +
                 `<rect width="${node.w.toFixed(1)}" height="${node.h.toFixed(1)}" rx="4"${style}></rect>` +
                 `<text x="6" y="14">${esc(cutStart(node.n, 30))}</text>` +
                 `<text class="type" x="6" y="28">${esc(node.t)}</text>${badge}</g>`);
    });
    viewport.innerHTML = parts.join("");
    fit();
    showDetails();
    updateHash();
  }

  function nodeElement(i) { return document.getElementById("node-" + i); }

  function select(i, center) {
    const stage = stages[state.stage];
    if (state.selected >= 0) {
      const old = nodeElement(state.selected);
      if (old) old.classList.remove("selected");
      for (const e of viewport.querySelectorAll(".edge.near")) e.classList.remove("near");
    }
    state.selected = i;
    if (i >= 0) {
      const element = nodeElement(i);
      if (element) {
        element.classList.add("selected");
        for (const e of viewport.querySelectorAll(`.edge[data-from="${i}"],.edge[data-to="${i}"]`)) {
          e.classList.add("near");
        }
      }
      if (center && stage.laid_out) {
        const node = stage.nodes[i];
        const box = svg.getBoundingClientRect();
        const k = Math.max(state.zoom.k, 0.6);
        state.zoom = { k, x: box.width / 2 - (node.x + node.w / 2) * k,
                       y: box.height / 2 - (node.y + node.h / 2) * k };
        applyZoom();
      }
    }
    showDetails();
    updateHash();
  }

  // Selects `name` in the stage with that index (switching to it), from anywhere in the page.
  function goTo(stageIndex, name) {
    showView("graph");
    if (state.stage !== stageIndex) drawStage(stageIndex);
    const i = byName[stageIndex].get(name);
    if (i !== undefined) select(i, true);
  }

  // A view of the latest stage before view `before`'s (of any stage, when `before` is
  // stages.length) that holds a node called `name`, or -1.
  function stageHolding(name, before) {
    const limit = before < stages.length ? rank[before] : stageNames.length;
    for (let s = stages.length - 1; s >= 0; --s) {
      if (rank[s] < limit && byName[s].has(name)) return s;
    }
    return -1;
  }

  function link(stageIndex, name, text) {
    return `<a class="node-link" data-stage="${stageIndex}" data-name="${esc(name)}">${esc(text || name)}</a>`;
  }

  function portRows(ports, output) {
    return ports.map((p) => {
      const peer = p[4];
      const peerName = output ? peer.replace(/ \+\d+$/, "") : peer.replace(/:\d+$/, "");
      const i = byName[state.stage].get(peerName);
      const peerCell = peer && i !== undefined ? link(state.stage, peerName, peer) : esc(peer || "");
      return `<tr><td>${esc(p[0])}</td><td>${esc(p[1].replace(/^DT_/, ""))}</td><td>${esc(p[2])}</td>` +
             `<td>${esc(p[3])}</td><td>${peerCell}</td>` +
             (output ? `<td class="num">${p[5] >= 0 ? p[5] : ""}</td>` : "") + "</tr>";
    }).join("");
  }

  function showDetails() {
    const details = $("details");
    const stage = stages[state.stage];
    if (!stage || state.selected < 0) {
      details.innerHTML = stage && !stage.too_large
        ? `<p class="hint">${esc(stage.stage)}: ${stage.drawn} nodes drawn, ${stage.folded} weights ` +
          `shown as badges on their readers, ${stage.all_nodes} nodes in all.</p>` +
          `<p class="hint">Click a node, or search for one. Drag to pan, wheel to zoom.</p>`
        : "";
      return;
    }
    const node = stage.nodes[state.selected];
    let html = `<h3 id="details-name">${esc(node.n)}</h3><table>` +
      `<tr><th>type</th><td id="details-type">${esc(node.t)}</td></tr>` +
      (node.e ? `<tr><th>engine</th><td>${esc(node.e)}</td></tr>` : "") +
      (node.k ? `<tr><th>kernel</th><td>${esc(node.k)}</td></tr>` : "") +
      (node.s !== undefined ? `<tr><th>stream</th><td>${node.s}</td></tr>` : "");
    const p = profileByName.get(node.n);
    if (p && DATA.profile) {
      html += `<tr><th>time</th><td>${p.us.toFixed(1)} \u00b5s (${(100 * p.us / DATA.profile.total_us).toFixed(1)}%)` +
              (p.flops > 0 && p.us > 0 ? `, ${(p.flops / p.us / 1e3).toFixed(1)} GFLOP/s` : "") + "</td></tr>";
    }
    html += "</table>";
    if (node.in.length) {
      html += `<h4>Inputs</h4><table><tr><th>port</th><th>dtype</th><th>shape</th><th>format</th>` +
              `<th>from</th></tr>${portRows(node.in, false)}</table>`;
    }
    if (node.out.length) {
      html += `<h4>Outputs</h4><table><tr><th>port</th><th>dtype</th><th>shape</th><th>format</th>` +
              `<th>to</th><th>offset</th></tr>${portRows(node.out, true)}</table>`;
    }
    if (node.wt) html += `<h4>Weights</h4><ul>${node.wt.map((w) => `<li>${esc(w)}</li>`).join("")}</ul>`;
    if (node.f) {
      html += `<h4>Fused from ${node.f.length} nodes</h4><ul id="details-fused">` +
        node.f.map((name) => {
          const s = stageHolding(name, state.stage);
          return `<li>${s >= 0 ? link(s, name) + ` <span class="hint">(${esc(viewLabel(s))})</span>`
                                : esc(name)}</li>`;
        }).join("") + "</ul>";
    }
    if (node.sg) {
      html += `<h4>Subgraphs</h4><ul id="details-subgraphs">${node.sg.map(([graph, count]) => {
        const v = viewOf(stage.stage, graph);
        const text = `${graph} (${count} nodes)`;
        return `<li>${v >= 0 ? `<a class="graph-link" data-view="${v}">${esc(text)}</a>` : esc(text)}</li>`;
      }).join("")}</ul>`;
    }
    if (node.a.length) {
      html += `<h4>Attributes</h4><table>${node.a.map(([k, v]) =>
        `<tr><th>${esc(k)}</th><td>${esc(v)}</td></tr>`).join("")}</table>`;
    }
    const elsewhere = stages.map((s, i) => (i !== state.stage && byName[i].has(node.n) ? i : -1))
      .filter((i) => i >= 0);
    if (elsewhere.length) {
      html += `<h4>In other stages</h4><p>${elsewhere.map((i) => link(i, node.n, viewLabel(i))).join(" \u00b7 ")}</p>`;
    }
    details.innerHTML = html;
  }

  document.addEventListener("click", (event) => {
    const a = event.target.closest("a.node-link");
    if (a) {
      event.preventDefault();
      goTo(Number(a.dataset.stage), a.dataset.name);
    }
    const g = event.target.closest("a.graph-link");
    if (g) {
      event.preventDefault();
      showView("graph");
      drawStage(Number(g.dataset.view));
    }
  });

  // Pan and zoom.
  let drag = null;
  svg.addEventListener("mousedown", (event) => {
    drag = { x: event.clientX, y: event.clientY, zx: state.zoom.x, zy: state.zoom.y, moved: false };
  });
  window.addEventListener("mousemove", (event) => {
    if (!drag) return;
    const dx = event.clientX - drag.x;
    const dy = event.clientY - drag.y;
    if (Math.abs(dx) + Math.abs(dy) > 3) drag.moved = true;
    state.zoom.x = drag.zx + dx;
    state.zoom.y = drag.zy + dy;
    applyZoom();
  });
  window.addEventListener("mouseup", (event) => {
    if (drag && !drag.moved) {
      const g = event.target.closest && event.target.closest(".node");
      if (g) select(Number(g.dataset.i), false);
    }
    drag = null;
  });
  svg.addEventListener("wheel", (event) => {
    event.preventDefault();
    const box = svg.getBoundingClientRect();
    const px = event.clientX - box.left;
    const py = event.clientY - box.top;
    const z = state.zoom;
    const k = Math.max(0.02, Math.min(4, z.k * Math.exp(-event.deltaY * 0.0015)));
    state.zoom = { k, x: px - (px - z.x) * (k / z.k), y: py - (py - z.y) * (k / z.k) };
    applyZoom();
  }, { passive: false });
  $("fit").addEventListener("click", fit);

  // Search by name or type: matches are outlined and listed; Enter (or an exact name) selects.
  function search(query) {
    const stage = stages[state.stage];
    for (const e of viewport.querySelectorAll(".node.match")) e.classList.remove("match");
    const results = $("search-results");
    results.innerHTML = "";
    const q = query.trim().toLowerCase();
    if (!q || !stage || stage.too_large) {
      $("search-count").textContent = "";
      return [];
    }
    const matches = [];
    stage.nodes.forEach((node, i) => {
      if (node.n.toLowerCase().includes(q) || node.t.toLowerCase() === q) matches.push(i);
    });
    $("search-count").textContent = `${matches.length} match${matches.length === 1 ? "" : "es"}`;
    for (const i of matches) nodeElement(i).classList.add("match");
    results.innerHTML = matches.slice(0, 60).map((i) =>
      link(state.stage, stage.nodes[i].n, `${stage.nodes[i].n} (${stage.nodes[i].t})`)).join("");
    const exact = byName[state.stage].get(query.trim());
    if (exact !== undefined) select(exact, true);
    else if (matches.length === 1) select(matches[0], true);
    return matches;
  }
  const searchBox = $("search");
  searchBox.addEventListener("input", () => search(searchBox.value));
  searchBox.addEventListener("keydown", (event) => {
    if (event.key !== "Enter") return;
    const matches = search(searchBox.value);
    if (matches.length) select(matches[0], true);
  });

  // Stage buttons, one per stage's root graph; the picker beside them shows its subgraphs.
  $("subgraph").addEventListener("change", () => {
    drawStage(Number($("subgraph").value));
    if (searchBox.value) search(searchBox.value);
  });
  stages.forEach((stage, i) => {
    if (stage.parent) return;
    const button = document.createElement("button");
    button.textContent = `${stage.stage} (${stage.drawn})`;
    button.dataset.stage = String(i);
    button.addEventListener("click", () => {
      drawStage(i);
      if (searchBox.value) search(searchBox.value);
    });
    $("stages").appendChild(button);
  });

  // ---- passes and fused nodes ----
  function drawPasses() {
    const report = DATA.report;
    if (!report) {
      $("pass-table").innerHTML = "<tr><td>No compile report in this page.</td></tr>";
      return;
    }
    $("stage-table").innerHTML = "<tr><th>stage</th><th>ms</th><th>nodes in</th><th>nodes out</th></tr>" +
      report.stages.map((s) => `<tr><td>${esc(s.name)}</td><td class="num">${ms(s.ms)}</td>` +
        `<td class="num">${s.before}</td><td class="num">${s.after}</td></tr>`).join("");
    $("pass-table").innerHTML =
      "<tr><th>stage</th><th>pass</th><th>ms</th><th>rewrites</th><th>nodes in</th><th>nodes out</th><th>notes</th></tr>" +
      report.passes.map((p) => {
        const counters = Object.entries(p.counters).map(([k, v]) => `${k}: ${v}`);
        const notes = counters.concat(p.notes).map(esc).join("<br>");
        return `<tr class="${p.skipped ? "skipped" : p.changed ? "changed" : ""}"><td>${esc(p.stage)}</td>` +
               `<td>${esc(p.name)}${p.skipped ? " (disabled)" : ""}</td><td class="num">${ms(p.ms)}</td>` +
               `<td class="num">${p.rewrites}</td><td class="num">${p.before}</td>` +
               `<td class="num">${p.after}</td><td>${notes}</td></tr>`;
      }).join("");
    // The fused nodes of the last stage that has them (its root graph and subgraphs), each with
    // its originals.
    const rows = [];
    const fusedRank = Math.max(-1, ...stages.map((s, i) => (s.nodes.some((n) => n.f) ? rank[i] : -1)));
    for (let s = 0; s < stages.length; ++s) {
      if (rank[s] !== fusedRank) continue;
      stages[s].nodes.forEach((node) => {
        if (!node.f) return;
        const originals = node.f.map((name) => {
          const at = stageHolding(name, s);
          return at >= 0 ? link(at, name) : esc(name);
        }).join(", ");
        rows.push(`<tr><td>${link(s, node.n)}</td><td>${esc(node.t)}</td><td>${esc(viewLabel(s))}</td>` +
                  `<td class="originals">${originals}</td></tr>`);
      });
    }
    $("fused-table").innerHTML = rows.length
      ? "<tr><th>fused node</th><th>type</th><th>stage</th><th>replaced</th></tr>" + rows.join("")
      : "<tr><td>No node was fused.</td></tr>";
  }

  // ---- memory ----
  let memoryDrawn = false;
  function drawMemory() {
    if (memoryDrawn) return;
    memoryDrawn = true;
    const plan = DATA.memory;
    const picture = $("memory");
    if (!plan || !plan.tensors.length) {
      $("memory-info").textContent = "No memory plan in this page (the model was not built).";
      return;
    }
    $("memory-info").textContent =
      `Arena ${mib(plan.arena_bytes)} (${plan.strategy}), lower bound ${mib(plan.lower_bound)} ` +
      `at step ${plan.peak_step}, ${plan.tensors.length} tensors over ${plan.steps} steps; weights ` +
      `${mib(plan.weight_bytes)}. Each block is a tensor: its steps across, its bytes up.`;
    const box = picture.getBoundingClientRect();
    const W = Math.max(600, box.width);
    const H = Math.max(300, box.height);
    const left = 70;
    const bottom = 30;
    const top = 10;
    const sx = (W - left - 10) / Math.max(1, plan.steps);
    const top_bytes = Math.max(plan.arena_bytes, plan.lower_bound, 1);
    const sy = (H - bottom - top) / top_bytes;
    const y = (bytes) => H - bottom - bytes * sy;
    const parts = [];
    const colour = (type) => {
      let h = 0;
      for (const c of type) h = (h * 31 + c.charCodeAt(0)) % 360;
      return `hsl(${h},55%,62%)`;
    };
    plan.tensors.forEach(([label, node, type, offset, size, first, last, alias], i) => {
      if (alias) return;
      parts.push(`<rect class="tensor" data-i="${i}" data-node="${esc(node)}" x="${(left + first * sx).toFixed(2)}" ` +
                 `y="${y(offset + size).toFixed(2)}" width="${Math.max(0.5, (last - first + 1) * sx).toFixed(2)}" ` +
                 `height="${Math.max(0.5, size * sy).toFixed(2)}" fill="${colour(type)}">` +
                 `<title>${esc(label)} (${esc(type)}): ${mib(size)} at offset ${offset}, steps ${first}\u2013${last}</title></rect>`);
    });
    const px = left + (plan.peak_step + 0.5) * sx;
    parts.push(`<line class="arena" x1="${left}" x2="${W - 10}" y1="${y(plan.arena_bytes)}" y2="${y(plan.arena_bytes)}"></line>`);
    parts.push(`<text x="${left + 4}" y="${y(plan.arena_bytes) - 3}">arena ${mib(plan.arena_bytes)}</text>`);
    parts.push(`<line class="bound" id="memory-bound" x1="${left}" x2="${W - 10}" y1="${y(plan.lower_bound)}" y2="${y(plan.lower_bound)}"></line>`);
    parts.push(`<text x="${W - 200}" y="${y(plan.lower_bound) + 12}" fill="#2f855a">lower bound ${mib(plan.lower_bound)}</text>`);
    if (plan.peak_step >= 0) {
      parts.push(`<line class="peak" id="memory-peak" x1="${px}" x2="${px}" y1="${top}" y2="${H - bottom}"></line>`);
      parts.push(`<text x="${px + 4}" y="${top + 12}" fill="#c53030">peak, step ${plan.peak_step}</text>`);
    }
    parts.push(`<line stroke="#333" x1="${left}" x2="${left}" y1="${top}" y2="${H - bottom}"></line>`);
    parts.push(`<line stroke="#333" x1="${left}" x2="${W - 10}" y1="${H - bottom}" y2="${H - bottom}"></line>`);
    for (let t = 0; t <= 4; ++t) {
      const bytes = top_bytes * t / 4;
      parts.push(`<text x="4" y="${y(bytes) + 4}">${mib(bytes)}</text>`);
    }
    parts.push(`<text x="${left}" y="${H - 8}">step 0</text>`);
    parts.push(`<text x="${W - 90}" y="${H - 8}">step ${plan.steps - 1}</text>`);
    picture.setAttribute("viewBox", `0 0 ${W} ${H}`);
    picture.innerHTML = parts.join("");
    picture.addEventListener("mouseover", (event) => {
      const rect = event.target.closest(".tensor");
      if (rect) $("memory-hover").textContent = rect.querySelector("title").textContent;
    });
    picture.addEventListener("click", (event) => {
      const rect = event.target.closest(".tensor");
      if (!rect) return;
      const name = rect.dataset.node;
      const s = stageHolding(name, stages.length);
      if (s >= 0) goTo(s, name);
    });
  }

  // ---- profile ----
  function drawProfile() {
    const profile = DATA.profile;
    if (!profile) return;
    document.querySelector('#tabs button[data-view="profile"]').hidden = false;
    $("color-label").hidden = false;
    const total = profile.total_us;
    $("profile-info").textContent = `One run: ${ms(total / 1000)} ms in ${profile.nodes.length} nodes' tasks.`;
    const types = new Map();
    for (const p of profile.nodes) {
      const t = types.get(p.t) || { count: 0, us: 0, flops: 0, timed: 0 };
      t.count += 1;
      t.us += p.us;
      if (p.flops > 0) { t.flops += p.flops; t.timed += p.us; }
      types.set(p.t, t);
    }
    const gflops = (flops, us) => (flops > 0 && us > 0 ? (flops / us / 1e3).toFixed(1) : "");
    $("profile-types").innerHTML =
      "<tr><th>type</th><th>nodes</th><th>ms</th><th>share</th><th>GFLOP/s</th></tr>" +
      [...types.entries()].sort((a, b) => b[1].us - a[1].us).map(([type, t]) =>
        `<tr><td>${esc(type)}</td><td class="num">${t.count}</td><td class="num">${ms(t.us / 1000)}</td>` +
        `<td class="num">${(100 * t.us / total).toFixed(1)}%</td><td class="num">${gflops(t.flops, t.timed)}</td></tr>`).join("");
    $("profile-nodes").innerHTML =
      "<tr><th>node</th><th>type</th><th>\u00b5s</th><th>share</th><th>GFLOP/s</th></tr>" +
      [...profile.nodes].sort((a, b) => b.us - a.us).slice(0, 300).map((p) => {
        const s = stageHolding(p.n, stages.length);
        return `<tr><td>${s >= 0 ? link(s, p.n) : esc(p.n)}</td><td>${esc(p.t)}</td>` +
               `<td class="num">${p.us.toFixed(1)}</td><td class="num">${(100 * p.us / total).toFixed(1)}%</td>` +
               `<td class="num">${gflops(p.flops || 0, p.us)}</td></tr>`;
      }).join("");
    state.color = "time";
    $("color").value = "time";
    $("color").addEventListener("change", () => {
      state.color = $("color").value;
      const selected = state.selected;
      drawStage(state.stage);
      if (selected >= 0) select(selected, false);
    });
  }

  // ---- the address: #view=memory, #stage=built&node=NAME ----
  function updateHash() {
    const params = new URLSearchParams();
    params.set("view", state.view);
    if (stages[state.stage]) {
      params.set("stage", stages[state.stage].stage);
      if (stages[state.stage].parent) params.set("graph", stages[state.stage].graph);
    }
    if (state.selected >= 0) params.set("node", stages[state.stage].nodes[state.selected].n);
    history.replaceState(null, "", "#" + params.toString());
  }

  function start() {
    drawPasses();
    drawProfile();
    const params = new URLSearchParams(location.hash.slice(1));
    const wanted = viewOf(params.get("stage"), params.get("graph"));
    if (stages.length) drawStage(wanted >= 0 ? wanted : viewOf(stageNames[stageNames.length - 1]));
    if (params.get("node") && byName[state.stage]) {
      const i = byName[state.stage].get(params.get("node"));
      if (i !== undefined) select(i, true);
    }
    showView(["graph", "passes", "memory", "profile"].includes(params.get("view"))
             ? params.get("view") : "graph");
    document.body.dataset.ready = "1";
  }
  start();
})();

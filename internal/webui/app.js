// The ringcheck explorer: draws a ring's configuration, lists its enabled
// steps and takes them (asking the server's API), and plays traces back
// beside their space-time diagram. Served by 'ringcheck serve', or inlined
// in an HTML export whose data is in the element #rc-data.
(function () {
  "use strict";

  var SVGNS = "http://www.w3.org/2000/svg";
  var dataEl = document.getElementById("rc-data");
  var S = {
    live: !dataEl, // a server answers the API
    model: null, // the server's model description
    playback: null, // {title, trace, svg} of the trace shown
    timeline: [], // entries {state, step, view}: step leads to the next entry
    cursor: 0,
    traceLen: 0, // the first traceLen entries are the trace's states
    loopStart: -1, // a lasso's loop start (when the whole trace is there)
    pending: 0
  };

  function $(id) { return document.getElementById(id); }

  function busy(d) {
    S.pending += d;
    document.body.setAttribute("data-busy", S.pending > 0 ? "1" : "0");
  }

  function api(path, body) {
    var opts = body === undefined ? {} : { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) };
    return fetch(path, opts).then(function (r) {
      if (!r.ok) {
        return r.text().then(function (t) { throw new Error(t || r.statusText); });
      }
      return r.json();
    });
  }

  function showError(e) {
    $("status").textContent = "error: " + e.message;
  }

  // fieldsText renders {name: value} as "name=value ...".
  function fieldsText(vars) {
    return Object.keys(vars || {}).map(function (k) { return k + "=" + vars[k]; }).join(" ");
  }

  function messageText(m) {
    var f = fieldsText(m.fields);
    return f ? m.type + "(" + f + ")" : m.type;
  }

  function stepText(step) {
    return step.processes.map(function (p) { return "p" + p; }).join(",") + " " + step.action;
  }

  function el(name, attrs, text) {
    var e = document.createElementNS(SVGNS, name);
    Object.keys(attrs || {}).forEach(function (k) { e.setAttribute(k, attrs[k]); });
    if (text !== undefined) { e.textContent = text; }
    return e;
  }

  // drawRing draws state: processes as boxes on a circle, with their
  // variables; channels as arcs with their messages, the head nearest the
  // receiver. enabled and acting are sets of process ids; legit is true,
  // false or null (no legitimacy predicate, or not known).
  function drawRing(state, enabled, acting, legit) {
    var svg = $("ring");
    while (svg.firstChild) { svg.removeChild(svg.firstChild); }
    var defs = el("defs");
    var marker = el("marker", { id: "ring-arrow", viewBox: "0 0 10 10", refX: "10", refY: "5", markerWidth: "7", markerHeight: "7", orient: "auto" });
    marker.appendChild(el("path", { d: "M 0 0 L 10 5 L 0 10 z", fill: "#0563c1" }));
    defs.appendChild(marker);
    svg.appendChild(defs);
    var n = state.processes.length;
    var cx = 300, cy = 300, R = n <= 2 ? 150 : 210;
    // The ring itself, under the channels: the processes' neighbourhood,
    // the only link drawn where processes read each other's variables.
    svg.appendChild(el("circle", { "class": "ring", cx: cx, cy: cy, r: n <= 2 ? 150 : 210 }));
    var pos = state.processes.map(function (_, i) {
      var a = -Math.PI / 2 + 2 * Math.PI * i / n;
      return { x: cx + R * Math.cos(a), y: cy + R * Math.sin(a) };
    });
    state.channels.forEach(function (ch) {
      var g = el("g", { "class": "chan", "data-from": ch.from, "data-to": ch.to, "data-messages": JSON.stringify(ch.messages) });
      var a = pos[ch.from], b = pos[ch.to];
      var dx = b.x - a.x, dy = b.y - a.y, len = Math.hypot(dx, dy) || 1;
      var ux = dx / len, uy = dy / len;
      // Bend to the left of the direction of travel: outward for a
      // clockwise ring, and apart for two channels between the same pair.
      var nx = uy, ny = -ux;
      var bend = Math.min(60, len / 3);
      var p0 = { x: a.x + ux * 45, y: a.y + uy * 45 };
      var p2 = { x: b.x - ux * 45, y: b.y - uy * 45 };
      var c = { x: (a.x + b.x) / 2 + nx * bend, y: (a.y + b.y) / 2 + ny * bend };
      if (ch.from === ch.to) {
        p0 = { x: a.x - 20, y: a.y - 40 }; p2 = { x: a.x + 20, y: a.y - 40 }; c = { x: a.x, y: a.y - 120 };
      }
      g.appendChild(el("path", { d: "M " + p0.x + " " + p0.y + " Q " + c.x + " " + c.y + " " + p2.x + " " + p2.y, "marker-end": "url(#ring-arrow)" }));
      var k = ch.messages.length;
      ch.messages.forEach(function (m, j) {
        // The head (j = 0) nearest the receiver.
        var t = k === 1 ? 0.5 : 0.8 - 0.6 * j / (k - 1);
        var x = (1 - t) * (1 - t) * p0.x + 2 * t * (1 - t) * c.x + t * t * p2.x;
        var y = (1 - t) * (1 - t) * p0.y + 2 * t * (1 - t) * c.y + t * t * p2.y;
        var label = messageText(m);
        var w = 8 + 6.6 * label.length;
        var mg = el("g", { "class": "msg", "data-index": j });
        mg.appendChild(el("rect", { x: x - w / 2, y: y - 9, width: w, height: 18, rx: 4 }));
        mg.appendChild(el("text", { x: x, y: y + 4, "text-anchor": "middle" }, label));
        g.appendChild(mg);
      });
      svg.appendChild(g);
    });
    state.processes.forEach(function (p, i) {
      var starving = S.playback && S.playback.trace.process === i && S.cursor < S.traceLen;
      var cls = "proc" + (enabled[i] ? " enabled" : "") + (acting[i] ? " acting" : "") + (starving ? " starving" : "");
      var g = el("g", { "class": cls, "data-proc": i, "data-vars": JSON.stringify(p.vars), "data-enabled": enabled[i] ? "true" : "false" });
      var names = Object.keys(p.vars || {});
      var longest = names.reduce(function (m, k) { return Math.max(m, (k + "=" + p.vars[k]).length); }, 3);
      var w = Math.max(60, 12 + 7.2 * longest), h = 24 + 15 * names.length;
      var x = pos[i].x, y = pos[i].y;
      g.appendChild(el("rect", { x: x - w / 2, y: y - h / 2, width: w, height: h, rx: 8 }));
      g.appendChild(el("text", { "class": "name", x: x, y: y - h / 2 + 17, "text-anchor": "middle" }, "p" + i));
      if (starving) {
        g.appendChild(el("text", { "class": "note", x: x, y: y + h / 2 + 15, "text-anchor": "middle" }, "starves"));
      }
      names.forEach(function (k, j) {
        g.appendChild(el("text", { x: x, y: y - h / 2 + 33 + 15 * j, "text-anchor": "middle" }, k + "=" + p.vars[k]));
      });
      svg.appendChild(g);
    });
    if (legit !== null && legit !== undefined) {
      svg.appendChild(el("text", { "class": "legit " + (legit ? "in" : "out"), x: cx, y: cy + 5, "text-anchor": "middle", "data-legitimate": legit ? "true" : "false" }, legit ? "in L (legitimate)" : "not in L"));
    }
    var chans = $("channels");
    chans.textContent = "";
    state.channels.forEach(function (ch) {
      var d = document.createElement("div");
      d.textContent = ch.from + "→" + ch.to + "  [" + ch.messages.map(messageText).join(", ") + "]" + (ch.messages.length > 1 ? "  (head first)" : "");
      chans.appendChild(d);
    });
  }

  function button(text, onclick, attrs) {
    var b = document.createElement("button");
    b.type = "button";
    b.textContent = text;
    b.addEventListener("click", onclick);
    Object.keys(attrs || {}).forEach(function (k) { b.setAttribute(k, attrs[k]); });
    return b;
  }

  function li(child) {
    var l = document.createElement("li");
    if (typeof child === "string") { l.textContent = child; } else { l.appendChild(child); }
    return l;
  }

  // traceStep is the trace's step from entry i, when entry i is a state of
  // the trace and the trace goes on from it.
  function traceStep(i) {
    if (!S.playback || i >= S.traceLen) { return null; }
    var tr = S.playback.trace;
    if (i < tr.steps.length && (i + 1 < S.traceLen || S.loopStart >= 0)) { return tr.steps[i]; }
    return null;
  }

  function nextIndex() {
    if (S.cursor + 1 < S.timeline.length) { return S.cursor + 1; }
    if (S.loopStart >= 0 && S.cursor === S.traceLen - 1 && S.traceLen === S.timeline.length) { return S.loopStart; }
    return -1;
  }

  function go(i) {
    if (i < 0 || i >= S.timeline.length) { return; }
    S.cursor = i;
    render();
  }

  function forward() { go(nextIndex()); }
  function back() { go(S.cursor - 1); }

  // take appends the state a step leads to after the current entry,
  // dropping what followed it.
  function take(step, next) {
    S.timeline.length = S.cursor + 1;
    S.timeline[S.cursor].step = step;
    S.timeline.push({ state: next, step: null, view: null });
    S.traceLen = Math.min(S.traceLen, S.cursor + 1);
    S.cursor++;
    render();
  }

  function setTimeline(states, steps) {
    S.timeline = states.map(function (s, i) { return { state: s, step: steps && i < steps.length ? steps[i] : null, view: null }; });
    S.cursor = 0;
  }

  function startTrace() {
    var tr = S.playback.trace;
    setTimeline(tr.states, tr.steps);
    S.traceLen = tr.states.length;
    S.loopStart = tr.kind === "lasso" ? tr.loop_start : -1;
    render();
  }

  function startStates(states) {
    setTimeline(states.slice(0, 1));
    S.traceLen = 0;
    S.loopStart = -1;
    render();
  }

  function renderHistory() {
    var h = $("history");
    h.textContent = "";
    S.timeline.forEach(function (e, i) {
      var step = e.step ? "  → " + stepText(e.step) : "";
      var b = button("state " + i + step, function () { go(i); }, { "data-index": i, tabindex: "-1" });
      var l = li(b);
      if (i === S.cursor) { l.className = "now"; l.setAttribute("aria-current", "step"); }
      if (S.loopStart >= 0 && i >= S.loopStart && i < S.traceLen) { l.className += " loop"; }
      h.appendChild(l);
    });
    if (S.loopStart >= 0 && S.traceLen === S.timeline.length) {
      h.appendChild(li("↻ the last step leads back to state " + S.loopStart + ": the loop repeats forever"));
    }
  }

  function renderDiagram() {
    var d = $("diagram");
    $("right").hidden = !S.playback;
    if (!S.playback) { d.textContent = ""; return; }
    if (!d.firstChild) { d.innerHTML = S.playback.svg; }
    var rows = d.querySelectorAll("rect.row");
    for (var i = 0; i < rows.length; i++) { rows[i].classList.remove("now"); }
    if (S.cursor < S.traceLen) {
      var r = d.querySelector('rect.row[data-row="' + S.cursor + '"]');
      if (r) {
        r.classList.add("now");
        // Scroll the diagram's pane, not the page, to the row.
        var pane = $("right"), svg = d.querySelector("svg");
        var scale = svg.getBoundingClientRect().height / (svg.viewBox.baseVal.height || 1);
        var top = svg.offsetTop + r.getBBox().y * scale;
        if (top < pane.scrollTop || top + 60 > pane.scrollTop + pane.clientHeight) {
          pane.scrollTop = Math.max(0, top - pane.clientHeight / 3);
        }
      }
    }
  }

  function renderStatic() {
    var e = S.timeline[S.cursor];
    var enabled = {}, acting = {};
    var step = traceStep(S.cursor);
    var acts = $("actions");
    acts.textContent = "";
    if (step) {
      step.processes.forEach(function (p) { enabled[p] = true; });
      acts.appendChild(li(button(stepText(step), forward, { "class": "step", "data-procs": step.processes.join(","), "data-action": step.action, "data-trace": "true" })));
    } else {
      acts.appendChild(li("the trace ends here"));
    }
    $("disabled-title").hidden = true;
    $("disabled").textContent = "";
    drawRing(e.state, enabled, acting, null);
    $("status").textContent = "";
  }

  function renderLive(e) {
    var v = e.view;
    var enabled = {};
    v.enabled.forEach(function (s) { s.processes.forEach(function (p) { enabled[p] = true; }); });
    drawRing(e.state, enabled, {}, v.legitimate);
    var acts = $("actions");
    acts.textContent = "";
    var ts = traceStep(S.cursor);
    v.enabled.forEach(function (s, i) {
      var onTrace = ts && ts.action === s.action && ts.processes.join(",") === s.processes.join(",");
      var label = stepText(s) + (s.overflow ? " (overflow)" : "") + (s.range_fault ? " (" + s.range_fault + ")" : "") + (onTrace ? "  ← the trace's" : "");
      acts.appendChild(li(button(label, function () {
        if (onTrace) { forward(); } else { take({ processes: s.processes, action: s.action }, s.next); }
      }, onTrace ? { "class": "step", "data-index": i, "data-procs": s.processes.join(","), "data-action": s.action, "data-trace": "true" }
        : { "class": "step", "data-index": i, "data-procs": s.processes.join(","), "data-action": s.action })));
    });
    if (v.enabled.length === 0) { acts.appendChild(li("no step is enabled: a deadlock or a valid end")); }
    var dis = $("disabled");
    dis.textContent = "";
    $("disabled-title").hidden = false;
    v.guards.forEach(function (acts, p) {
      acts.forEach(function (g) { if (!g.holds) { dis.appendChild(li("p" + p + " " + g.action)); } });
    });
    var st = $("status");
    st.textContent = "";
    if (v.legitimate !== null) {
      var l = document.createElement("div");
      l.className = v.legitimate ? "holds" : "fails";
      l.textContent = "legitimacy (" + (S.model.legitimacy || "L") + "): " + (v.legitimate ? "holds" : "does not hold");
      st.appendChild(l);
    }
    v.invariants.forEach(function (inv) {
      var d = document.createElement("div");
      d.className = inv.holds ? "holds" : "fails";
      d.textContent = "invariant " + inv.name + ": " + (inv.holds ? "holds" : "violated");
      st.appendChild(d);
    });
  }

  function render() {
    var e = S.timeline[S.cursor];
    var last = S.timeline.length - 1;
    var where = "state " + S.cursor + " of 0.." + last;
    if (S.loopStart >= 0 && S.cursor >= S.loopStart && S.cursor < S.traceLen) { where += " (in the loop)"; }
    $("pos").textContent = where;
    $("back").disabled = S.cursor === 0;
    var ni = nextIndex();
    $("forward").disabled = ni < 0;
    $("forward").textContent = ni >= 0 && ni <= S.cursor ? "↻ to state " + ni : "Forward ▶";
    $("ring").setAttribute("data-cursor", String(S.cursor));
    renderHistory();
    renderDiagram();
    if (!S.live) {
      renderStatic();
      return;
    }
    if (e.view) {
      renderLive(e);
      return;
    }
    busy(1);
    api("api/view", { state: e.state }).then(function (v) {
      e.view = v;
      if (S.timeline[S.cursor] === e) { renderLive(e); }
    }).catch(showError).then(function () { busy(-1); });
  }

  function random() {
    busy(1);
    api("api/random?seed=" + encodeURIComponent($("seed").value || "0")).then(function (r) {
      startStates([r.state]);
    }).catch(showError).then(function () { busy(-1); });
  }

  // typed starts from the configuration typed, once the server has
  // checked it (a value outside its domain, a missing variable... is
  // shown, and nothing changes).
  function typed() {
    var state;
    $("config-error").textContent = "";
    try {
      state = JSON.parse($("config").value);
    } catch (e) {
      $("config-error").textContent = "not JSON: " + e.message;
      return;
    }
    busy(1);
    api("api/view", { state: state }).then(function (v) {
      startStates([state]);
      S.timeline[0].view = v;
      render();
    }).catch(function (e) {
      $("config-error").textContent = e.message;
    }).then(function () { busy(-1); });
  }

  function onKey(ev) {
    var t = ev.target;
    if (t && (t.tagName === "INPUT" || t.tagName === "TEXTAREA")) { return; }
    if (ev.altKey || ev.ctrlKey || ev.metaKey) { return; }
    switch (ev.key) {
      case "ArrowRight": forward(); break;
      case "ArrowLeft": back(); break;
      case "Home": go(0); break;
      case "End": go(S.timeline.length - 1); break;
      default: return;
    }
    ev.preventDefault();
  }

  function setup(model, playback) {
    S.model = model;
    S.playback = playback;
    var title = playback ? playback.title : model.name + " (" + model.values + ")";
    $("title").textContent = playback ? "ringcheck: " + playback.title : "ringcheck explorer: " + title;
    document.title = "ringcheck: " + title;
    $("subtitle").textContent = model ? model.name + " " + model.values + (model.legitimacy ? " · L: " + model.legitimacy : "") : "a trace, played back";
    $("back").addEventListener("click", back);
    $("forward").addEventListener("click", forward);
    $("from-trace").hidden = !playback;
    $("from-trace").addEventListener("click", startTrace);
    $("from-init").hidden = !model;
    $("from-random").hidden = !model;
    $("seed").parentNode.hidden = !model;
    $("typed").hidden = !model;
    if (model) {
      $("from-init").addEventListener("click", function () { startStates(model.initial); });
      $("from-random").addEventListener("click", random);
      $("typed").addEventListener("toggle", function () {
        if ($("typed").open && !$("config").value) { $("config").value = JSON.stringify(S.timeline[S.cursor].state, null, 1); }
      });
      $("from-config").addEventListener("click", typed);
    }
    document.addEventListener("keydown", onKey);
    var params = new URLSearchParams(window.location.search);
    if (playback && params.get("from") !== "init" && params.get("from") !== "random") {
      startTrace();
    } else if (model && params.get("from") === "random") {
      $("seed").value = params.get("seed") || "1";
      random();
    } else {
      startStates(model.initial);
    }
  }

  // chart draws series of a sweep's points against the swept parameter:
  // one circle per point with a value (data-series, data-value, data-y),
  // consecutive ones joined, the y axis logarithmic when log is set.
  function chart(title, sw, series, log) {
    var W = 700, H = 250, L = 70, R = 90, T = 34, B = 40;
    var svg = el("svg", { "class": "chart", width: W, height: H, viewBox: "0 0 " + W + " " + H, role: "img", "aria-label": title });
    svg.appendChild(el("text", { x: L, y: 18, "class": "chart-title" }, title));
    var vals = sw.points.map(function (p) { return p.value; });
    var vmin = Math.min.apply(null, vals), vmax = Math.max.apply(null, vals);
    var X = function (v) { return vmax === vmin ? (L + W - R) / 2 : L + (v - vmin) / (vmax - vmin) * (W - L - R); };
    var ymax = 1;
    sw.points.forEach(function (p) {
      series.forEach(function (s) { if (p[s.key] !== null && p[s.key] !== undefined) { ymax = Math.max(ymax, p[s.key]); } });
    });
    var f = log ? function (y) { return Math.log10(Math.max(1, y)); } : function (y) { return y; };
    // A linear axis goes up in steps of 1, 2 or 5 times a power of ten.
    var step = Math.pow(10, Math.floor(Math.log10(ymax / 5)));
    if (ymax / step > 20) { step *= 5; } else if (ymax / step > 10) { step *= 2; }
    step = Math.max(1, step);
    var top = log ? Math.ceil(f(ymax)) || 1 : Math.ceil(ymax / step) * step;
    var Y = function (y) { return H - B - f(y) / top * (H - T - B); };
    svg.appendChild(el("line", { x1: L, y1: H - B, x2: W - R, y2: H - B, "class": "axis" }));
    svg.appendChild(el("line", { x1: L, y1: T, x2: L, y2: H - B, "class": "axis" }));
    var ticks = log ? top : Math.round(top / step);
    for (var i = 0; i <= ticks; i++) {
      var yv = log ? Math.pow(10, i) : i * step;
      var yy = log ? H - B - i / top * (H - T - B) : Y(yv);
      svg.appendChild(el("text", { x: L - 6, y: yy + 4, "text-anchor": "end", "class": "tick" }, String(yv)));
      svg.appendChild(el("line", { x1: L, y1: yy, x2: W - R, y2: yy, "class": "grid" }));
    }
    sw.points.forEach(function (p) {
      svg.appendChild(el("text", { x: X(p.value), y: H - B + 16, "text-anchor": "middle", "class": "tick" }, String(p.value)));
    });
    svg.appendChild(el("text", { x: (L + W - R) / 2, y: H - 6, "text-anchor": "middle", "class": "tick" }, sw.param));
    svg.appendChild(el("text", { x: W - R + 14, y: H - B - 4, "class": "tick" }, "× none"));
    series.forEach(function (s, k) {
      var pts = [];
      sw.points.forEach(function (p) {
        var y = p[s.key];
        if (p.skipped || y === null || y === undefined) {
          var m = el("text", { x: X(p.value), y: T + 4 + 12 * k, "text-anchor": "middle", "class": "missing " + s.cls, "data-series": s.name, "data-value": p.value }, "×");
          m.appendChild(el("title", {}, s.name + " at " + sw.param + "=" + p.value + ": " + (p.skipped ? "skipped" : "none (unbounded, or not computed)")));
          svg.appendChild(m);
          return;
        }
        pts.push(X(p.value) + "," + Y(y));
        var c = el("circle", { cx: X(p.value), cy: Y(y), r: 4, "class": s.cls, "data-series": s.name, "data-value": p.value, "data-y": y });
        c.appendChild(el("title", {}, s.name + " at " + sw.param + "=" + p.value + ": " + y));
        svg.appendChild(c);
      });
      if (pts.length > 1) { svg.insertBefore(el("polyline", { points: pts.join(" "), "class": s.cls }), svg.firstChild.nextSibling); }
      svg.appendChild(el("text", { x: W - R + 14, y: T + 10 + 16 * k, "class": "legend " + s.cls }, "● " + s.name));
    });
    return svg;
  }

  function verdictTable(sw) {
    var t = document.createElement("table");
    t.id = "verdicts";
    var head = document.createElement("tr");
    var th = document.createElement("th");
    th.textContent = sw.param;
    head.appendChild(th);
    sw.points.forEach(function (p) {
      var h = document.createElement("th");
      h.textContent = String(p.value);
      head.appendChild(h);
    });
    t.appendChild(head);
    var props = [];
    sw.points.forEach(function (p) { p.verdicts.forEach(function (v) { if (props.indexOf(v.property) < 0) { props.push(v.property); } }); });
    props.forEach(function (name) {
      var tr = document.createElement("tr");
      var h = document.createElement("th");
      h.textContent = name;
      tr.appendChild(h);
      sw.points.forEach(function (p) {
        var td = document.createElement("td");
        var v = p.verdicts.filter(function (x) { return x.property === name; })[0];
        var text = p.skipped ? "skipped" : v ? v.verdict : "–";
        td.textContent = text;
        td.className = "verdict-" + text;
        td.setAttribute("data-value", p.value);
        td.setAttribute("data-property", name);
        if (p.skipped) { td.title = p.skipped; }
        tr.appendChild(td);
      });
      t.appendChild(tr);
    });
    return t;
  }

  // setupSweep shows a sweep's results: its worst cases and states
  // against the swept parameter, and every verdict.
  function setupSweep(sw) {
    document.title = "ringcheck: " + sw.spec + ", sweeping " + sw.param;
    $("title").textContent = "ringcheck: " + sw.spec + ", sweeping " + sw.param;
    $("subtitle").textContent = sw.points.length + " instances, " + sw.param + " = " + sw.points.map(function (p) { return p.value; }).join(", ");
    $("left").hidden = true;
    $("middle").hidden = true;
    $("right").hidden = false;
    var d = $("diagram");
    d.textContent = "";
    d.appendChild(chart("worst case of stabilization", sw, [{ key: "worst_steps", name: "steps", cls: "steps" }, { key: "worst_rounds", name: "rounds", cls: "rounds" }], false));
    d.appendChild(chart("states explored (log scale)", sw, [{ key: "states", name: "states", cls: "states" }], true));
    d.appendChild(verdictTable(sw));
  }

  busy(1);
  if (!S.live) {
    setup(null, JSON.parse(dataEl.textContent));
    busy(-1);
  } else {
    api("api/model").then(function (m) {
      if (m.sweep) { setupSweep(m.sweep); return; }
      setup(m, m.trace || null);
    }).catch(showError).then(function () { busy(-1); });
  }
}());

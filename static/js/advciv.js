/* Advanced Civilization map: zoom and pan (buttons, wheel, drag, pinch), and orders entered by clicking.
   Progressive enhancement: every order is also a plain form below the map, usable without this file.

   What the page gives this file:
   - svg.ac-map: paths .ac-area[data-area] (one per area), unit markers .ac-stack[data-area];
   - .ac-command[data-ac-mode]: "move" (pick a stack, then a destination), "pick" (click an area to send the
     order of the form whose data-ac-pick names that area), "toggle" (click a marked area to flip its
     checkbox: build / no build, the cities that revolt) or "counts" (click an area to add one to its
     number field: expansion short of stock), "lose" (a calamity's loss: rows [data-ac-loss] of the
     form, each area red when it loses something and green when it is kept; a click on the map goes to the
     area's row) or "assign" (amounts only);
   - in "toggle", a list .ac-toggles.harm marks what is chosen in red (cities a calamity reduces), not green;
   - for "move": data-ac-sources = {area: {"max": n, "to": [areas]}} and data-ac-ships = {area: {"max": n,
     "to": [areas], "sea": [the sea areas among them]}}; the form form.ac-move-form holds the fields of
     a land move (origin, to, tokens, via) and of a two-stop voyage (ship, stops[0], stops[1]); the ones
     not used are disabled. */
(function () {
  "use strict";
  if (window.advcivMap) { return; }
  window.advcivMap = true;
  document.documentElement.classList.add("ac-js");

  var ZOOM_STEP = 1.4;
  var MAX_ZOOM = 8;
  var CROWDED = 3.4;  // map units per screen pixel beyond which the area names run into each other
  var DRAG_THRESHOLD = 6;
  var saved = { box: null, source: null, ship: false };  // survives the live swaps of the board

  function map() { return document.querySelector("svg.ac-map"); }
  function command() { return document.querySelector(".ac-command"); }

  function json(element, name) {
    if (!element) { return {}; }
    try { return JSON.parse(element.getAttribute(name) || "{}"); } catch (e) { return {}; }
  }

  /* ---------- zoom and pan: the viewBox moves, the page does not ---------- */

  function fullBox(svg) {
    var parts = (svg.getAttribute("data-full-box") || svg.getAttribute("viewBox")).split(/[ ,]+/).map(Number);
    return { x: parts[0], y: parts[1], w: parts[2], h: parts[3] };
  }

  function currentBox(svg) {
    var v = svg.viewBox.baseVal;
    return { x: v.x, y: v.y, w: v.width, h: v.height };
  }

  /* Height over width of the drawing area: the page may make it taller than the map (on a phone). */
  function aspect(svg) {
    var rect = svg.getBoundingClientRect();
    var full = fullBox(svg);
    return rect.width && rect.height ? rect.height / rect.width : full.h / full.w;
  }

  /* The widest box allowed: the whole map, with room around it when the drawing area's shape differs. */
  function widest(svg) {
    var full = fullBox(svg);
    return Math.max(full.w, full.h / aspect(svg));
  }

  function clampAxis(start, size, fullStart, fullSize) {
    if (size >= fullSize) { return fullStart - (size - fullSize) / 2; }
    return Math.min(fullStart + fullSize - size, Math.max(fullStart, start));
  }

  function setBox(svg, box) {
    var full = fullBox(svg);
    var ratio = aspect(svg);
    var cx = box.x + box.w / 2;
    var cy = box.y + box.h / 2;
    var w = Math.min(widest(svg), Math.max(full.w / MAX_ZOOM, Math.max(box.w, box.h / ratio)));
    var h = w * ratio;
    var x = clampAxis(cx - w / 2, w, full.x, full.w);
    var y = clampAxis(cy - h / 2, h, full.y, full.h);
    svg.setAttribute("viewBox", [x, y, w, h].map(function (n) { return Math.round(n * 10) / 10; }).join(" "));
    saved.box = { x: x, y: y, w: w, h: h };
    var zoom = full.w / w;
    svg.classList.toggle("zoomed", zoom > 1.6);
    var width = svg.getBoundingClientRect().width;
    var perPixel = width ? w / width : 0;
    svg.style.setProperty("--ac-px", String(Math.round(perPixel * 1000) / 1000));
    svg.classList.toggle("crowded", perPixel > CROWDED);
    var level = document.querySelector(".ac-zoom-level");
    if (level) { level.textContent = Math.round(zoom * 100) + " %"; }
  }

  /* Zoom by `factor` keeping the map point under (clientX, clientY) where it is. */
  function zoomAt(svg, factor, clientX, clientY) {
    var box = currentBox(svg);
    var rect = svg.getBoundingClientRect();
    var fx = rect.width ? (clientX - rect.left) / rect.width : 0.5;
    var fy = rect.height ? (clientY - rect.top) / rect.height : 0.5;
    var full = fullBox(svg);
    var w = Math.min(widest(svg), Math.max(full.w / MAX_ZOOM, box.w / factor));
    var h = w * box.h / box.w;
    var px = box.x + box.w * fx;
    var py = box.y + box.h * fy;
    setBox(svg, { x: px - w * fx, y: py - h * fy, w: w, h: h });
  }

  function zoomCentre(svg, factor) {
    var rect = svg.getBoundingClientRect();
    zoomAt(svg, factor, rect.left + rect.width / 2, rect.top + rect.height / 2);
  }

  function panBy(svg, dxPixels, dyPixels) {
    var box = currentBox(svg);
    var rect = svg.getBoundingClientRect();
    if (!rect.width) { return; }
    var scale = box.w / rect.width;
    setBox(svg, { x: box.x - dxPixels * scale, y: box.y - dyPixels * scale, w: box.w, h: box.h });
  }

  var pointers = {};      // active pointers on the map, by id
  var gesture = null;     // {moved, startX, startY, lastX, lastY, pinch}

  function pointerList() { return Object.keys(pointers).map(function (k) { return pointers[k]; }); }

  function distance(a, b) { return Math.hypot(a.x - b.x, a.y - b.y); }

  document.addEventListener("pointerdown", function (event) {
    var svg = event.target.closest && event.target.closest("svg.ac-map");
    if (!svg || (event.pointerType === "mouse" && event.button !== 0)) { return; }
    // A tap must not scroll the page to the area it focuses (an area reaches far beyond the screen).
    event.preventDefault();
    var focusable = event.target.closest("[tabindex]");
    if (focusable) { focusable.focus({ preventScroll: true }); }
    pointers[event.pointerId] = { x: event.clientX, y: event.clientY };
    var list = pointerList();
    if (list.length === 1) {
      gesture = { moved: false, startX: event.clientX, startY: event.clientY, lastX: event.clientX, lastY: event.clientY, pinch: null };
    } else if (list.length === 2 && gesture) {
      gesture.moved = true;
      gesture.pinch = distance(list[0], list[1]);
    }
  });

  document.addEventListener("pointermove", function (event) {
    if (!gesture || !pointers[event.pointerId]) { return; }
    var svg = map();
    if (!svg) { return; }
    pointers[event.pointerId] = { x: event.clientX, y: event.clientY };
    var list = pointerList();
    if (list.length >= 2 && gesture.pinch) {
      var now = distance(list[0], list[1]);
      if (now > 0) {
        zoomAt(svg, now / gesture.pinch, (list[0].x + list[1].x) / 2, (list[0].y + list[1].y) / 2);
        gesture.pinch = now;
      }
      return;
    }
    if (!gesture.moved && Math.hypot(event.clientX - gesture.startX, event.clientY - gesture.startY) < DRAG_THRESHOLD) { return; }
    if (!gesture.moved) {
      gesture.moved = true;
      svg.classList.add("panning");
      try { svg.setPointerCapture(event.pointerId); } catch (e) { /* the pointer is already gone */ }
    }
    panBy(svg, event.clientX - gesture.lastX, event.clientY - gesture.lastY);
    gesture.lastX = event.clientX;
    gesture.lastY = event.clientY;
  });

  function endPointer(event) {
    if (!pointers[event.pointerId]) { return; }
    delete pointers[event.pointerId];
    var svg = map();
    if (svg) { svg.classList.remove("panning"); }
    if (!pointerList().length) {
      window.setTimeout(function () { gesture = null; }, 0);  // the click that follows a drag is ignored
    } else if (gesture) {
      gesture.pinch = null;
    }
  }
  document.addEventListener("pointerup", endPointer);
  document.addEventListener("pointercancel", endPointer);

  document.addEventListener("wheel", function (event) {
    var svg = event.target.closest && event.target.closest("svg.ac-map");
    if (!svg) { return; }
    event.preventDefault();
    zoomAt(svg, event.deltaY < 0 ? 1.2 : 1 / 1.2, event.clientX, event.clientY);
  }, { passive: false });

  /* ---------- orders by clicking ---------- */

  function say(text) {
    var line = document.getElementById("ac-hint");
    if (line) { line.textContent = text || ""; }
  }

  function text(key) {
    var panel = command();
    return panel ? panel.getAttribute("data-say-" + key) || "" : "";
  }

  function areaName(key) {
    var path = document.querySelector('.ac-map .ac-area[data-area="' + key + '"] title');
    return path ? path.textContent : key;
  }

  function fill(template, values) {
    return template.replace(/\{(\w+)\}/g, function (whole, name) { return values[name] !== undefined ? values[name] : whole; });
  }

  function mark(keys, className) {
    document.querySelectorAll(".ac-map .ac-area." + className).forEach(function (a) { a.classList.remove(className); });
    keys.forEach(function (key) {
      var area = document.querySelector('.ac-map .ac-area[data-area="' + key + '"]');
      if (area) { area.classList.add(className); }
    });
  }

  function chooser() { return document.querySelector(".ac-chooser"); }

  function closeChooser() {
    var box = chooser();
    if (box) { box.hidden = true; }
  }

  function selectSource(key, ship) {
    var panel = command();
    var table = json(panel, ship ? "data-ac-ships" : "data-ac-sources");
    if (!table[key]) { saved.source = null; paint(); return; }
    saved.source = key;
    saved.ship = ship;
    paint();
    say(fill(text(ship ? "ship" : "source"), { area: areaName(key), n: table[key].max }));
  }

  function paint() {
    var panel = command();
    var mode = panel ? panel.getAttribute("data-ac-mode") : "";
    var sources = [];
    var targets = [];
    if (mode === "move") {
      var tokens = json(panel, "data-ac-sources");
      var ships = json(panel, "data-ac-ships");
      sources = Object.keys(tokens).concat(Object.keys(ships));
      var table = saved.ship ? ships : tokens;
      if (saved.source && table[saved.source]) {
        targets = table[saved.source].to || [];
      } else {
        saved.source = null;
      }
    } else if (mode === "lose") {
      document.querySelectorAll("[data-ac-loss]").forEach(function (row) {
        targets.push(row.getAttribute("data-ac-loss"));
      });
    } else if (mode === "pick" || mode === "toggle" || mode === "counts") {
      document.querySelectorAll("[data-ac-pick]").forEach(function (element) {
        targets.push(element.getAttribute("data-ac-pick"));
      });
    }
    mark(sources, "source");
    mark(saved.source ? [saved.source] : [], "picked");
    mark(targets, "dest");
    document.querySelectorAll(".ac-map .ac-area").forEach(function (area) {
      var on = area.classList.contains("source") || area.classList.contains("dest");
      if (on) { area.setAttribute("tabindex", "0"); area.setAttribute("role", "button"); }
      else { area.removeAttribute("tabindex"); area.removeAttribute("role"); }
    });
    document.querySelectorAll(".ac-map .ac-stack").forEach(function (stack) {
      stack.classList.toggle("picked", stack.getAttribute("data-area") === saved.source &&
        (stack.getAttribute("data-kind") === "ship") === saved.ship && stack.classList.contains("mine"));
    });
    if (mode !== "move" || !saved.source) { closeChooser(); }
  }

  function openChooser(to) {
    var panel = command();
    var table = json(panel, saved.ship ? "data-ac-ships" : "data-ac-sources");
    var entry = table[saved.source];
    var box = chooser();
    var form = document.querySelector("form.ac-move-form");
    if (!entry || !box || !form) { return; }
    var ship = saved.ship;
    form.elements.type.value = ship ? "sail" : "move";
    form.querySelectorAll("[data-land]").forEach(function (field) { field.disabled = ship; });
    form.querySelectorAll("[data-sea]").forEach(function (field) { field.disabled = !ship; });
    if (ship) {
      form.elements.ship.value = saved.source;
      form.elements["stops[0].area"].value = saved.source;
      form.elements["stops[1].area"].value = to;
    } else {
      form.elements.origin.value = saved.source;
      form.elements.to.value = to;
      form.elements.via.value = (entry.via || {})[to] || "";
    }
    var count = form.elements.tokens;
    var toSea = ship && (entry.sea || []).indexOf(to) !== -1;  // tokens leave a ship on land only
    var most = toSea ? 0 : entry.max;
    var low = ship ? 0 : 1;
    count.min = String(low);
    count.max = String(most);
    count.value = String(most);
    box.querySelector(".ac-chooser-what").textContent = fill(text(saved.ship ? "sail" : "move"), {
      from: areaName(saved.source), to: areaName(to), n: most
    });
    box.querySelectorAll("[data-count]").forEach(function (button) {
      var value = button.getAttribute("data-count") === "all" ? most : Number(button.getAttribute("data-count"));
      button.hidden = value > most || value < low || (button.getAttribute("data-count") !== "all" && value === most);
      button.setAttribute("data-value", String(value));
    });
    box.hidden = false;
    mark([to], "chosen");
    count.focus({ preventScroll: true });
  }

  function submit(form) {
    if (form.requestSubmit) { form.requestSubmit(); } else { form.submit(); }
  }

  /* A voyage: the tokens chosen board where the ship is and are set down where it ends. */
  function mirrorCount(form) {
    if (form.elements.type.value !== "sail") { return; }
    var n = form.elements.tokens.value || "0";
    form.elements["stops[0].board"].value = n;
    form.elements["stops[1].land"].value = n;
  }
  document.addEventListener("submit", function (event) {
    if (event.target.matches && event.target.matches("form.ac-move-form")) { mirrorCount(event.target); }
  }, true);
  document.addEventListener("htmx:configRequest", function (event) {
    var form = event.detail.elt;
    if (form && form.matches && form.matches("form.ac-move-form") && form.elements.type.value === "sail") {
      delete event.detail.parameters.tokens;
    }
  });

  function clickArea(key, stackKind) {
    var panel = command();
    var mode = panel ? panel.getAttribute("data-ac-mode") : "";
    if (mode === "move") {
      var ships = json(panel, "data-ac-ships");
      var tokens = json(panel, "data-ac-sources");
      if (saved.source && key !== saved.source) {
        var table = saved.ship ? ships : tokens;
        if ((table[saved.source].to || []).indexOf(key) !== -1) { openChooser(key); return; }
      }
      if (saved.source === key && saved.ship === (stackKind === "ship")) { saved.source = null; say(""); paint(); return; }
      if (stackKind === "ship" && ships[key]) { selectSource(key, true); return; }
      if (tokens[key]) { selectSource(key, false); return; }
      if (ships[key]) { selectSource(key, true); return; }
      if (saved.source) { say(text("unreachable")); }
      return;
    }
    if (mode === "pick") {
      var form = document.querySelector('form[data-ac-pick="' + key + '"]');
      if (form) { mark([key], "chosen"); submit(form); }
      return;
    }
    if (mode === "toggle") {
      var box = document.querySelector('input[data-ac-pick="' + key + '"]');
      if (box) { box.checked = !box.checked; box.dispatchEvent(new Event("change", { bubbles: true })); }
      return;
    }
    if (mode === "lose") {
      var row = document.querySelector('[data-ac-loss="' + key + '"]');
      var field = row && row.querySelector("input[data-ac-lose]");
      if (field) { field.scrollIntoView({ block: "nearest" }); field.focus(); }
      return;
    }
    if (mode === "counts") {
      var input = document.querySelector('input[data-ac-count][data-ac-pick="' + key + '"]');
      if (input) {
        var next = Number(input.value || 0) + 1;
        input.value = String(next > Number(input.max) ? 0 : next);
        input.dispatchEvent(new Event("change", { bubbles: true }));
      }
    }
  }

  /* Expansion short of stock: the tokens still to place, and the count shown on each area. */
  function counts() {
    var left = document.querySelector(".ac-left");
    if (!left) { return; }
    var placed = 0;
    document.querySelectorAll("input[data-ac-count]").forEach(function (input) {
      var value = Number(input.value || 0);
      placed += value;
      var area = document.querySelector('.ac-map .ac-area[data-area="' + input.getAttribute("data-ac-pick") + '"]');
      if (area) { area.classList.toggle("chosen", value > 0); }
    });
    left.textContent = fill(text("left"), { n: Number(left.getAttribute("data-stock")) - placed });
  }

  /* A calamity's loss: the unit points each row takes (a token 1, a city 5 less the tokens it leaves),
     red on the map where something goes, green where all is kept, and the total against what is due. */
  function losses() {
    var total = document.querySelector(".ac-lose-total");
    if (!total) { return; }
    var sum = 0;
    document.querySelectorAll("[data-ac-loss]").forEach(function (row) {
      var tokens = row.querySelector('input[data-ac-lose="tokens"]');
      var city = row.querySelector('input[data-ac-lose="city"]');
      var left = row.querySelector('input[data-ac-lose="left"]');
      if (left) { left.disabled = !(city && city.checked); }  // a kept city leaves nothing in its place
      var points = (tokens ? Number(tokens.value || 0) : 0) +
        (city && city.checked ? 5 - (left ? Number(left.value || 0) : 0) : 0);
      sum += points;
      row.classList.toggle("lost", points > 0);
      row.classList.toggle("kept", points <= 0);
      var area = document.querySelector('.ac-map .ac-area[data-area="' + row.getAttribute("data-ac-loss") + '"]');
      if (area) { area.classList.toggle("loss", points > 0); area.classList.toggle("keep", points <= 0); }
    });
    var due = Number(total.getAttribute("data-due"));
    var figure = total.querySelector("strong");
    if (figure) { figure.textContent = String(sum); }
    total.classList.toggle("off", sum !== due);
  }

  function toggles() {
    var count = 0;
    document.querySelectorAll('input[type="checkbox"][data-ac-pick]').forEach(function (box) {
      var on = box.checked;
      if (on) { count += 1; }
      var key = box.getAttribute("data-ac-pick");
      var area = document.querySelector('.ac-map .ac-area[data-area="' + key + '"]');
      if (area && box.closest(".harm")) {
        area.classList.toggle("loss", on); area.classList.toggle("keep", !on);
        return;
      }
      if (area) { area.classList.toggle("build", on); area.classList.toggle("nobuild", !on); }
      var marker = document.querySelector('.ac-map .ac-site[data-area="' + key + '"]');
      if (marker) { marker.classList.toggle("build", on); marker.classList.toggle("nobuild", !on); }
    });
    var total = document.querySelector(".ac-build-total");
    if (total) { total.textContent = total.closest(".ac-command").querySelector(".harm") ? String(count) : "+" + count; }
  }

  document.addEventListener("click", function (event) {
    var zoom = event.target.closest(".ac-zoom button");
    if (zoom) {
      var svg = map();
      var how = zoom.getAttribute("data-zoom");
      if (how === "in") { zoomCentre(svg, ZOOM_STEP); }
      else if (how === "out") { zoomCentre(svg, 1 / ZOOM_STEP); }
      else { var full = fullBox(svg); setBox(svg, { x: full.x, y: full.y, w: widest(svg), h: full.h }); }
      return;
    }
    var quick = event.target.closest(".ac-chooser [data-value]");
    if (quick) {
      var form = document.querySelector("form.ac-move-form");
      form.elements.tokens.value = quick.getAttribute("data-value");
      submit(form);
      return;
    }
    if (event.target.closest(".ac-chooser-cancel")) {
      saved.source = null;
      say("");
      paint();
      return;
    }
    if (event.target.closest("svg.ac-map")) {
      if (gesture && gesture.moved) { return; }
      var stack = event.target.closest(".ac-stack");
      var target = stack || event.target.closest(".ac-area");
      if (target) { clickArea(target.getAttribute("data-area"), stack ? stack.getAttribute("data-kind") : ""); }
    }
  });

  document.addEventListener("keydown", function (event) {
    if (event.key === "Escape" && saved.source) {
      saved.source = null;
      say("");
      paint();
      return;
    }
    var area = event.target.closest && event.target.closest(".ac-map .ac-area[tabindex]");
    if (area && (event.key === "Enter" || event.key === " ")) {
      event.preventDefault();
      clickArea(area.getAttribute("data-area"), "");
    }
  });

  document.addEventListener("change", function (event) {
    if (event.target.matches && event.target.matches("input[data-ac-count]")) { counts(); return; }
    if (event.target.matches && event.target.matches("input[data-ac-pick]")) { toggles(); return; }
    if (event.target.matches && event.target.matches("input[data-ac-lose]")) { losses(); }
  });

  document.addEventListener("input", function (event) {
    if (event.target.matches && event.target.matches("input[data-ac-lose]")) { losses(); }
  });

  function boxOf(text) {
    var parts = text.split(/[ ,]+/).map(Number);
    return { x: parts[0], y: parts[1], w: parts[2], h: parts[3] };
  }

  /* The first view: on a wide screen the part of the map in play; on a narrow one, the viewer's pieces. */
  function firstBox(svg) {
    var focus = svg.getAttribute("data-focus");
    var play = svg.getAttribute("data-play-box");
    var rect = svg.getBoundingClientRect();
    var full = fullBox(svg);
    if (rect.width >= 700) { return play ? boxOf(play) : full; }
    var cover = Math.min(full.w, full.h / aspect(svg));  // the map fills the drawing area, no sea around
    var parts = focus ? focus.split(/[ ,]+/).map(Number) : [full.x, full.y, full.w, full.h];
    var w = Math.min(cover, Math.max(parts[2], parts[3] / aspect(svg)));
    return { x: parts[0] + parts[2] / 2 - w / 2, y: parts[1] + parts[3] / 2 - w * aspect(svg) / 2, w: w, h: w * aspect(svg) };
  }

  function restore() {
    var svg = map();
    if (!svg) { return; }
    setBox(svg, saved.box || firstBox(svg));
    paint();
    toggles();
    counts();
    losses();
  }

  /* The live page swaps the board: restore the zoom and the selection on the new one. */
  document.addEventListener("htmx:afterSettle", restore);
  window.addEventListener("resize", function () { var svg = map(); if (svg && saved.box) { setBox(svg, saved.box); } });
  document.addEventListener("DOMContentLoaded", restore);
  restore();
})();

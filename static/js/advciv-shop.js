/* Advanced Civilization, phase 12: the bill of the civilization cards shop recounted as the player ticks.
   The form (form.ac-buy) works without this file; the server checks the order whatever this file shows.

   What the page gives this file:
   - form.ac-buy[data-faces] = {commodity: {"face": value, "most": cards in the game}}, [data-mineable] the
     commodities Mining adds a card to, [data-mining] "true" with Mining, [data-treasury], [data-limit];
   - the cart's boxes input[name="cart[]"][data-due] (the price after credits), the hand's boxes
     input[data-ac-spend] and input[data-ac-discard] (one pair per card);
   - the bill's figures [data-bill="due|cards|treasury|lost|kept"] and its notes [data-bill="short|over|idle"]. */
(function () {
  "use strict";
  if (window.advcivShop) { return; }
  window.advcivShop = true;

  function json(form, name, fallback) {
    try { return JSON.parse(form.getAttribute(name) || ""); } catch (e) { return fallback; }
  }

  function setValue(faces, key, cards) {
    var face = faces[key];
    if (!face) { return 0; }
    var n = Math.max(0, Math.min(cards, face.most));
    return n * n * face.face;
  }

  /* The sets spent (calamities count nothing); with Mining, one card more in the set where it adds most. */
  function handValue(form, cards) {
    var faces = json(form, "data-faces", {});
    var sets = {};
    cards.forEach(function (key) { if (faces[key]) { sets[key] = (sets[key] || 0) + 1; } });
    var total = 0;
    Object.keys(sets).forEach(function (key) { total += setValue(faces, key, sets[key]); });
    if (form.getAttribute("data-mining") !== "true") { return total; }
    var best = 0;
    json(form, "data-mineable", []).forEach(function (key) {
      if (sets[key]) { best = Math.max(best, setValue(faces, key, sets[key] + 1) - setValue(faces, key, sets[key])); }
    });
    return total + best;
  }

  function show(form, name, value) {
    var place = form.querySelector('[data-bill="' + name + '"]');
    if (place) { place.textContent = String(value); }
  }

  function note(form, name, on) {
    var place = form.querySelector('[data-bill="' + name + '"]');
    if (place) { place.hidden = !on; }
  }

  function ticked(form, selector) {
    return Array.prototype.filter.call(form.querySelectorAll(selector), function (box) { return box.checked && !box.disabled; });
  }

  function recount(form) {
    var due = 0;
    ticked(form, 'input[name="cart[]"]').forEach(function (box) { due += Number(box.getAttribute("data-due") || 0); });
    var spent = ticked(form, "input[data-ac-spend]").map(function (box) { return box.value; });
    var discarded = ticked(form, "input[data-ac-discard]").length;
    var value = handValue(form, spent);
    var fromTreasury = Math.max(0, due - value);
    var kept = form.querySelectorAll("input[data-ac-discard]").length - spent.length - discarded;
    var short = fromTreasury > Number(form.getAttribute("data-treasury") || 0);
    var over = kept > Number(form.getAttribute("data-limit") || 0);
    var idle = spent.length > 0 && due === 0;
    show(form, "due", due);
    show(form, "cards", value);
    show(form, "treasury", fromTreasury);
    show(form, "lost", Math.max(0, value - due));
    show(form, "kept", kept);
    note(form, "short", short);
    note(form, "over", over);
    note(form, "idle", idle);
    var bill = form.querySelector(".ac-bill");
    if (bill) { bill.classList.toggle("off", short || over || idle); }
    var button = form.querySelector('button[type="submit"]');
    if (button) { button.disabled = short || over || idle; }
  }

  /* A card is paid or discarded, not both: ticking one unticks the other of its row. */
  function exclusive(box) {
    var row = box.closest("li");
    if (!row || !box.checked) { return; }
    var other = row.querySelector(box.hasAttribute("data-ac-spend") ? "input[data-ac-discard]" : "input[data-ac-spend]");
    if (other) { other.checked = false; }
  }

  function all() {
    document.querySelectorAll("form.ac-buy").forEach(recount);
  }

  document.addEventListener("change", function (event) {
    var form = event.target.closest && event.target.closest("form.ac-buy");
    if (!form) { return; }
    if (event.target.matches("input[data-ac-spend], input[data-ac-discard]")) { exclusive(event.target); }
    recount(form);
  });
  document.addEventListener("htmx:afterSettle", all);
  document.addEventListener("DOMContentLoaded", all);
  all();
})();

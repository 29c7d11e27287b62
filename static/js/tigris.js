/* Tigris & Euphrates: pick a piece, see where it may go, click a square to place it; previews on hover.
   Progressive enhancement: every order also works as a plain form post without this file. */
(function () {
  "use strict";
  if (window.tigrisBoard) { return; }
  window.tigrisBoard = true;
  document.documentElement.classList.add("tg-js");

  var selected = null;

  function orders() { return document.querySelector(".tg-orders"); }

  function data(name) {
    var panel = orders();
    if (!panel) { return {}; }
    try { return JSON.parse(panel.getAttribute(name) || "{}"); } catch (e) { return {}; }
  }

  function squares() { return document.querySelectorAll(".tg-map .sq"); }

  function say(text) {
    var line = document.getElementById("tg-preview");
    if (line) { line.textContent = text || ""; }
  }

  function optionText(piece, name) {
    var form = document.querySelector('form[data-piece-form="' + piece + '"]');
    if (!form) { return ""; }
    var option = form.querySelector('option[value="' + name + '"]');
    return option ? option.textContent.trim() : "";
  }

  function paint() {
    var targets = data("data-tg-targets");
    var legal = selected && targets[selected] ? targets[selected] : [];
    if (selected && !targets[selected]) { selected = null; }
    squares().forEach(function (sq) {
      var on = legal.indexOf(sq.getAttribute("data-sq")) !== -1;
      sq.classList.toggle("legal", on);
      if (on) {
        sq.setAttribute("tabindex", "0");
        sq.setAttribute("role", "button");
      } else {
        sq.removeAttribute("tabindex");
        sq.removeAttribute("role");
      }
    });
    document.querySelectorAll(".tg-pick").forEach(function (button) {
      button.setAttribute("aria-pressed", String(button.getAttribute("data-piece") === selected));
    });
  }

  // On a phone the board is below the picker: once a piece is picked, the board comes to the first place
  // it may go (the page, and the board's own sideways scroll), unless it is in view already.
  function showTargets() {
    var first = document.querySelector(".tg-map .sq.legal");
    if (!first) { return; }
    var box = first.getBoundingClientRect();
    var seen = box.top >= 0 && box.bottom <= window.innerHeight && box.left >= 0 && box.right <= window.innerWidth;
    if (!seen) { first.scrollIntoView({ block: "center", inline: "center" }); }
  }

  function place(sq) {
    if (!selected || !sq.classList.contains("legal")) { return; }
    var form = document.querySelector('form[data-piece-form="' + selected + '"]');
    if (!form) { return; }
    form.elements.square.value = sq.getAttribute("data-sq");
    sq.classList.add("chosen");
    if (form.requestSubmit) { form.requestSubmit(); } else { form.submit(); }
  }

  document.addEventListener("click", function (event) {
    var pick = event.target.closest(".tg-pick");
    if (pick) {
      var piece = pick.getAttribute("data-piece");
      selected = selected === piece ? null : piece;
      say("");
      paint();
      if (selected) { showTargets(); }
      return;
    }
    var sq = event.target.closest(".tg-map .sq");
    if (sq) { place(sq); }
  });

  document.addEventListener("keydown", function (event) {
    var sq = event.target.closest && event.target.closest(".tg-map .sq.legal");
    if (sq && (event.key === "Enter" || event.key === " ")) {
      event.preventDefault();
      place(sq);
    }
  });

  function hover(event) {
    var sq = event.target.closest && event.target.closest(".tg-map .sq.legal");
    if (sq && selected) { say(optionText(selected, sq.getAttribute("data-sq"))); }
  }
  document.addEventListener("mouseover", hover);
  document.addEventListener("focusin", hover);

  document.addEventListener("change", function (event) {
    var form = event.target.closest && event.target.closest("form[data-piece-form]");
    if (form && event.target.name === "square") {
      selected = form.getAttribute("data-piece-form");
      paint();
      say(optionText(selected, event.target.value));
    }
  });

  /* The live page swaps the board and the order forms: paint the new ones. */
  document.addEventListener("htmx:afterSettle", paint);
  document.addEventListener("DOMContentLoaded", paint);
  paint();
})();

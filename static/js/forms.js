// A refused form shows its reason beside the field it is about, or else beside the button that sent it,
// announced to screen readers. A plain form post comes back to its page: the server keeps what was typed
// (never a password) in #refused-form, and this fills the form in again.
(function () {
  "use strict";
  var counter = 0;

  // The field a refusal names: `order.tile` may be the form's `tile`, `tile[]` or `order.tile`.
  function named(form, name) {
    if (!name) { return null; }
    var found = null;
    [name, name.split(".").pop()].forEach(function (candidate) {
      var quoted = CSS.escape(candidate);
      found = found || form.querySelector('[name="' + quoted + '"], [name="' + quoted + '[]"], [name$=".' + quoted + '"]');
    });
    return found && found.type !== "hidden" ? found : null;
  }

  function clear(form) {
    form.querySelectorAll(".refusal").forEach(function (box) { box.remove(); });
    form.querySelectorAll("[aria-invalid]").forEach(function (field) {
      field.removeAttribute("aria-invalid");
      field.removeAttribute("aria-describedby");
    });
  }

  function submitButton(form, submitter) {
    if (submitter && form.contains(submitter)) { return submitter; }
    return form.querySelector("button[type=submit], button:not([type]), input[type=submit]");
  }

  function show(form, messages, fieldName, submitter) {
    clear(form);
    var box = document.createElement("div");
    counter += 1;
    box.id = "refusal-" + counter;
    box.className = "refusal";
    box.setAttribute("role", "alert");
    box.setAttribute("aria-live", "assertive");
    messages.forEach(function (message) { box.appendChild(message); });
    var field = named(form, fieldName);
    var button = submitButton(form, submitter);
    if (field) {
      (field.closest("label") || field).insertAdjacentElement("afterend", box);
      field.setAttribute("aria-invalid", "true");
      field.setAttribute("aria-describedby", box.id);
    } else if (button) {
      var row = button.parentElement !== form && button.parentElement.children.length > 1 ? button.parentElement : button;
      row.insertAdjacentElement("afterend", box);
    } else {
      form.appendChild(box);
    }
    box.scrollIntoView({ block: "nearest" });
    if (field) { field.focus({ preventScroll: true }); }
  }

  function pathOf(form) {
    return new URL(form.action, document.baseURI).pathname;
  }

  // Of the forms posting where the refused one did, the one whose hidden fields match what was sent.
  function formOf(action, values) {
    var best = null;
    var bestScore = -1;
    document.querySelectorAll("form").forEach(function (form) {
      if (pathOf(form) !== action) { return; }
      var score = 0;
      values.forEach(function (pair) {
        var field = form.elements.namedItem(pair[0]);
        if (!field) { return; }
        score += 1;
        if (field.type === "hidden" && field.value === pair[1]) { score += 10; }
      });
      if (score > bestScore) { best = form; bestScore = score; }
    });
    return best;
  }

  function refill(form, values) {
    var sent = {};
    values.forEach(function (pair) { (sent[pair[0]] = sent[pair[0]] || []).push(pair[1]); });
    Array.prototype.forEach.call(form.elements, function (field) {
      var skip = ["hidden", "password", "submit", "button", "file"];
      if (!field.name || skip.indexOf(field.type) >= 0 || field.tagName === "BUTTON") { return; }
      var mine = sent[field.name] || [];
      if (field.type === "checkbox" || field.type === "radio") {
        var at = mine.indexOf(field.value);  // two boxes of one name and value: one ticked stays one
        field.checked = at >= 0;
        if (at >= 0) { mine.splice(at, 1); }
      } else if (field.tagName === "SELECT" && field.multiple) {
        Array.prototype.forEach.call(field.options, function (option) { option.selected = mine.indexOf(option.value) >= 0; });
      } else if (mine.length) {
        var value = mine.shift();
        var offered = field.tagName !== "SELECT" || Array.prototype.some.call(field.options, function (option) {
          return option.value === value;
        });
        if (offered) { field.value = value; }  // a choice the new list no longer has: its own default
      }
    });
  }

  // True once the refused form is found and filled in again (or when there is nothing to do).
  function comeBack() {
    var data = document.getElementById("refused-form");
    var flash = document.getElementById("flash");
    if (!data || !flash) { return true; }
    var refused = JSON.parse(data.textContent);
    var form = formOf(refused.action, refused.values);
    var message = flash.querySelector(".error");
    if (!message) { return true; }
    if (!form) { return false; }
    data.remove();
    var folded = form.closest("details");
    if (folded) { folded.open = true; }
    refill(form, refused.values);
    show(form, Array.prototype.slice.call(flash.children), message.getAttribute("data-field"), null);
    return true;
  }

  // A form that a part of the page loads after it (the seats, with the Quit form) is looked for as each
  // part arrives.
  function comeBackWhenLoaded() {
    if (comeBack()) { return; }
    var waiting = function () {
      if (comeBack()) { document.removeEventListener("htmx:afterSettle", waiting); }
    };
    document.addEventListener("htmx:afterSettle", waiting);
  }

  // Where the refusal of a request from `source` goes: into the place its part of the page names
  // (`data-refusals` on an ancestor: Advanced Civilization's map column has one), or beside its form. A live
  // update may have replaced that form while the request was out: then beside the form now in its place.
  // False when it has nowhere to go but #flash.
  function refuse(source, html, submitter) {
    var parsed = document.createElement("template");
    parsed.innerHTML = html;
    var messages = Array.prototype.slice.call(parsed.content.children);
    var first = parsed.content.querySelector(".error");
    if (!first || !source || !source.closest) { return false; }
    var zone = source.closest("[data-refusals]");
    var place = zone ? document.getElementById(zone.getAttribute("data-refusals")) : null;
    if (place) {
      place.replaceChildren.apply(place, messages);
      place.scrollIntoView({ block: "nearest" });
      return true;
    }
    var form = source.closest("form");
    if (form && !form.isConnected) { form = twin(form, document) || null; }
    if (!form) { return false; }
    show(form, messages, first.getAttribute("data-field"), submitter);
    return true;
  }

  // An htmx form's refusal: the server aims it at #flash.
  window.addEventListener("htmx:beforeSwap", function (event) {
    var detail = event.detail;
    if (!detail.xhr || detail.xhr.status < 400 || !detail.target || detail.target.id !== "flash") { return; }
    var trigger = detail.requestConfig && detail.requestConfig.triggeringEvent;
    if (refuse(detail.requestConfig && detail.requestConfig.elt, detail.serverResponse, trigger && trigger.submitter)) {
      detail.shouldSwap = false;
    }
  });

  // The same when the element that sent the request is no longer in the page: htmx would look for #flash
  // from that element, find nothing and give up with a script error. Heard on the element itself (see
  // below): the events of an element out of the page never reach the document.
  function loadedWhileAway(event) {
    var detail = event.detail;
    var source = event.currentTarget;
    if (!detail.xhr || detail.xhr.status < 400 || source.isConnected) { return; }
    event.preventDefault();
    if (refuse(source, detail.xhr.responseText, null)) { return; }
    var flash = document.getElementById("flash");
    if (flash) { flash.innerHTML = detail.xhr.responseText; }
  }

  document.addEventListener("htmx:beforeRequest", function (event) {
    var form = event.target.closest && event.target.closest("form");
    if (form) { clear(form); }
    event.target.addEventListener("htmx:beforeOnLoad", loadedWhileAway, { once: true });
  });

  // A live update redraws the game's sections while a player may be filling in one of their forms: the new
  // form gets what was typed (its hidden fields, such as the game's version, stay the new ones), the
  // <details> that were open stay open, and the field that had the focus keeps it.
  var touched = new WeakSet();
  var refocus = null;
  var VOLATILE = ["csrf_token", "expected_version", "since"];

  function mark(event) {
    if (event.target.form) { touched.add(event.target.form); }
  }
  document.addEventListener("input", mark);
  document.addEventListener("change", mark);
  document.addEventListener("htmx:afterRequest", function (event) {  // sent and taken: the next form is new
    var form = event.detail.elt && event.detail.elt.closest ? event.detail.elt.closest("form") : null;
    if (form && event.detail.successful) { touched.delete(form); }
  });

  function identity(form) {
    var parts = [pathOf(form), form.getAttribute("data-order") || ""];
    Array.prototype.forEach.call(form.elements, function (field) {
      if (field.type === "hidden" && VOLATILE.indexOf(field.name) < 0) { parts.push(field.name + "=" + field.value); }
    });
    return parts.join("&");
  }

  function twin(form, root) {
    var wanted = identity(form);
    return Array.prototype.find.call(root.querySelectorAll("form"), function (other) { return identity(other) === wanted; });
  }

  function typed(form) {
    var values = [];
    new FormData(form).forEach(function (value, name) { if (typeof value === "string") { values.push([name, value]); } });
    return values;
  }

  function fieldIndex(field) {
    return Array.prototype.filter.call(field.form.elements, function (other) { return other.name === field.name; }).indexOf(field);
  }

  document.addEventListener("htmx:oobBeforeSwap", function (event) {
    var old = event.detail.target;
    var fresh = event.detail.fragment;
    if (!old || !fresh || !old.querySelectorAll) { return; }
    old.querySelectorAll("form").forEach(function (form) {
      var open = form.closest("details[open]");
      if (!touched.has(form) && !open) { return; }
      var other = twin(form, fresh);
      if (!other) { return; }
      if (touched.has(form)) { refill(other, typed(form)); touched.add(other); }
      if (open && other.closest("details")) { other.closest("details").open = true; }
      var focused = document.activeElement;
      if (focused && focused.form === form && focused.name) {
        refocus = { form: other, name: focused.name, index: fieldIndex(focused) };
      }
    });
  });

  document.addEventListener("htmx:afterSettle", function () {
    if (!refocus || !refocus.form.isConnected) { refocus = null; return; }
    var fields = Array.prototype.filter.call(refocus.form.elements, function (field) { return field.name === refocus.name; });
    var field = fields[refocus.index] || fields[0];
    refocus = null;
    if (field) { field.focus({ preventScroll: true }); }
  });

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", comeBackWhenLoaded);
  } else {
    comeBackWhenLoaded();
  }
})();

// A player's own order comes back with the game drawn as it is after it, at some version V; the live news of
// the moves up to V would only draw the same again, so their fetch is skipped. News arrives in commit order
// and the answer was read after the order's commit, so it covers every news of a version below V and the
// first news of V itself; a later news of V (a message, a seat taken: they do not move the version) and
// anything newer are drawn as always. News heard while a post is on its way waits for its answer, or for
// HELD_MS at most.
(function () {
  "use strict";
  var HELD_MS = 1500;
  var posting = 0;
  var drawn = null;  // {version: V, firstHeard: whether V's first news has come} from the last answer
  var waiting = [];  // the news heard while posting: {version, elt}
  var timer = null;
  var fetched = null;  // the newest version whose news was fetched

  function drawnVersion(html) {
    var found = /id="game-status"[^>]*data-version="(\d+)"/.exec(html || "");
    return found ? Number(found[1]) : null;
  }

  function covered(version) {
    if (drawn === null || version > drawn.version) { return false; }
    if (version < drawn.version) { return true; }
    if (drawn.firstHeard) { return false; }
    drawn.firstHeard = true;
    return true;
  }

  // The newest of the news that waited, unless the answer covered all of it.
  function flush() {
    clearTimeout(timer);
    timer = null;
    var newer = waiting.filter(function (news) { return !covered(news.version); });
    waiting = [];
    var last = newer[newer.length - 1];
    if (last && last.elt.isConnected) { htmx.trigger(last.elt, "sse:moved", { data: String(last.version), held: true }); }
  }

  document.addEventListener("htmx:beforeSend", function (event) {  // sent: its afterRequest will come
    var config = event.detail.requestConfig;
    if (config && config.verb === "post") { posting += 1; }
  });

  document.addEventListener("htmx:beforeRequest", function (event) {
    var trigger = event.detail.requestConfig && event.detail.requestConfig.triggeringEvent;
    if (!trigger || trigger.type !== "sse:moved" || !trigger.detail) { return; }
    var version = Number(trigger.detail.data);
    if (!trigger.detail.held && posting > 0) {
      waiting.push({ version: version, elt: event.detail.elt });
      if (timer === null) { timer = setTimeout(flush, HELD_MS); }
      event.preventDefault();
    } else if (!trigger.detail.held && covered(version)) {
      event.preventDefault();
    } else {
      fetched = fetched === null ? version : Math.max(fetched, version);
    }
  });

  document.addEventListener("htmx:afterRequest", function (event) {
    var detail = event.detail;
    if (!detail.requestConfig || detail.requestConfig.verb !== "post") { return; }
    posting = Math.max(posting - 1, 0);
    var version = detail.successful && detail.xhr ? drawnVersion(detail.xhr.responseText) : null;
    if (version !== null && (drawn === null || version > drawn.version)) {
      drawn = { version: version, firstHeard: fetched !== null && fetched >= version };
    }
    if (posting === 0) { flush(); }
  });
})();

// The rules of a new password, each marked kept or broken as it is typed (the server checks them again).
(function () {
  "use strict";
  function check(list) {
    var form = list.closest("form");
    var input = form && form.elements.namedItem(list.getAttribute("data-password-rules"));
    if (!input) { return; }
    var typed = input.value;
    var email = form.elements.namedItem("email");
    var name = ((email ? email.value : list.getAttribute("data-email")) || "").toLowerCase().split("@")[0];
    var common = list.getAttribute("data-common").split(" ");
    var kept = {
      length: typed.length >= 10,
      distinct: new Set(typed).size >= 4,
      common: common.indexOf(typed.toLowerCase()) < 0,
      name: name.length < 3 || typed.toLowerCase().indexOf(name) < 0
    };
    list.querySelectorAll("li[data-rule]").forEach(function (rule) {
      var state = typed ? (kept[rule.getAttribute("data-rule")] ? "kept" : "broken") : "";
      rule.className = state;
    });
  }
  document.addEventListener("input", function (event) {
    var form = event.target.form;
    if (!form) { return; }
    form.querySelectorAll("[data-password-rules]").forEach(check);
  });
})();

// The time zone: at sign-up, the browser's own; on the account page, offered when it differs from the saved one.
(function () {
  "use strict";
  function browserZone() {
    try { return Intl.DateTimeFormat().resolvedOptions().timeZone || ""; } catch (error) { return ""; }
  }
  function offer() {
    var zone = browserZone();
    var input = document.querySelector("input[name=time_zone]");
    if (!zone || !input) { return; }
    if (input.hasAttribute("data-detect-zone")) {
      if (!document.getElementById("refused-form")) { input.value = zone; }  // else: as it was typed
      return;
    }
    var button = input.form && input.form.querySelector("[data-use-zone]");
    if (!button || input.value === zone) { return; }
    button.querySelector("span").textContent = zone;
    button.hidden = false;
    button.addEventListener("click", function () { input.value = zone; button.hidden = true; });
  }
  if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", offer); } else { offer(); }
})();

// A game message goes where its ticks say: the line beside "Send" names its readers before it is sent.
(function () {
  "use strict";
  function describe(form) {
    var line = form.querySelector("[data-audience]");
    if (!line) { return; }
    var names = Array.prototype.filter.call(form.querySelectorAll("input[type=checkbox][name^='to.']"), function (box) {
      return box.checked;
    }).map(function (box) { return box.closest("label").textContent.trim(); });
    line.textContent = names.length
      ? line.getAttribute("data-private").replace("{names}", names.join(", "))
      : line.getAttribute("data-board");
  }
  document.addEventListener("change", function (event) {
    var form = event.target.form;
    if (form && form.querySelector("[data-audience]")) { describe(form); }
  });
  function all() { document.querySelectorAll("form [data-audience]").forEach(function (line) { describe(line.closest("form")); }); }
  document.addEventListener("htmx:afterSettle", all);
  if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", all); } else { all(); }
})();

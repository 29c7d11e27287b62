// How far off a moment is ("in 23 hr", "dans 23 h"), drawn here from its exact time so that a page kept for
// later still says it right: the server writes the exact local time (what a reader without JavaScript
// sees), this replaces it with the distance and keeps it up to date. It says it as the server does (Babel's
// short units, two of a unit before the next larger one). A span with data-until leaves once that time is
// past (an embargo that has ended).
(function () {
  "use strict";
  var UNITS = [
    ["year", 365 * 86400], ["month", 30 * 86400], ["week", 7 * 86400],
    ["day", 86400], ["hour", 3600], ["minute", 60]
  ];
  // Each unit as it follows the number, its space included (French keeps a no-break space before some).
  var WORDS = {
    en: {future: "in {0}", past: "{0} ago",
      year: [" yr", " yr"], month: [" mo", " mo"], week: [" wk", " wk"], day: [" day", " days"],
      hour: [" hr", " hr"], minute: [" min", " min"]},
    fr: {future: "dans {0}", past: "il y a {0}",
      year: [" a", " a"], month: [" m.", " m."], week: [" sem.", " sem."], day: ["\u00a0j", "\u00a0j"],
      hour: ["\u00a0h", "\u00a0h"], minute: ["\u00a0min", "\u00a0min"]}
  };
  var THRESHOLD = 2;

  function distance(seconds, words) {
    var size = Math.abs(seconds);
    for (var i = 0; i < UNITS.length; i++) {
      var unit = UNITS[i][0];
      var value = size / UNITS[i][1];
      if (value >= THRESHOLD || unit === "minute") {
        var count = Math.max(1, Math.round(value));
        var text = count + words[unit][count === 1 ? 0 : 1];
        return (seconds >= 0 ? words.future : words.past).replace("{0}", text);
      }
    }
    return "";
  }

  function update() {
    var words = WORDS[document.documentElement.lang] || WORDS.en;
    var now = Date.now();
    document.querySelectorAll("time.time-left[datetime]").forEach(function (element) {
      var moment = Date.parse(element.getAttribute("datetime"));
      if (!isNaN(moment)) element.textContent = distance((moment - now) / 1000, words);
    });
    document.querySelectorAll("[data-until]").forEach(function (element) {
      var until = Date.parse(element.getAttribute("data-until"));
      if (!isNaN(until) && until <= now) element.hidden = true;
    });
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", update);
  else update();
  document.addEventListener("htmx:afterSettle", update);
  document.addEventListener("htmx:oobAfterSwap", update);
  setInterval(update, 30000);
})();

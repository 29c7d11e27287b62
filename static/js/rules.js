// A link to one entry of a rules page (/rules/dragonstones#thief) opens that entry and shows it.
(function () {
  function openTarget() {
    var id = decodeURIComponent(location.hash.slice(1));
    var entry = id && document.getElementById(id);
    if (!entry || entry.tagName !== "DETAILS") return;
    entry.open = true;
    entry.classList.add("rules-shown");
    entry.scrollIntoView({ block: "start" });
  }
  window.addEventListener("hashchange", openTarget);
  document.addEventListener("DOMContentLoaded", openTarget);
})();

// On a phone the navigation is one line: the site's name, "Games" with its count, and a Menu button that
// opens the rest. Without JavaScript the links simply wrap.
(function () {
  "use strict";
  function setUp() {
    var header = document.querySelector("header.top");
    var toggle = header && header.querySelector(".menu-toggle");
    if (!toggle) return;
    header.classList.add("nav-collapsible");
    toggle.hidden = false;
    toggle.addEventListener("click", function () {
      var open = header.classList.toggle("nav-open");
      toggle.setAttribute("aria-expanded", open ? "true" : "false");
    });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", setUp);
  else setUp();
})();

// A "Copy" button beside a read-only address (data-copy names the field): shown only where it can work.
(function () {
  "use strict";
  function setUp() {
    document.querySelectorAll("button[data-copy]").forEach(function (button) {
      var field = document.getElementById(button.getAttribute("data-copy"));
      if (!field || !navigator.clipboard) return;
      var label = button.textContent;
      button.hidden = false;
      button.addEventListener("click", function () {
        navigator.clipboard.writeText(field.value).then(function () {
          button.textContent = button.getAttribute("data-copied") || label;
          setTimeout(function () { button.textContent = label; }, 2000);
        });
      });
      field.addEventListener("focus", function () { field.select(); });
    });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", setUp);
  else setUp();
})();

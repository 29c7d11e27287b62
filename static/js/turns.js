// The tab title follows the navigation's count of games waiting on you when a live update swaps it in.
(function () {
  function retitle() {
    var count = document.getElementById("turn-count");
    if (!count) return;
    var waiting = Number(count.dataset.count || 0);
    var bare = document.title.replace(/^\(\d+\) /, "");
    document.title = waiting ? "(" + waiting + ") " + bare : bare;
  }
  document.addEventListener("htmx:oobAfterSwap", retitle);
  document.addEventListener("htmx:afterSettle", retitle);
})();

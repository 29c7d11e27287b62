// The new-game form follows the game chosen in its list without a reload: the player count takes the
// game's range, the bot seats are offered for a game with a bot, and only the game's options are shown
// (and sent). Without script, "Show" reloads the page
// for the chosen game, which the server draws the same way.
(function () {
  "use strict";

  function follow(choice) {
    var form = document.getElementById("new-game-form");
    var option = choice.options[choice.selectedIndex];
    if (!form || !option) { return; }
    form.elements.namedItem("game_type").value = option.value;
    var players = form.elements.namedItem("players");
    var least = Number(option.getAttribute("data-min"));
    var most = Number(option.getAttribute("data-max"));
    players.min = least;
    players.max = most;
    players.value = String(Math.min(Math.max(Number(players.value) || least, least), most));
    var bots = document.getElementById("bot-seats");
    if (bots) {  // the bot seats, for the games that have a bot: 0 to all seats but one
      var botted = (bots.getAttribute("data-games") || "").split(" ").indexOf(option.value) >= 0;
      bots.hidden = !botted;
      bots.querySelectorAll("input").forEach(function (input) { input.disabled = !botted; });
      var count = form.elements.namedItem("bot_seats");
      count.max = most - 1;
      count.value = String(Math.min(Number(count.value) || 0, most - 1));
    }
    var range = document.getElementById("players-range");
    if (range) { range.textContent = option.getAttribute("data-range"); }
    form.querySelectorAll("fieldset.game-options").forEach(function (fieldset) {
      var mine = fieldset.getAttribute("data-game") === option.value;
      fieldset.hidden = !mine;
      fieldset.disabled = !mine;
    });
    // A refused form comes back to the page it was posted from: the address names the game.
    var address = new URL(window.location.href);
    address.searchParams.set("game_type", option.value);
    window.history.replaceState(window.history.state, "", address.toString());
  }

  function start() {
    var choice = document.getElementById("game-choice");
    var show = document.getElementById("show-game");
    if (!choice) { return; }
    if (show) { show.hidden = true; }
    choice.addEventListener("change", function () { follow(choice); });
    var form = document.getElementById("new-game-form");
    // A browser may bring back the list's earlier choice on a reload: the form follows it.
    if (form && form.elements.namedItem("game_type").value !== choice.value) { follow(choice); }
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
}());

// The people's and club nights' forms, loaded by those pages only:
// the scoreboard's own script and style sheet stay within their budget.
(function () {
  "use strict";

  // The haptic tick of every page's script (board.js, loaded before this one).
  var ronda = window.Ronda;
  var tick = ronda && ronda.board ? ronda.board.tick : function () {};

  var form = document.querySelector(".new-game");
  if (form) {
    // With four players, a side's name follows its partners ("Karim & Salma")
    // while it is the name the page offered or one this script wrote.
    var written = {};
    form.addEventListener("input", function (event) {
      var match = /^p([01])[ab]$/.exec(event.target.id || "");
      if (match) { followPartners(match[1]); }
      dealerNames();
    });
    form.addEventListener("change", function () { dealerNames(); });
    function followPartners(side) {
      var name = document.getElementById("name" + side);
      var given = form.querySelector("input[name=given" + side + "]");
      if (!name || !given || (name.value !== given.value && name.value !== written[side])) { return; }
      var partners = ["a", "b"].map(function (seat) {
        return document.getElementById("p" + side + seat).value.trim();
      }).filter(Boolean);
      if (!partners.length) { return; }
      written[side] = partners.join(" & ").slice(0, 40);
      name.value = written[side];
    }
    function partnersOf(side) {
      var four = (form.querySelector("input[name=players]:checked") || {}).value === "4";
      return !four || side > 1 ? [] : ["a", "b"].map(function (seat) {
        return document.getElementById("p" + side + seat).value.trim();
      }).filter(Boolean);
    }
    // The first dealer's choices say what each side will be called, by the
    // server's rule (service/side_names.py): as typed; with four players a
    // team whose name is still the one offered, or empty, after its
    // partners; a side left empty, its default name (data-unnamed).
    function dealerNames() {
      form.querySelectorAll("[data-name-of]").forEach(function (label, side) {
        var field = document.getElementById(label.dataset.nameOf);
        var given = form.querySelector("input[name=given" + side + "]");
        var name = field ? field.value.trim() : "";
        var partners = partnersOf(side);
        var changed = name && (!given || name !== given.value.trim());
        var shown = partners.length && !changed ? partners : (name || label.dataset.unnamed).split(" & ");
        if (shown.length === 2 && shown.every(Boolean)) { showTeam(label, shown); }
        else { showName(label, shown.join(" & ")); }
      });
    }
    // As the server's `bdi` filter draws names: a name in an isolate of its
    // own; a team's two partners (a name "A & B") each in theirs, joined in
    // the page's direction, so that "Karim & سلمى" reads Karim first in
    // Arabic as in French.
    function showName(label, name) {
      var isolate = document.createElement("bdi");
      isolate.textContent = name;
      label.replaceChildren(isolate);
    }
    function showTeam(label, partners) {
      var team = document.createElement("bdi");
      team.dir = document.documentElement.dir === "rtl" ? "rtl" : "ltr";
      var room = 40 - (partners.length - 1) * 3;  // a team's name keeps 40 characters
      partners.forEach(function (partner, index) {
        var isolate = document.createElement("bdi");
        var cut = partner.length > room ? partner.slice(0, Math.max(room - 1, 0)) + "\u2026" : partner;
        room -= cut.length;
        isolate.textContent = cut;
        if (index) { team.append(" & "); }
        team.append(isolate);
      });
      label.replaceChildren(team);
    }
    // Each number of players has its own names on offer (the last game's of
    // that count): a name still as offered follows the count chosen.
    var offers = JSON.parse(form.dataset.offers || "null");
    var offered = offers && offers[(form.querySelector("input[name=players]:checked") || {}).value];
    form.addEventListener("change", function (event) {
      var next = offers && event.target.name === "players" && offers[event.target.value];
      if (!next || !offered) { return; }
      ["name0", "name1", "name2"].forEach(function (id, side) {
        var field = document.getElementById(id);
        var given = form.querySelector("input[name=given" + side + "]");
        if (!field || field.value !== offered[side]) { return; }
        field.value = next[side];
        if (given && given.value === offered[side]) { given.value = next[side]; }
        field.dispatchEvent(new Event("input", { bubbles: true }));  // the dealers' names follow
      });
      offered = next;
    });
    // A recent player's button fills its field at once (without the script: a GET).
    form.addEventListener("click", function (event) {
      var chip = event.target.closest("button[data-fill]");
      var field = chip && document.getElementById(chip.dataset.fill);
      if (!field) { return; }
      event.preventDefault();
      field.value = chip.value.slice(chip.value.indexOf(":") + 1);
      var seat = /^p([01])[ab]$/.exec(field.id);
      if (seat) { followPartners(seat[1]); }
      dealerNames();
      tick();
    });
    dealerNames();
  }

  // A club night's form: a partner's field only for teams.
  var nightForm = document.querySelector(".night-form");
  if (nightForm) {
    var follow = function () {
      var checked = nightForm.querySelector("input[name=players]:checked");
      nightForm.classList.toggle("teams", !!checked && checked.value === "4");
    };
    nightForm.addEventListener("change", follow);
    follow();
  }

}());

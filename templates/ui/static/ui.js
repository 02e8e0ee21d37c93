// brain ui's one script (part of brain, MIT licence: see LICENSE). Without it every page
// still reads and every form still posts; with it the record search updates as you type
// and a destructive button asks first. It loads nothing from anywhere but this server.
"use strict";
(function () {
  function confirmations() {
    document.querySelectorAll("form[data-confirm]").forEach(function (form) {
      form.addEventListener("submit", function (event) {
        if (!window.confirm(form.getAttribute("data-confirm"))) event.preventDefault();
      });
    });
  }

  function liveSearch() {
    var form = document.getElementById("filters");
    var results = document.getElementById("results");
    if (!form || !results) return;
    var partial = form.getAttribute("data-partial");
    var timer = null;
    var asked = 0;
    function update() {
      var query = new URLSearchParams(new FormData(form)).toString();
      var mine = ++asked;
      fetch(partial + "&" + query, { credentials: "same-origin" })
        .then(function (response) { return response.ok ? response.text() : null; })
        .then(function (html) {
          if (html === null || mine !== asked) return;  // a later keystroke's answer wins
          // The server rendered and escaped this fragment; it holds no script.
          results.innerHTML = html;
          history.replaceState(null, "", form.getAttribute("action") + "?" + query);
        })
        .catch(function () {});
    }
    form.addEventListener("input", function () {
      clearTimeout(timer);
      timer = setTimeout(update, 150);
    });
    form.addEventListener("change", update);
  }

  document.addEventListener("DOMContentLoaded", function () {
    confirmations();
    liveSearch();
  });
})();

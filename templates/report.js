// memkit report: filtering. The page reads the same without it.
(function () {
  "use strict";
  var form = document.getElementById("filters");
  var list = document.getElementById("memory-list");
  if (!form || !list) return;
  var items = Array.prototype.slice.call(list.querySelectorAll("#memory-list>details"));
  var texts = items.map(function (el) { return el.textContent.toLowerCase(); });
  var q = document.getElementById("q");
  var type = document.getElementById("f-type");
  var fresh = document.getElementById("f-freshness");
  var tag = document.getElementById("f-tag");
  var shown = document.getElementById("shown");
  var none = document.getElementById("none-shown");
  function apply() {
    var words = q.value.toLowerCase().split(/\s+/).filter(Boolean);
    var n = 0;
    items.forEach(function (el, i) {
      var ok = (!type.value || el.dataset.type === type.value) &&
        (!fresh.value || el.dataset.freshness === fresh.value) &&
        (!tag.value || el.dataset.tags.split(" ").indexOf(tag.value) >= 0) &&
        words.every(function (w) { return texts[i].indexOf(w) >= 0; });
      if (el.hidden === ok) el.hidden = !ok;  // touch only what changes: 10,000 elements
      if (ok) n += 1;
    });
    shown.textContent = n + " shown";
    none.hidden = n !== 0;
  }
  form.addEventListener("input", apply);
  form.addEventListener("submit", function (e) { e.preventDefault(); });
  function openTarget() {
    var id = decodeURIComponent(location.hash.slice(1));
    var el = id && document.getElementById(id);
    if (el && el.tagName === "DETAILS") { el.hidden = false; el.open = true; }
  }
  window.addEventListener("hashchange", openTarget);
  form.hidden = false;
  openTarget();
}());

// search.html: the search playground, answered by /api/search of `seamcut view --serve`.
(function () {
  "use strict";
  var $ = function (id) { return document.getElementById(id); };
  var esc = function (s) {
    return String(s == null ? "" : s).replace(/[&<>"']/g, function (c) {
      return {"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;"}[c];
    });
  };
  var name = function (source) { return String(source).split(/[\\/]/).pop(); };
  var pages = function (p) {
    if (!p || !p.length) return "";
    return p.length > 1 ? " pp. " + p[0] + "-" + p[p.length - 1] : " p. " + p[0];
  };

  function show(data) {
    $("results").innerHTML = data.results.map(function (r) {
      var text = r.text.length > 700 ? r.text.slice(0, 700) + " …" : r.text;
      return "<li class='found' data-rank='" + r.rank + "' data-chunk-id='" + esc(r.chunk_id) + "'>" +
        "<a class='result' data-chunk-id='" + esc(r.chunk_id) + "' href='" + esc(r.href) + "'><b>" + r.rank + "</b> " +
        esc(name(r.source)) + esc(pages(r.pages)) + " <span class='score'>" + Number(r.score).toPrecision(4) +
        (r.similarity != null ? " · similarity " + Number(r.similarity).toFixed(3) : "") + " · " + r.tokens +
        " tok · " + r.start + "-" + r.end + "</span></a>" +
        (r.heading ? "<div class='note'>" + esc(r.heading) + "</div>" : "") +
        "<pre>" + esc(text) + "</pre></li>";
    }).join("") || "<li class='note'>nothing found</li>";
  }

  function run(ev) {
    if (ev) ev.preventDefault();
    var params = new URLSearchParams();
    ["q", "mode", "strategy", "where", "k"].forEach(function (id) { params.set(id, $(id).value); });
    history.replaceState(null, "", "#" + params.toString());
    $("error").textContent = "";
    fetch("api/search?" + params.toString()).then(function (r) {
      return r.json().then(function (body) { return {ok: r.ok, body: body}; });
    }).then(function (got) {
      if (!got.ok) { $("results").innerHTML = ""; $("error").textContent = got.body.error; return; }
      show(got.body);
    }).catch(function (e) { $("error").textContent = "the server did not answer: " + e; });
  }

  $("search").addEventListener("submit", run);
  var saved = new URLSearchParams(location.hash.replace(/^#/, ""));
  ["q", "mode", "strategy", "where", "k"].forEach(function (id) { if (saved.get(id)) $(id).value = saved.get(id); });
  if (saved.get("q")) run();
})();

// questions.html: what each question of a compare run got back (data: window.SEAMCUT_QUESTIONS).
(function () {
  "use strict";
  var D = window.SEAMCUT_QUESTIONS;
  var $ = function (id) { return document.getElementById(id); };
  var esc = function (s) {
    return String(s == null ? "" : s).replace(/[&<>"']/g, function (c) {
      return {"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;"}[c];
    });
  };
  var label = {};
  D.strategies.forEach(function (s) { label[s.slug] = s.label; });
  // contestants' chunks are a text of their own, not spans of seamcut's reading: they show their
  // results, never the parts placed by spans (answer places, cut diffs, neighbourhoods)
  var ours = D.strategies.filter(function (s) { return !s.contestant; });
  var peers = D.strategies.filter(function (s) { return s.contestant; });
  var docName = function (id) { return D.documents[id] ? D.documents[id].name : id; };
  var pages = function (p) {
    if (!p || !p.length) return "";
    return p.length > 1 ? " pp. " + p[0] + "-" + p[p.length - 1] : " p. " + p[0];
  };
  var state = {a: null, b: null, show: "all"};

  function readHash() {
    var h = {};
    location.hash.replace(/^#/, "").split("&").forEach(function (kv) {
      var i = kv.indexOf("=");
      if (i > 0) h[decodeURIComponent(kv.slice(0, i))] = decodeURIComponent(kv.slice(i + 1));
    });
    var slugs = ours.map(function (s) { return s.slug; });
    var best = ours.filter(function (s) { return s.label === D.best; })[0];
    state.a = slugs.indexOf(h.a) >= 0 ? h.a : (best ? best.slug : (slugs[0] || null));
    state.b = slugs.indexOf(h.b) >= 0 ? h.b : (slugs.filter(function (s) { return s !== state.a; })[0] || state.a);
    state.show = h.show || "all";
    state.q = h.q || null;
  }

  function writeHash() {
    var h = "#a=" + encodeURIComponent(state.a) + "&b=" + encodeURIComponent(state.b) + "&show=" + state.show;
    if (state.q) h += "&q=" + encodeURIComponent(state.q);
    history.replaceState(null, "", h);
  }

  function select(id, value) {
    return "<select id='" + id + "'>" + ours.map(function (s) {
      return "<option value='" + esc(s.slug) + "'" + (s.slug === value ? " selected" : "") + ">" + esc(s.label) + "</option>";
    }).join("") + "</select>";
  }

  function summary() {
    var rows = D.strategies.map(function (s) {
      return "<tr" + (s.contestant ? " class='contestant'" : "") + "><td class='l'>" + esc(s.label) +
        (s.label === D.best ? " <span title='best in the run'>*</span>" : "") + "</td><td class='l'>" + esc(by(s)) +
        "</td><td>" + s.hits + "/" + s.questions + "</td><td>" + Number(s.mrr).toFixed(3) + "</td><td>" +
        (s.answer_kept == null ? "" : s.answer_kept + "/" + s.questions) + "</td></tr>";
    }).join("");
    var shows = [["all", "every question"], ["miss", "missed by A or B"], ["differ", "A and B differ"]];
    $("summary").innerHTML =
      "<table><tr><th class='l'>strategy</th><th class='l'>by</th><th>hits@" + D.k + "</th><th>MRR</th>" +
      "<th title='questions whose answer some chunk holds whole'>answer kept</th></tr>" + rows + "</table>" +
      (peers.length ? "<p class='note contestants'>Contestants (" + peers.map(function (s) { return esc(s.label); }).join(", ") +
        ") are left out of the answer's places, the cut differences and the neighbourhoods: their chunks are a text of " +
        "their own, not spans of seamcut's reading; their results show their own text.</p>" : "") +
      (ours.length ? "" : "<p class='note'>No seamcut strategy in the run: nothing to set side by side.</p>") +
      "<p class='pick'" + (ours.length ? "" : " hidden") + ">side by side: A " + select("pick-a", state.a) + " B " + select("pick-b", state.b) +
      " show <select id='pick-show'>" + shows.map(function (s) {
        return "<option value='" + s[0] + "'" + (s[0] === state.show ? " selected" : "") + ">" + s[1] + "</option>";
      }).join("") + "</select> <span id='shown'></span></p>" +
      (D.warnings.length ? "<details class='warn'><summary>" + D.warnings.length + " warning(s)</summary><ul>" +
        D.warnings.map(function (w) { return "<li>" + esc(w) + "</li>"; }).join("") + "</ul></details>" : "");
    ["pick-a", "pick-b", "pick-show"].forEach(function (id) {
      $(id).addEventListener("change", function () {
        state.a = $("pick-a").value; state.b = $("pick-b").value; state.show = $("pick-show").value;
        writeHash(); pair(); questions();
      });
    });
  }

  function by(s) {
    var c = s.contestant;
    if (!c) return "seamcut";
    if (!c.library) return "chunks made elsewhere" + (c.options && c.options.path ? " (" + c.options.path + ")" : "");
    return c.library + (c.splitter ? " · " + c.splitter : "") + " · reader " + (c.reader || "?");
  }

  function diffFor(a, b) {
    var rows = D.diffs[a + "|" + b], swap = false;
    if (!rows) { rows = D.diffs[b + "|" + a]; swap = true; }
    if (!rows) return null;
    return rows.map(function (r) {
      return {doc_id: r.doc_id, only_a: swap ? r.only_b : r.only_a, only_b: swap ? r.only_a : r.only_b, shared: r.shared};
    });
  }

  // cuts as [offset, chunk id] pairs, each linking to the chunk that starts (or ends) there
  function offsets(list, doc, slug) {
    var shown = list.slice(0, 12).map(function (c) {
      return c[1] ? "<a data-chunk-id='" + esc(c[1]) + "' href='" + esc(href(doc, slug, c[1])) + "'>" + c[0] + "</a>" : String(c[0]);
    }).join(", ");
    return list.length > 12 ? shown + ", ... (" + list.length + ")" : shown;
  }

  function href(doc, slug, chunk) {
    return "docs/" + encodeURIComponent(doc) + ".html#s=" + encodeURIComponent(slug) + "&c=" + encodeURIComponent(chunk);
  }

  function pair() {
    var el = $("pair");
    if (!state.a) { el.innerHTML = ""; return; }
    if (state.a === state.b) { el.innerHTML = "<h2>Cuts</h2><p class='note'>A and B are the same strategy.</p>"; return; }
    var rows = diffFor(state.a, state.b) || [];
    var differ = rows.filter(function (r) { return r.only_a.length || r.only_b.length; }).length;
    el.innerHTML = "<h2>Where " + esc(label[state.a]) + " (A) and " + esc(label[state.b]) + " (B) cut differently</h2>" +
      "<p class='note'>" + differ + " of " + rows.length + " documents; offsets in characters of the document's text.</p>" +
      "<table class='diff'><tr><th class='l'>document</th><th>cuts both</th><th class='l'>only A</th><th class='l'>only B</th></tr>" +
      rows.map(function (r) {
        return "<tr data-doc-id='" + esc(r.doc_id) + "'><td class='l'>" + esc(docName(r.doc_id)) + "</td><td>" + r.shared +
          "</td><td class='l a'>" + (r.only_a.length ? r.only_a.length + ": " + offsets(r.only_a, r.doc_id, state.a) : "") +
          "</td><td class='l b'>" + (r.only_b.length ? r.only_b.length + ": " + offsets(r.only_b, r.doc_id, state.b) : "") + "</td></tr>";
      }).join("") + "</table>";
  }

  function outcomeText(q, o) {
    if (q.kind !== "answer") return "<span class='na'>no answer expected</span>";
    return o.hit ? "<span class='hit'>hit at " + o.rank + "</span>" : "<span class='miss'>miss</span>";
  }

  function filterText(o) {
    var f = o.filter;
    if (!f || (!f.where && !(f.filters || []).length)) return f && f.why ? "<div class='filter'>whole index: " + esc(f.why) + "</div>" : "";
    var parts = (f.filters || []).map(function (x) {
      return x.field + " " + x.op + " " + (Array.isArray(x.value) ? x.value.join(", ") : x.value);
    });
    if (f.where) parts.unshift(f.where);
    return "<div class='filter' title='" + esc(f.why || "") + "'>filter: " + esc(parts.join(" AND ")) +
      (f.text_query ? "; words searched: " + esc(f.text_query) : "") + "</div>";
  }

  function keptText(q, o) {
    if (q.kind !== "answer" || o.kept == null) return "";
    return o.kept ? "<div class='kept yes' title='some chunk holds the answer whole'>answer kept</div>" :
      "<div class='kept no' title='no chunk holds the answer whole: lost in reading or cutting, not in search'>answer not kept</div>";
  }

  // a contestant's results with their own text (its chunks are no spans of the reading)
  function textsOf(o) {
    var withText = o.results.filter(function (r) { return r.text != null; });
    if (!withText.length) return "";
    return "<details class='texts'><summary>the results' text</summary>" + withText.map(function (r) {
      return "<div class='rt " + (r.holds === true ? "hit" : "") + "' data-rank='" + r.rank + "'><b>" + r.rank + "</b> " +
        esc(docName(r.doc_id)) + esc(pages(r.pages)) + (r.holds === true ? " · holds the answer" : "") +
        "<pre>" + esc(r.text) + "</pre></div>";
    }).join("") + "</details>";
  }

  function resultsOf(slug, o) {
    return o.results.map(function (r) {
      var cls = r.holds === true ? "hit" : (r.holds === false ? "miss" : "unknown");
      var mark = r.holds === true ? "&#10003;" : (r.holds === false ? "&#10007;" : "?");
      var title = (r.heading || "") + " · offsets " + r.start + "-" + r.end + (r.text != null ? " of its own laid-out text" : "") +
        (r.similarity != null ? " · similarity " + Number(r.similarity).toFixed(3) : "");
      return "<a class='result " + cls + "' data-rank='" + r.rank + "' data-strategy='" + esc(slug) +
        "' data-chunk-id='" + esc(r.chunk_id) + "' href='" + esc(r.href) + "' title='" + esc(title) + "'>" +
        "<b>" + r.rank + "</b> " + mark + " " + esc(docName(r.doc_id)) + esc(pages(r.pages)) +
        " <span class='score'>" + Number(r.score).toPrecision(4) + " · " + r.tokens + " tok</span></a>";
    }).join("");
  }

  function settle(text, at, base) {
    var i = at - base;
    while (i < text.length && /\s/.test(text[i])) i++;
    return i + base;
  }

  // The window's text cut by one strategy's chunks: alternating colours, overlap shaded, the
  // answer underlined, and each cut this strategy has and the other lacks marked.
  function neighbourhood(w, around, other) {
    var base = w.start, end = w.end, text = w.text;
    var cutsOf = function (cs) {
      var s = {};
      cs.forEach(function (c) { [c.start, c.end].forEach(function (x) { if (x > base && x < end) s[settle(text, x, base)] = 1; }); });
      return s;
    };
    var mine = cutsOf(around), theirs = cutsOf(other);
    var points = {}; points[base] = 1; points[end] = 1;
    around.forEach(function (c) { [c.start, c.end].forEach(function (x) { if (x > base && x < end) points[x] = 1; }); });
    [w.answer[0], w.answer[1]].forEach(function (x) { if (x > base && x < end) points[x] = 1; });
    Object.keys(mine).forEach(function (x) { points[x] = 1; });
    var xs = Object.keys(points).map(Number).sort(function (p, q) { return p - q; });
    var html = "";
    for (var i = 0; i + 1 < xs.length; i++) {
      var x = xs[i], y = xs[i + 1];
      if (mine[x]) {
        html += "<span class='cut" + (theirs[x] ? "" : " differs") + "' title='cut at " + x + "'></span>";
      }
      var cover = [];
      around.forEach(function (c, n) { if (c.start <= x && c.end >= y) cover.push(n); });
      var cls = cover.length === 0 ? "gap" : (cover.length > 1 ? "overlap" : "c" + (cover[0] % 2));
      if (x >= w.answer[0] && y <= w.answer[1]) cls += " answer";
      var attrs = cover.length ? " data-chunk-id='" + esc(around[cover[0]].id) + "' title='" +
        cover.map(function (n) { return around[n].id + " (" + around[n].tokens + " tok)"; }).join(", ") + "'" : "";
      html += "<span class='" + cls + "'" + attrs + ">" + esc(text.slice(x - base, y - base)) + "</span>";
    }
    return (base > 0 ? "… " : "") + html + (end < (D.documents[w.doc_id] || {}).length ? " …" : "");
  }

  function chunksList(around) {
    return around.map(function (c) {
      return "<a data-chunk-id='" + esc(c.id) + "' href='" + esc(c.href) + "'>" + esc(c.id) + "</a> " +
        c.start + "-" + c.end + " (" + c.tokens + " tok)";
    }).join("<br>");
  }

  function card(q) {
    var a = q.by[state.a], b = q.by[state.b];
    var where = q.places.length ? q.places.map(function (p) {
      var txt = esc(docName(p.doc_id)) + " " + p.start + "-" + p.end + esc(pages(p.pages));
      var link = function (slug, name) {
        var c = p.chunks[slug];
        return c ? " <a class='in' data-chunk-id='" + esc(c) + "' href='" + esc(href(p.doc_id, slug, c)) + "'>in " + name + "</a>" : "";
      };
      return "<li>" + txt + ": <q>" + esc(p.text) + "</q>" + link(state.a, "A") + (state.b !== state.a ? link(state.b, "B") : "") + "</li>";
    }).join("") + (q.place_count > q.places.length ? "<li>... " + (q.place_count - q.places.length) + " more</li>" : "")
      : (q.kind === "answer" ? "<li class='miss'>the answer text is not in the documents as read</li>" : "");
    var rows = D.strategies.map(function (s) {
      var o = q.by[s.slug];
      if (!o) return "";
      var cls = (s.slug === state.a ? " is-a" : "") + (s.slug === state.b ? " is-b" : "") + (s.contestant ? " contestant" : "");
      return "<tr class='strategy" + cls + "' data-strategy='" + esc(s.slug) + "'><td class='l name' title='" + esc(by(s)) + "'>" +
        esc(s.label) + "</td><td class='l'>" + outcomeText(q, o) + keptText(q, o) + filterText(o) + "</td><td class='l results'>" + resultsOf(s.slug, o) +
        (o.reason ? "<div class='reason'>" + o.reason.map(esc).join("; ") + "</div>" : "") + textsOf(o) + "</td></tr>";
    }).join("");
    var side = "";
    if (q.window && a && b) {
      side = "<div class='side'><div><h4>A: " + esc(label[state.a]) + "</h4><div class='text'>" +
        neighbourhood(q.window, a.around, b.around) + "</div><div class='chunks'>" + chunksList(a.around) + "</div></div>" +
        "<div><h4>B: " + esc(label[state.b]) + "</h4><div class='text'>" + neighbourhood(q.window, b.around, a.around) +
        "</div><div class='chunks'>" + chunksList(b.around) + "</div></div></div>";
    }
    return "<article class='q' id='q-" + esc(q.id) + "' data-question-id='" + esc(q.id) + "'><h3>" + esc(q.id) + ": " +
      esc(q.question) + "</h3>" +
      (q.must_contain.length ? "<p>answer: " + q.must_contain.map(function (m) { return "<code>" + esc(m) + "</code>"; }).join(" or ") +
        (q.source ? " <span class='note'>(" + esc(q.source) + (q.page ? ", page " + q.page : "") + ")</span>" : "") + "</p>" : "") +
      (where ? "<ul class='where'>" + where + "</ul>" : "") +
      "<table class='got'>" + rows + "</table>" +
      (side ? "<details class='around'" + (state.q === q.id ? " open" : "") + "><summary>the answer's neighbourhood under A and B" +
        " (cuts only one has are marked)</summary>" + side + "</details>" : "") + "</article>";
  }

  // scroll each neighbourhood's text to the answer in it
  function toAnswer(d) {
    Array.prototype.forEach.call(d.querySelectorAll(".text"), function (el) {
      var a = el.querySelector(".answer");
      if (a) el.scrollTop = Math.max(0, a.offsetTop - el.clientHeight / 3);
    });
  }

  function shown(q) {
    var a = q.by[state.a], b = q.by[state.b];
    if (state.show === "miss") return q.kind === "answer" && ((a && !a.hit) || (b && !b.hit));
    if (state.show === "differ") return !a || !b || a.rank !== b.rank;
    return true;
  }

  function questions() {
    var list = D.questions.filter(shown);
    $("shown").textContent = list.length + " of " + D.questions.length + " questions";
    $("questions").innerHTML = list.map(card).join("");
    Array.prototype.forEach.call(document.querySelectorAll("details.around"), function (d) {
      d.addEventListener("toggle", function () { if (d.open) toAnswer(d); });
      if (d.open) toAnswer(d);
    });
    if (state.q && $("q-" + state.q)) $("q-" + state.q).scrollIntoView();
  }

  readHash();
  summary();
  pair();
  questions();
})();

/* seamcut view: one document's text with every chunk drawn in place, and its pages with the
   element and chunk boxes. The data is window.SEAMCUT_DOC (written by seamcut.report.view.data):
   text sections and pages are drawn only as they scroll into view, so a 600-page document opens
   at once. URL hash: #s=<strategy slug>&c=<chunk id>. */
(function () {
  "use strict";
  var D = window.SEAMCUT_DOC;
  if (!D) { document.body.textContent = "no data: the document's .js file did not load"; return; }
  var F = {id: 0, start: 1, end: 2, from: 3, tokens: 4, head: 5, parent: 6, role: 7, boxes: 8, flags: 9, to: 10};
  var text = D.text;
  var textPane = document.getElementById("text");
  var pagePane = document.getElementById("pages");
  var findingsPane = document.getElementById("findings");
  var chooser = document.getElementById("strategy");
  var info = document.getElementById("info");
  var showElements = document.getElementById("show-elements");

  var S = null;            // the chosen strategy's data
  var byId = new Map();    // chunk id -> row index
  var kids = [];           // row index -> rows of its children
  var secOf = [];          // row index -> section index
  var shareFrom = [];      // row index -> where the text it shares with its next sibling starts
  var shareWith = [];      // row index -> that sibling's id
  var colour = [];         // row index -> 0/1: alternate neighbours
  var secEls = [], secDrawn = [];
  var boxesByPage = new Map();  // page -> [[row, x0, top, x1, bottom]]
  var elementsByPage = new Map();
  var pageEls = [], pageDrawn = [];
  var selected = null;
  var textObserver = null, pageObserver = null;

  function esc(s) {
    return s.replace(/[&<>"]/g, function (c) {
      return {"&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;"}[c];
    });
  }

  // ---- the text ------------------------------------------------------------------------------

  function gapHtml(a, b) {
    if (b <= a) return "";
    var t = text.slice(a, b);
    if (/\S/.test(t)) {
      return "<span class=\"gap uncovered\" data-start=\"" + a + "\" data-end=\"" + b +
        "\" title=\"in no chunk\">" + esc(t) + "</span>";
    }
    return esc(t);
  }

  function bodyHtml(i, a) {
    var e = S.chunks[i][F.to], s = shareFrom[i];
    if (s === undefined || s >= e) return esc(text.slice(a, e));
    s = Math.max(a, s);
    return esc(text.slice(a, s)) + "<span class=\"ov\" data-with=\"" + shareWith[i] +
      "\" title=\"shared with the next chunk\">" +
      esc(text.slice(s, e)) + "</span>";
  }

  // the label, drawn by CSS from data-head: it is no part of the document's text (textContent)
  function labelHtml(i) {
    var r = S.chunks[i];
    var head = "#" + (i + 1) + " · " + r[F.tokens] + " tok" + (r[F.head] ? " · " + r[F.head] : "");
    return "<i class=\"lab\" data-head=\"" + esc(head) + "\"></i>";
  }

  function chunkHtml(i) {
    var r = S.chunks[i];
    var cls = "chunk c" + colour[i] + (r[F.role] ? " " + r[F.role] : "") +
      (r[F.flags].length ? " " + r[F.flags].join(" ") : "");
    var inner = "";
    var mine = kids[i];
    if (mine && mine.length) {
      inner = labelHtml(i);
      var pos = r[F.from];
      for (var k = 0; k < mine.length; k++) {
        var c = S.chunks[mine[k]];
        inner += gapHtml(pos, c[F.from]) + chunkHtml(mine[k]);
        pos = Math.max(pos, c[F.to]);
      }
      inner += gapHtml(pos, r[F.to]);
    } else {
      inner = labelHtml(i) + bodyHtml(i, r[F.from]);
    }
    return "<span class=\"" + cls + "\" data-chunk-id=\"" + r[F.id] + "\" data-start=\"" + r[F.start] +
      "\" data-end=\"" + r[F.end] + "\" data-from=\"" + r[F.from] + "\" data-to=\"" + r[F.to] + "\" data-tokens=\"" + r[F.tokens] +
      "\" data-strategy=\"" + S.slug + "\">" + inner + "</span>";
  }

  function drawSection(k) {
    if (secDrawn[k]) return;
    secDrawn[k] = true;
    var sec = S.sections[k], html = "", pos = sec[2];
    for (var i = sec[0]; i < sec[1]; i++) {
      var r = S.chunks[i];
      if (r[F.parent] !== -1) continue;
      html += gapHtml(pos, r[F.from]) + chunkHtml(i);
      pos = Math.max(pos, r[F.to]);
    }
    html += gapHtml(pos, sec[3]);
    var el = secEls[k];
    el.innerHTML = html;
    el.style.minHeight = "";
    el.classList.add("drawn");
    if (selected) markSelected(el);
  }

  function setupText() {
    if (textObserver) textObserver.disconnect();
    textPane.innerHTML = "";
    secEls = []; secDrawn = [];
    textObserver = placeholders(textPane, S.sections, "sec", secEls, function (el, sec) {
      // a guess at the drawn height, so the scroll bar is about right before it is drawn
      var t = text.slice(sec[2], sec[3]);
      var lines = (t.match(/\n/g) || []).length + t.length / 90;
      el.style.minHeight = Math.round(lines * 21) + "px";
    }, function (k) { drawSection(k); }, "600px 0px");
  }

  // one empty element per item in ``pane`` (a text section, a page), drawn by ``draw`` as it
  // comes within ``margin`` of the pane's view
  function placeholders(pane, items, cls, els, shape, draw, margin) {
    var frag = document.createDocumentFragment();
    items.forEach(function (item, k) {
      var el = document.createElement("div");
      el.className = cls;
      el.dataset.k = k;
      shape(el, item, k);
      els.push(el);
      frag.appendChild(el);
    });
    pane.appendChild(frag);
    var seen = new IntersectionObserver(function (entries) {
      entries.forEach(function (e) { if (e.isIntersecting) draw(+e.target.dataset.k); });
    }, {root: pane, rootMargin: margin});
    els.forEach(function (el) { seen.observe(el); });
    return seen;
  }

  // ---- the pages -----------------------------------------------------------------------------

  function boxStyle(page, x0, top, x1, bottom) {
    var w = D.pages[page - 1][0], h = D.pages[page - 1][1];
    return "left:" + (100 * x0 / w).toFixed(3) + "%;top:" + (100 * top / h).toFixed(3) + "%;width:" +
      (100 * (x1 - x0) / w).toFixed(3) + "%;height:" + (100 * (bottom - top) / h).toFixed(3) + "%";
  }

  function chunkBoxesHtml(n) {
    var html = "";
    (boxesByPage.get(n) || []).forEach(function (b) {
      var r = S.chunks[b[0]];
      html += "<div class=\"box chunk-box c" + colour[b[0]] + (r[F.role] ? " " + r[F.role] : "") +
        "\" data-page=\"" + n + "\" data-chunk-id=\"" + r[F.id] + "\" title=\"#" + (b[0] + 1) + " · " +
        r[F.tokens] + " tok\" style=\"" + boxStyle(n, b[1], b[2], b[3], b[4]) + "\"></div>";
    });
    return html;
  }

  function drawPage(n) {
    if (pageDrawn[n] || !D.pages[n - 1]) return;
    pageDrawn[n] = true;
    var el = pageEls[n - 1];
    var html = D.pages_url ? "<img loading=\"lazy\" alt=\"page " + n + "\" src=\"" + D.pages_url + n +
      ".png\">" : "";
    (elementsByPage.get(n) || []).forEach(function (x) {
      var b = x[1];
      html += "<div class=\"box el-box\" data-page=\"" + n + "\" data-element=\"" + x[0] + "\" title=\"" +
        esc(D.elements[x[0]][0]) + "\" style=\"" + boxStyle(n, b[0], b[1], b[2], b[3]) + "\"></div>";
    });
    html += "<div class=\"chunk-boxes\">" + chunkBoxesHtml(n) + "</div><span class=\"pno\">page " + n + "</span>";
    el.innerHTML = html;
    el.classList.add("drawn");
    if (selected) markSelected(el);
  }

  function setupPages() {
    if (D.laid_out) {
      // a contestant's chunks laid end to end: a text of its own, with no pages to draw boxes on
      pagePane.classList.add("empty");
      pagePane.innerHTML = "<p class=\"note\">No pages: this text is " + esc(String(D.contestant)) +
        "'s chunks laid end to end, not a reading of the file's pages.</p>";
      showElements.parentNode.hidden = true;
      return;
    }
    if (!D.pages.length) {
      pagePane.classList.add("empty");
      pagePane.innerHTML = "<p class=\"note\">No page images: " +
        (D.page_count ? "the reader recorded no page sizes for this file." : "this format has no pages.") + "</p>";
      return;
    }
    elementsByPage = new Map();
    D.elements.forEach(function (e, i) {
      if (e[4] && e[3]) {
        if (!elementsByPage.has(e[3])) elementsByPage.set(e[3], []);
        elementsByPage.get(e[3]).push([i, e[4]]);
      }
    });
    pageObserver = placeholders(pagePane, D.pages, "page", pageEls, function (el, p, i) {
      el.dataset.page = i + 1;
      el.style.aspectRatio = p[0] + " / " + p[1];
    }, function (k) { drawPage(k + 1); }, "1200px 0px");
  }

  function redrawBoxes() {
    pageEls.forEach(function (el, i) {
      if (!pageDrawn[i + 1]) return;
      var layer = el.querySelector(".chunk-boxes");
      if (layer) layer.innerHTML = chunkBoxesHtml(i + 1);
    });
  }

  // ---- strategies and findings ---------------------------------------------------------------

  function setStrategy(slug) {
    var next = D.strategies.filter(function (s) { return s.slug === slug; })[0] || D.strategies[0];
    if (!next) { textPane.textContent = text; return; }
    S = next;
    chooser.value = S.slug;
    byId = new Map(); kids = []; secOf = []; shareFrom = []; shareWith = []; colour = [];
    boxesByPage = new Map();
    var lastOf = new Map(), count = new Map();
    S.chunks.forEach(function (r, i) {
      byId.set(r[F.id], i);
      var p = r[F.parent];
      if (p !== -1) (kids[p] = kids[p] || []).push(i);
      var n = count.get(p) || 0;
      colour[i] = n % 2;
      count.set(p, n + 1);
      var before = lastOf.get(p);
      if (before !== undefined && r[F.start] < S.chunks[before][F.end]) {
        shareFrom[before] = r[F.start];
        shareWith[before] = r[F.id];
      }
      lastOf.set(p, i);
      r[F.boxes].forEach(function (b) {
        if (!boxesByPage.has(b[0])) boxesByPage.set(b[0], []);
        boxesByPage.get(b[0]).push([i, b[1], b[2], b[3], b[4]]);
      });
    });
    S.sections.forEach(function (sec, k) { for (var i = sec[0]; i < sec[1]; i++) secOf[i] = k; });
    var leaves = S.leaves, parents = S.chunks.length - leaves;
    document.getElementById("summary").textContent = leaves + " chunks" +
      (parents ? " under " + parents + " parents" : "") + " · sizes in " + S.model + " tokens" +
      (S.max_input_tokens ? " (max input " + S.max_input_tokens + ")" : "") +
      (D.laid_out ? " · laid end to end: text neighbours share is repeated in each" :
        (S.overlap_asked ? " · overlap asked for" : " · no overlap asked for"));
    setupText();
    redrawBoxes();
    showFindings();
  }

  var KIND = {"over-limit": "over the model's limit", "uncovered": "text in no chunk",
              "no-overlap": "no overlap where asked"};

  function showFindings() {
    var f = S.findings;
    if (!f.length) {
      findingsPane.innerHTML = "<h2>Findings</h2><p class=\"ok\">None: every chunk fits the model, " +
        "every word is in a chunk" + (S.overlap_asked ? ", every neighbour shares text" : "") + ".</p>";
      return;
    }
    var html = "<h2>Findings (" + f.length + ")</h2><ol>";
    f.forEach(function (x, i) {
      html += "<li class=\"finding " + x.kind + "\" data-finding=\"" + i + "\"><b>" + KIND[x.kind] +
        "</b> at " + x.start + ": " + esc(x.text) + "</li>";
    });
    findingsPane.innerHTML = html + "</ol>";
  }

  findingsPane.addEventListener("click", function (ev) {
    var li = ev.target.closest("[data-finding]");
    if (!li) return;
    var x = S.findings[+li.dataset.finding];
    if (x.chunks.length) { select(x.chunks[x.chunks.length - 1], true, true); return; }
    var k = sectionAt(x.start);
    drawSection(k);
    var gap = textPane.querySelector(".gap[data-start=\"" + x.start + "\"]") || secEls[k];
    scrollInto(textPane, gap);
    gap.classList.add("flash");
  });

  function sectionAt(offset) {
    for (var k = 0; k < S.sections.length; k++) if (offset < S.sections[k][3]) return k;
    return S.sections.length - 1;
  }

  // ---- selection -----------------------------------------------------------------------------

  function relatedIds(i) {
    var r = S.chunks[i], out = [];
    if (r[F.parent] !== -1) out.push(S.chunks[r[F.parent]][F.id]);
    (kids[i] || []).forEach(function (k) { out.push(S.chunks[k][F.id]); });
    return out;
  }

  function markSelected(root) {
    if (!selected) return;
    var i = byId.get(selected);
    root.querySelectorAll("[data-chunk-id=\"" + selected + "\"]").forEach(function (e) {
      e.classList.add("selected");
    });
    // the selected chunk's first words, drawn (once) as overlap in the chunk before it
    root.querySelectorAll(".ov[data-with=\"" + selected + "\"]").forEach(function (e) {
      e.classList.add("selected");
    });
    relatedIds(i).forEach(function (id) {
      root.querySelectorAll("[data-chunk-id=\"" + id + "\"]").forEach(function (e) {
        e.classList.add("related");
      });
    });
  }

  function scrollInto(pane, el) {
    // the pane alone scrolls: sections drawn above the target change its place, so look twice
    var go = function () {
      var top = el.getBoundingClientRect().top - pane.getBoundingClientRect().top + pane.scrollTop;
      pane.scrollTop = Math.max(0, top - pane.clientHeight / 3);
    };
    go();
    requestAnimationFrame(function () { requestAnimationFrame(go); });
  }

  function select(id, scrollText, scrollPage) {
    var i = byId.get(id);
    if (i === undefined) return false;
    selected = id;
    document.querySelectorAll(".selected, .related").forEach(function (e) {
      e.classList.remove("selected", "related");
    });
    var k = secOf[i];
    drawSection(k);
    markSelected(textPane);
    var r = S.chunks[i];
    var pages = Array.from(new Set(r[F.boxes].map(function (b) { return b[0]; })));
    pages.forEach(drawPage);
    markSelected(pagePane);
    if (scrollText) {
      var el = textPane.querySelector("[data-chunk-id=\"" + id + "\"]");
      if (el) scrollInto(textPane, el);
    }
    if (scrollPage && pages.length) {
      var box = pagePane.querySelector(".chunk-box[data-chunk-id=\"" + id + "\"]");
      if (box) scrollInto(pagePane, box);
    }
    history.replaceState(null, "", "#s=" + encodeURIComponent(S.slug) + "&c=" + encodeURIComponent(id));
    info.innerHTML = "<b>#" + (i + 1) + "</b> " + esc(id) + " · characters " + r[F.start] + "–" + r[F.end] +
      " · <b>" + r[F.tokens] + "</b> tokens" + (pages.length ? " · page" + (pages.length > 1 ? "s " : " ") +
      pages.join(", ") : "") + (r[F.role] ? " · " + r[F.role] : "") +
      (r[F.head] ? " · label (context, not document text): <i>" + esc(r[F.head]) + "</i>" : "") +
      (r[F.flags].length ? " · <span class=\"bad\">" + r[F.flags].map(function (f) { return KIND[f]; }).join(", ") +
      "</span>" : "") + (relatedIds(i).length ? " · " + (r[F.parent] !== -1 ? "its parent" : relatedIds(i).length +
      " children") + " outlined" : "");
    return true;
  }

  textPane.addEventListener("click", function (ev) {
    var el = ev.target.closest("[data-chunk-id]");
    if (el) select(el.dataset.chunkId, false, true);
  });
  pagePane.addEventListener("click", function (ev) {
    var el = ev.target.closest(".chunk-box[data-chunk-id]");
    if (el) select(el.dataset.chunkId, true, false);
  });
  chooser.addEventListener("change", function () {
    selected = null;
    setStrategy(chooser.value);
    history.replaceState(null, "", "#s=" + encodeURIComponent(S.slug));
  });
  showElements.addEventListener("change", function () {
    document.body.classList.toggle("elements", showElements.checked);
  });

  function fromHash() {
    var h = new URLSearchParams(location.hash.slice(1));
    var s = h.get("s"), c = h.get("c");
    if (!S || (s && s !== S.slug)) { selected = null; setStrategy(s || ""); }
    if (c) select(c, true, true);
  }
  window.addEventListener("hashchange", fromHash);

  D.strategies.forEach(function (s) {
    var o = document.createElement("option");
    o.value = s.slug;
    o.textContent = s.label + " (" + s.leaves + ")";
    chooser.appendChild(o);
  });
  if (D.strategies.length < 2) chooser.disabled = true;
  setupPages();
  fromHash();

  // for tests and printing: draw every section and page now
  window.seamcutView = {
    drawAll: function () {
      S.sections.forEach(function (_, k) { drawSection(k); });
      D.pages.forEach(function (_, i) { drawPage(i + 1); });
    },
    select: function (id) { return select(id, true, true); },
    strategy: function () { return S && S.slug; },
    readyAt: performance.now()
  };
  document.body.dataset.ready = "1";
})();

/* The offline look-up (/offline/rules): the service worker answers a search made without network with
   this page; it searches the copy of the index the worker kept (/offline/index.json), the way the server
   does in short: every word a prefix of a word of the entry (title first, then keywords, then text),
   a word found nowhere also searched as the nearest words (1 edit up to 5 letters, 2 from 6), aliases
   included (they are in the keywords). Text and query are compared folded: compatibility forms as plain
   letters (NFKD: full-width "Ｌｅｖｉｔａ", the ligature "ﬁ"), without accents, in lower case. */
(() => {
  "use strict";
  const WORD = /[\p{L}\p{N}_]+/gu;
  const LIMIT = 20;
  const fold = (text) => text.normalize("NFKD").replace(/\p{M}/gu, "").toLowerCase();
  const wordsOf = (text) => fold(text || "").match(WORD) || [];

  function distance(a, b, most) {  // Levenshtein distance, or most + 1 once it must exceed most
    if (Math.abs(a.length - b.length) > most) return most + 1;
    let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
    for (let i = 1; i <= a.length; i += 1) {
      const row = [i];
      let best = i;
      for (let j = 1; j <= b.length; j += 1) {
        row[j] = Math.min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
        best = Math.min(best, row[j]);
      }
      if (best > most) return most + 1;
      previous = row;
    }
    return previous[b.length];
  }

  function closest(word, candidates, most) {  // the candidates at the least distance (at most `most`)
    let found = [];
    let best = most + 1;
    for (const candidate of candidates) {
      const d = distance(word, candidate, most);
      if (d < best) { best = d; found = [candidate]; } else if (d === best && d <= most) { found.push(candidate); }
    }
    return found.slice(0, 3);
  }

  function nearest(word, vocabulary) {  // whole words first ("banishh" -> banish), else word beginnings
    const most = word.length < 6 ? 1 : 2;
    const whole = closest(word, vocabulary, most);
    if (whole.length) return whole;
    const heads = new Set([...vocabulary].filter((w) => w.length > word.length).map((w) => w.slice(0, word.length)));
    return closest(word, heads, most);
  }

  function prepare(index) {
    const vocabulary = new Set();
    const entries = index.entries.map((e) => {
      const prepared = { ...e, t: wordsOf(e.title), k: wordsOf(e.keywords), b: wordsOf(e.body) };
      for (const w of [...prepared.t, ...prepared.k, ...prepared.b]) vocabulary.add(w);
      return prepared;
    });
    return { games: index.games, entries, vocabulary };
  }

  function search(data, query, game) {
    const pool = data.entries.filter((e) => !game || e.game === game);
    const vocabulary = game ? new Set(pool.flatMap((e) => [...e.t, ...e.k, ...e.b])) : data.vocabulary;
    const fixed = {};
    const terms = wordsOf(query).map((word) => {
      const begins = [...vocabulary].some((w) => w.startsWith(word));
      const variants = [word];
      if (!begins && word.length >= 4 && !/^\d+$/.test(word)) {
        const near = nearest(word, vocabulary);
        if (near.length) { fixed[word] = near; variants.push(...near); }
      }
      return variants;
    });
    if (!terms.length) return { results: [], fixed };
    const weigh = (entry, variants) => Math.max(...variants.map((v) =>
      (entry.t.some((w) => w.startsWith(v)) ? 10 : 0) + (entry.k.some((w) => w.startsWith(v)) ? 5 : 0) +
      (entry.b.some((w) => w.startsWith(v)) ? 1 : 0)));
    const rank = (every) => pool.map((entry) => {
      const weights = terms.map((variants) => weigh(entry, variants));
      const ok = every ? weights.every((w) => w > 0) : weights.some((w) => w > 0);
      return { entry, score: ok ? weights.reduce((a, b) => a + b, 0) : 0 };
    }).filter((r) => r.score > 0);
    let found = rank(true);
    if (!found.length) found = rank(false);
    const exact = fold(query.trim());
    found.sort((a, b) => (fold(b.entry.title) === exact || fold(b.entry.ref) === exact) -
      (fold(a.entry.title) === exact || fold(a.entry.ref) === exact) || b.score - a.score ||
      (a.entry.kind === b.entry.kind ? 0 : a.entry.kind === "rule" ? -1 : 1) || a.entry.title.localeCompare(b.entry.title));
    return { results: found.slice(0, LIMIT).map((r) => r.entry), fixed };
  }

  function element(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  async function run() {
    const place = document.getElementById("offline-results");
    const params = new URLSearchParams(window.location.search);
    const query = (params.get("q") || "").trim().slice(0, 200);
    const game = params.get("game") || "";
    document.getElementById("q").value = query;
    const select = document.getElementById("game");
    if (select) select.value = game;
    if (!query) return;
    let data;
    try {
      data = prepare(await (await fetch("/offline/index.json")).json());
    } catch (error) {
      place.replaceChildren(element("p", "empty", "The offline copy of the rules is not on this phone yet: search once with network."));
      return;
    }
    const { results, fixed } = search(data, query, data.games[game] ? game : "");
    const title = element("h2", "", `${results.length} result${results.length === 1 ? "" : "s"} for “${query}”` +
      (data.games[game] ? ` in ${data.games[game]}` : "") + " (offline)");
    title.id = "results-title";
    const parts = [title];
    const corrected = Object.entries(fixed);
    if (corrected.length) {
      parts.push(element("p", "spelling", "Also searched for " +
        corrected.map(([typed, meant]) => `${meant.join(" or ")} (for “${typed}”)`).join(", ") + "."));
    }
    if (!results.length) parts.push(element("p", "empty", "Nothing found. Try a shorter word, a trait or a card name."));
    const list = element("ol", "results");
    list.setAttribute("role", "list");
    for (const r of results) {
      const item = element("li", "result");
      const link = element("a");
      link.href = r.url;
      link.append(element("strong", "", r.title));
      item.append(link, " ", element("span", "tag", r.kind), " ", element("span", "tag game-tag", data.games[r.game] || r.game),
        element("p", "", r.body.length > 160 ? `${r.body.slice(0, 159)}…` : r.body));
      list.append(item);
    }
    if (results.length) parts.push(list);
    place.replaceChildren(...parts);
  }

  run();
})();

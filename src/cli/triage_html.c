/*
 * triage_html.c - the HTML report of `isacheck triage`: one file that
 * needs nothing else (no network: a Content-Security-Policy forbids
 * every fetch), holding the JSON results of the largest clusters and of
 * every leaf, and a script that draws them as bit heatmaps: per leaf,
 * how often each bit is set across the input (don't-care bits in blue
 * x, reserved in purple ?, outlined where they are set); per cluster,
 * the same over its instructions with the unexplained bits outlined.
 *
 * When it has drawn everything, the script writes its counts into the
 * element #rendered (data-cluster-maps, data-leaf-maps, data-cells):
 * the headless-browser test reads them back.
 */
#include "cli.h"
#include "triage_report.h"

#include <stdlib.h>
#include <string.h>

/* lines: C keeps no string literal over 4095 bytes */
static const char *const page_style[] = {
	"body { font: 14px/1.4 system-ui, sans-serif; margin: 1.5em; color: #222; }\n",
	"h1 { font-size: 1.4em; } h2 { font-size: 1.2em; border-bottom: 1px solid #ccc; } h3 { font-size: 1em; margin: 1.2em 0 0.3em; }\n",
	".mono, .cell { font-family: ui-monospace, monospace; }\n",
	"table { border-collapse: collapse; } td { padding: 1px 8px; } td.num { text-align: right; }\n",
	".map { overflow-x: auto; margin: 0.3em 0; }\n",
	".row { display: flex; white-space: nowrap; }\n",
	".cell { display: inline-block; width: 11px; height: 15px; font-size: 9px; line-height: 15px; text-align: center; border: 1px solid #eee; box-sizing: border-box; flex: none; }\n",
	".ruler .cell { border: 1px solid transparent; height: 12px; line-height: 12px; overflow: visible; color: #777; }\n",
	".gap { margin-right: 4px; }\n",
	".cell.fx { color: #666; } .cell.dc { color: #06c; font-weight: bold; } .cell.rs { color: #a0a; font-weight: bold; }\n",
	".cell.un { outline: 2px solid #000; outline-offset: -2px; }\n",
	".fields { font-size: 11px; color: #555; } .field { margin-right: 8px; }\n",
	".note, .detail { color: #555; }\n",
	NULL,
};

/* lines: C keeps no string literal over 4095 bytes */
static const char *const page_script[] = {
	"'use strict';\n",
	"var data = JSON.parse(document.getElementById('triage-data').textContent);\n",
	"var cells = 0, leafMaps = 0, clusterMaps = 0;\n",
	"function el(tag, cls, text) {\n",
	"  var e = document.createElement(tag);\n",
	"  if (cls) e.className = cls;\n",
	"  if (text !== undefined) e.textContent = text;\n",
	"  return e;\n",
	"}\n",
	"function heat(f) {\n",
	"  /* white (never set) to deep red (always set) */\n",
	"  var l = Math.round(100 - 55 * f);\n",
	"  return 'hsl(12, 85%, ' + l + '%)';\n",
	"}\n",
	"function hexBits(hex, size) {\n",
	"  var s = hex.replace(/_/g, ''), bits = [];\n",
	"  for (var i = 0; i < size; i++) {\n",
	"    var d = parseInt(s.charAt(s.length - 1 - (i >> 2)), 16) || 0;\n",
	"    bits.push((d >> (i & 3)) & 1);\n",
	"  }\n",
	"  return bits;\n",
	"}\n",
	"/* One heatmap: a row of cells, bit size-1 first; frac[i] in 0..1,\n",
	"   pat the leaf's picture (MSB first), marks the bits to outline. */\n",
	"function heatmap(size, frac, pat, marks, counts, total, fields) {\n",
	"  var box = el('div', 'map');\n",
	"  var row = el('div', 'row');\n",
	"  for (var i = size - 1; i >= 0; i--) {\n",
	"    var c = el('span', 'cell');\n",
	"    var p = pat ? pat.charAt(size - 1 - i) : '';\n",
	"    c.style.background = heat(frac[i]);\n",
	"    if (p === 'x') c.classList.add('dc');\n",
	"    if (p === '?') c.classList.add('rs');\n",
	"    if (p === '0' || p === '1') c.classList.add('fx');\n",
	"    if (marks && marks[i]) c.classList.add('un');\n",
	"    c.textContent = p === '.' ? '' : p;\n",
	"    c.title = 'bit ' + i + ': set in ' + (counts ? counts[i] + ' of ' + total : Math.round(frac[i] * 100) + '%') +\n",
	"      (p === 'x' ? ' (declared don\\u2019t-care)' : p === '?' ? ' (reserved: nothing accounts for it)' : '');\n",
	"    if (i % 8 === 0 && i) c.classList.add('gap');\n",
	"    row.appendChild(c);\n",
	"    cells++;\n",
	"  }\n",
	"  box.appendChild(row);\n",
	"  var ruler = el('div', 'row ruler');\n",
	"  for (var j = size - 1; j >= 0; j--) {\n",
	"    var r = el('span', 'cell', (j % 8 === 7 || j === size - 1) ? String(j) : '');\n",
	"    if (j % 8 === 0 && j) r.classList.add('gap');\n",
	"    ruler.appendChild(r);\n",
	"  }\n",
	"  box.appendChild(ruler);\n",
	"  if (fields && fields.length) {\n",
	"    var fl = el('div', 'fields');\n",
	"    fields.forEach(function (f) {\n",
	"      fl.appendChild(el('span', 'field', f.name + '[' + (f.high === f.low ? f.low : f.high + ':' + f.low) + ']'));\n",
	"    });\n",
	"    box.appendChild(fl);\n",
	"  }\n",
	"  return box;\n",
	"}\n",
	"var leafBy = {};\n",
	"data.leaves.forEach(function (l) { leafBy[l.root + '/' + l.leaf + '/' + l.line] = l; leafBy[l.leaf] = leafBy[l.leaf] || l; });\n",
	"\n",
	"var s = data.summary;\n",
	"var sum = document.getElementById('summary');\n",
	"sum.appendChild(el('p', '', s.instructions + ' instructions from ' + data.inputs.length + ' input(s), read as ' +\n",
	"  data.root + ' of ' + data.spec + ': ' + s.explained + ' explained, ' + s.unexplained +\n",
	"  ' unexplained in ' + s.clusters + ' cluster(s).'));\n",
	"var kt = el('table', 'kinds');\n",
	"Object.keys(s.kinds).forEach(function (k) {\n",
	"  var tr = el('tr');\n",
	"  tr.appendChild(el('td', '', k));\n",
	"  tr.appendChild(el('td', 'num', String(s.kinds[k])));\n",
	"  kt.appendChild(tr);\n",
	"});\n",
	"sum.appendChild(kt);\n",
	"\n",
	"var cl = document.getElementById('clusters');\n",
	"if (data.clusters.length < s.clusters)\n",
	"  cl.appendChild(el('p', 'note', 'The ' + data.clusters.length + ' largest of ' + s.clusters + ' clusters; the JSON results hold all.'));\n",
	"data.clusters.forEach(function (c) {\n",
	"  var size = c.examples.length ? c.examples[0].words.replace(/_/g, '').length * 4 : 0;\n",
	"  var leaf = c.leaf ? leafBy[c.leaf] : (c.nearest.length ? leafBy[c.nearest[0].leaf] : null);\n",
	"  if (leaf) size = leaf.size;\n",
	"  var sec = el('section', 'cluster');\n",
	"  sec.id = 'cluster-' + c.id;\n",
	"  var h = '#' + c.id + ' \\u2014 ' + c.count + ' instruction' + (c.count === 1 ? '' : 's') + ' \\u2014 ' + c.kinds.join(', ');\n",
	"  if (c.leaf) h += ' in ' + c.leaf;\n",
	"  else if (c.matches) h += ': ' + c.matches.join(' and ') + ' both match';\n",
	"  sec.appendChild(el('h3', '', h));\n",
	"  if (c.bits.length) sec.appendChild(el('p', '', 'unexplained bits: ' + c.bits.join(', ')));\n",
	"  c.nearest.forEach(function (n) {\n",
	"    sec.appendChild(el('p', '', 'nearest leaf ' + n.leaf + ' (' + n.file.replace(/^.*\\//, '') + ':' + n.line + '): ' +\n",
	"      n.distance + ' bit(s) differ: ' + n.bits.join(', ')));\n",
	"  });\n",
	"  c.details.forEach(function (d) { sec.appendChild(el('p', 'detail', d.kind + ': ' + d.text)); });\n",
	"  var frac = [], i;\n",
	"  if (c.ones) {\n",
	"    for (i = 0; i < size; i++) frac.push(c.ones[i] / c.count);\n",
	"  } else {\n",
	"    frac = hexBits(c.examples[0].words, size);\n",
	"  }\n",
	"  var marks = c.leaf ? hexBits(c.mask, size) : (c.nearest.length ? hexBits(c.nearest[0].diff, size) : null);\n",
	"  if (size) {\n",
	"    sec.appendChild(heatmap(size, frac, leaf ? leaf.pattern : null, marks, c.ones, c.count, null));\n",
	"    clusterMaps++;\n",
	"  }\n",
	"  var ex = el('ul', 'examples');\n",
	"  c.examples.forEach(function (e) {\n",
	"    ex.appendChild(el('li', 'mono', e.source + (e.line !== undefined ? ':' + e.line : '+0x' + e.offset.toString(16)) + '  ' + e.words));\n",
	"  });\n",
	"  sec.appendChild(ex);\n",
	"  cl.appendChild(sec);\n",
	"});\n",
	"\n",
	"var lv = document.getElementById('leaves');\n",
	"data.leaves.forEach(function (l) {\n",
	"  var sec = el('section', 'leaf');\n",
	"  sec.appendChild(el('h3', '', l.leaf + ' \\u2014 ' + l.count + ' instruction' + (l.count === 1 ? '' : 's') +\n",
	"    (l.unexplained ? ', ' + l.unexplained + ' with something unexplained' : '') +\n",
	"    ' (' + l.file.replace(/^.*\\//, '') + ':' + l.line + ')'));\n",
	"  var frac = l.ones.map(function (v) { return l.count ? v / l.count : 0; });\n",
	"  var marks = [];\n",
	"  for (var i = 0; i < l.size; i++) marks.push(0);\n",
	"  l.dontcare.concat(l.reserved).forEach(function (b) { if (l.ones[b]) marks[b] = 1; });\n",
	"  sec.appendChild(heatmap(l.size, frac, l.pattern, marks, l.ones, l.count, l.fields));\n",
	"  leafMaps++;\n",
	"  var set = l.dontcare.concat(l.reserved).filter(function (b) { return l.ones[b]; });\n",
	"  if (set.length)\n",
	"    sec.appendChild(el('p', '', 'don\\u2019t-care/reserved bits set: ' + set.map(function (b) {\n",
	"      return b + ' (' + l.ones[b] + ')'; }).join(', ')));\n",
	"  if (l.enums.length) {\n",
	"    var t = el('table', 'enums');\n",
	"    l.enums.forEach(function (e) {\n",
	"      var tr = el('tr');\n",
	"      tr.appendChild(el('td', '', (e.owner !== l.leaf ? e.owner + '.' : '') + e.field));\n",
	"      tr.appendChild(el('td', '', 'enum ' + e.enum));\n",
	"      tr.appendChild(el('td', 'num', String(e.value)));\n",
	"      tr.appendChild(el('td', 'num', e.count + '\\u00d7'));\n",
	"      t.appendChild(tr);\n",
	"    });\n",
	"    sec.appendChild(el('p', '', 'values the enums do not name:'));\n",
	"    sec.appendChild(t);\n",
	"  }\n",
	"  lv.appendChild(sec);\n",
	"});\n",
	"var mark = document.getElementById('rendered');\n",
	"mark.setAttribute('data-cluster-maps', String(clusterMaps));\n",
	"mark.setAttribute('data-leaf-maps', String(leafMaps));\n",
	"mark.setAttribute('data-cells', String(cells));\n",
	"mark.textContent = 'rendered';\n",
	NULL,
};

/* Only in reports with unexplained data (so that the others stay as
 * they were): per data cluster, its reason and a heatmap of how often
 * each bit is set over its items, drawn with the first script's helpers. */
static const char *const data_script[] = {
	"'use strict';\n",
	"var dataMaps = 0;\n",
	"var ud = document.getElementById('unexplained-data');\n",
	"(data.unexplained_data || []).forEach(function (d) {\n",
	"  var sec = el('section', 'cluster');\n",
	"  sec.id = 'data-' + d.id;\n",
	"  sec.appendChild(el('h3', '', 'D' + d.id + ' \\u2014 ' + d.count + ' item' + (d.count === 1 ? '' : 's') +\n",
	"    ' \\u2014 data ' + (d.name === null ? '(unnamed)' : d.name) + ', ' + d.size + ' bits'));\n",
	"  sec.appendChild(el('p', '', 'not understood: ' + d.reason));\n",
	"  sec.appendChild(el('p', 'note', 'framing step ' + d.file.replace(/^.*\\//, '') + ':' + d.line + '; ' +\n",
	"    (d.distinct_capped ? 'at least ' : '') + d.distinct + ' distinct content(s)'));\n",
	"  var frac = d.ones.map(function (v) { return v / d.count; });\n",
	"  sec.appendChild(heatmap(d.size, frac, null, null, d.ones, d.count, null));\n",
	"  dataMaps++;\n",
	"  var ex = el('ul', 'examples');\n",
	"  d.examples.forEach(function (e) {\n",
	"    ex.appendChild(el('li', 'mono', e.source + (e.line !== undefined ? ':' + e.line : '+0x' + e.offset.toString(16)) + '  ' + e.words));\n",
	"  });\n",
	"  sec.appendChild(ex);\n",
	"  ud.appendChild(sec);\n",
	"});\n",
	"mark.setAttribute('data-data-maps', String(dataMaps));\n",
	"mark.setAttribute('data-cells', String(cells));\n",
	NULL,
};

static void put_lines(FILE *f, const char *const *lines)
{
	for (; *lines; lines++)
		fputs(*lines, f);
}

void triage_write_html(FILE *f, const triage_report *r)
{
	char *json = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&json, &len);
	if (mem) {
		triage_write_json_limit(mem, r, r->top_html);
		if (fclose(mem) != 0) {
			free(json);
			json = NULL;
		}
	}
	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
	      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
	      "script-src 'unsafe-inline'; style-src 'unsafe-inline'\">\n"
	      "<title>isacheck triage: ", f);
	for (const char *p = base_name(r->spec_path); *p; p++) {
		if (*p == '<')
			fputs("&lt;", f);
		else if (*p == '&')
			fputs("&amp;", f);
		else
			fputc(*p, f);
	}
	fputs("</title>\n<style>\n", f);
	put_lines(f, page_style);
	bool data = triage_data_cluster_count(r->t) > 0;
	fputs("</style></head><body>\n<h1>isacheck triage</h1>\n<div id=\"summary\"></div>\n"
	      "<h2>Clusters</h2>\n<div id=\"clusters\"></div>\n", f);
	if (data)
		fputs("<h2>Unexplained data: regions the framing marks as not understood</h2>\n"
		      "<div id=\"unexplained-data\"></div>\n", f);
	fputs("<h2>Leaves: how often each bit is set</h2>\n<div id=\"leaves\"></div>\n"
	      "<p id=\"rendered\" hidden></p>\n"
	      "<noscript>The heatmaps need JavaScript; the data is in the JSON below.</noscript>\n"
	      "<script type=\"application/json\" id=\"triage-data\">", f);
	/* '<' appears in JSON only inside strings, where \u003c means the
	 * same: no "</script>" can end the block early */
	for (size_t i = 0; json && i < len; i++) {
		if (json[i] == '<')
			fputs("\\u003c", f);
		else
			fputc(json[i], f);
	}
	if (!json)
		fputs("{\"summary\":{\"instructions\":0,\"explained\":0,\"unexplained\":0,"
		      "\"clusters\":0,\"kinds\":{}},\"inputs\":[],\"clusters\":[],\"leaves\":[]}", f);
	fputs("</script>\n<script>\n", f);
	put_lines(f, page_script);
	if (data) {
		fputs("</script>\n<script>\n", f);
		put_lines(f, data_script);
	}
	fputs("</script>\n</body></html>\n", f);
	free(json);
}

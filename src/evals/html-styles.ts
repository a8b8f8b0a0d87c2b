/**
 * The HTML report's stylesheet, inlined in the page: system fonts only (no web fonts, no URLs),
 * light colours with text at WCAG AA contrast, tables that scroll sideways instead of
 * overflowing, long text that wraps.
 */
export const REPORT_CSS = `
:root {
  --fg: #1d2330; --muted: #5b6472; --line: #d9dee7; --bg: #f5f7fa; --card: #ffffff;
  --pass: #116329; --pass-bg: #e6f4ea; --fail: #b42318; --fail-bg: #fdecea;
  --warn: #8a5300; --warn-bg: #fff4e0; --accent: #1f4fbf; --code-bg: #f0f2f6;
  --mono: ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace;
}
* { box-sizing: border-box; }
html { background: var(--bg); }
body {
  margin: 0; color: var(--fg); font: 14px/1.5 system-ui, -apple-system, "Segoe UI", Roboto,
  "Helvetica Neue", Arial, sans-serif;
}
header.top { background: #1d2330; color: #ffffff; padding: 20px 32px; }
header.top h1 { margin: 0 0 4px; font-size: 22px; font-weight: 600; overflow-wrap: anywhere; }
header.top .sub { margin: 0; color: #c9d1de; overflow-wrap: anywhere; }
header.top dl { margin: 10px 0 0; display: flex; flex-wrap: wrap; gap: 4px 18px; color: #c9d1de; }
header.top dt { font-weight: 600; color: #ffffff; }
header.top dd { margin: 0 0 0 4px; overflow-wrap: anywhere; }
header.top dl div { display: flex; min-width: 0; }
main { max-width: 1280px; margin: 0 auto; padding: 24px 32px 48px; }
h2 { font-size: 17px; margin: 32px 0 12px; }
h3 { font-size: 14px; margin: 0 0 8px; }
h4 { font-size: 12px; margin: 0 0 4px; text-transform: uppercase; letter-spacing: .04em; color: var(--muted); }
a { color: var(--accent); }
.muted { color: var(--muted); }
.cards { display: grid; grid-template-columns: repeat(auto-fill, minmax(140px, 1fr)); gap: 12px; }
.card {
  background: var(--card); border: 1px solid var(--line); border-radius: 8px; padding: 12px 14px;
  border-top: 4px solid var(--line); min-width: 0;
}
.card.ok { border-top-color: var(--pass); }
.card.bad { border-top-color: var(--fail); }
.card .label { color: var(--muted); font-size: 12px; text-transform: uppercase; letter-spacing: .04em; }
.card .value { font-size: 24px; font-weight: 650; margin: 2px 0; overflow-wrap: anywhere; }
.card .value.long { font-size: 17px; line-height: 29px; }
.card.ok .value { color: var(--pass); }
.card.bad .value { color: var(--fail); }
.card .detail { color: var(--muted); font-size: 12px; overflow-wrap: anywhere; }
.scroll { overflow-x: auto; background: var(--card); border: 1px solid var(--line); border-radius: 8px; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; padding: 7px 10px; border-bottom: 1px solid var(--line); vertical-align: top; }
th { font-size: 12px; color: var(--muted); font-weight: 600; background: #fafbfc; white-space: nowrap; }
tr:last-child td { border-bottom: 0; }
td.num, th.num { text-align: right; white-space: nowrap; font-variant-numeric: tabular-nums; }
td.name { min-width: 10em; max-width: 320px; overflow-wrap: anywhere; font-weight: 500; }
td.reason { min-width: 240px; overflow-wrap: anywhere; white-space: pre-wrap; }
.badge {
  display: inline-block; padding: 1px 8px; border-radius: 10px; font-size: 12px; font-weight: 600;
  white-space: nowrap; border: 1px solid transparent;
}
.badge.pass { color: var(--pass); background: var(--pass-bg); border-color: #b7dfc3; }
.badge.fail { color: var(--fail); background: var(--fail-bg); border-color: #f3c1bb; }
.badge.warn { color: var(--warn); background: var(--warn-bg); border-color: #f0d29c; }
.badge.neutral { color: var(--muted); background: var(--code-bg); border-color: var(--line); }
.chips { display: flex; flex-wrap: wrap; gap: 4px; }
.chip {
  font-size: 12px; padding: 0 6px; border-radius: 4px; white-space: nowrap; max-width: 220px;
  overflow: hidden; text-overflow: ellipsis;
}
.chip.wrap { white-space: normal; max-width: none; overflow-wrap: anywhere; }
.chip.pass { color: var(--pass); background: var(--pass-bg); }
.chip.fail { color: var(--fail); background: var(--fail-bg); }
.bar { display: inline-block; width: 60px; height: 6px; border-radius: 3px; background: #f6d5d1; vertical-align: middle; margin-right: 6px; overflow: hidden; }
.bar > span { display: block; height: 100%; background: var(--pass); }
tr.regressed td { background: var(--fail-bg); }
tr.regressed td:first-child { box-shadow: inset 4px 0 0 var(--fail); }
tr.regressed .chip { background: #ffffff; border: 1px solid #f3c1bb; }
tr.improved td:first-child { box-shadow: inset 4px 0 0 var(--pass); }
details.case {
  background: var(--card); border: 1px solid var(--line); border-left: 4px solid var(--pass);
  border-radius: 8px; margin: 0 0 10px;
}
details.case.fail { border-left-color: var(--fail); }
details.case > summary {
  cursor: pointer; padding: 10px 14px; display: flex; flex-wrap: wrap; align-items: center; gap: 8px;
  list-style: none;
}
details.case > summary::-webkit-details-marker { display: none; }
details.case > summary::before {
  content: "▸"; color: var(--muted); font-size: 14px; width: 12px; flex: none;
}
details.case[open] > summary::before { content: "▾"; }
details.case > summary:hover { background: #fafbfc; }
details.case > summary:focus-visible { outline: 2px solid var(--accent); outline-offset: -2px; }
details.case > summary .case-name { font-weight: 600; overflow-wrap: anywhere; min-width: 0; }
details.case[open] > summary { border-bottom: 1px solid var(--line); }
.case-body { padding: 14px; scroll-margin-top: 64px; }
.io { display: grid; grid-template-columns: repeat(auto-fit, minmax(280px, 1fr)); gap: 12px; margin-bottom: 12px; }
.io > div { min-width: 0; }
pre {
  margin: 0; padding: 8px 10px; background: var(--code-bg); border-radius: 6px; font: 12px/1.45 var(--mono);
  white-space: pre-wrap; overflow-wrap: anywhere; max-height: 420px; overflow: auto;
}
.run { border-top: 1px dashed var(--line); padding-top: 12px; margin-top: 12px; }
.run-facts { color: var(--muted); font-size: 12px; margin: 0 0 8px; }
.error {
  background: var(--fail-bg); color: var(--fail); border: 1px solid #f3c1bb; border-radius: 6px;
  padding: 8px 10px; margin: 0 0 10px; overflow-wrap: anywhere; white-space: pre-wrap;
}
.evals { margin: 0 0 12px; }
.evals table { table-layout: fixed; min-width: 560px; }
.evals th:nth-child(1) { width: 96px; }
.evals th:nth-child(2) { width: 26%; }
.evals th:nth-child(3) { width: 72px; }
.transcript { display: flex; flex-direction: column; gap: 8px; margin-top: 6px; }
.msg { border: 1px solid var(--line); border-left: 4px solid #8a94a6; border-radius: 6px; padding: 6px 10px; background: #ffffff; min-width: 0; }
.msg.user { border-left-color: #1f4fbf; }
.msg.assistant { border-left-color: #6b3fa0; }
.msg.tool { border-left-color: #a15c00; background: #fffcf5; }
.msg.system { border-left-color: #5b6472; background: #fafbfc; }
.msg-head { font-size: 12px; color: var(--muted); margin-bottom: 2px; overflow-wrap: anywhere; }
.msg-head .role { font-weight: 700; text-transform: uppercase; letter-spacing: .04em; color: var(--fg); margin-right: 6px; }
.msg-text { white-space: pre-wrap; overflow-wrap: anywhere; }
.call { margin-top: 6px; }
.call-head { font-size: 12px; margin-bottom: 2px; overflow-wrap: anywhere; }
.call-head code, .msg-head code { font: 12px var(--mono); background: var(--code-bg); padding: 0 4px; border-radius: 3px; }
details.thinking > summary { cursor: pointer; color: var(--muted); font-size: 12px; }
ul.parts { margin: 4px 0 0; padding-left: 18px; font-size: 12px; overflow-wrap: anywhere; }
footer { color: var(--muted); font-size: 12px; margin-top: 32px; }
@media (max-width: 640px) {
  header.top { padding: 16px 14px; }
  main { padding: 16px 14px 32px; }
}
@media print { details.case { break-inside: avoid; } pre { max-height: none; } }
`;

/** The stylesheet of the pages, served as /assets/web/site.css. */
export const SITE_CSS = `
:root { --ink: #1d2330; --muted: #5b6474; --line: #dde2ea; --bg: #f6f7f9; --card: #fff; --accent: #1f5fbf;
  --a: #1a7f4b; --b: #5a9a2f; --c: #b88a00; --d: #d2691e; --f: #b3261e; font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
* { box-sizing: border-box; }
body { margin: 0; color: var(--ink); background: var(--bg); line-height: 1.5; }
a { color: var(--accent); }
code { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: .9em; background: #eef1f5; padding: .05em .3em; border-radius: 3px; }
.wrap { max-width: 1040px; margin: 0 auto; padding: 0 1rem; }
.skip { position: absolute; left: -999px; } .skip:focus { left: 1rem; top: .5rem; background: #fff; padding: .5rem; z-index: 10; }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
.site-header { background: #14213d; color: #fff; }
.site-header .wrap { display: flex; flex-wrap: wrap; align-items: center; justify-content: space-between; gap: .5rem; padding-top: .75rem; padding-bottom: .75rem; }
.brand { color: #fff; font-weight: 700; text-decoration: none; } .brand span { font-weight: 400; opacity: .8; }
.site-header nav { display: flex; gap: 1rem; flex-wrap: wrap; }
.site-header nav a { color: #dfe7f5; text-decoration: none; padding: .2rem 0; border-bottom: 2px solid transparent; }
.site-header nav a[aria-current="page"], .site-header nav a:hover { color: #fff; border-bottom-color: #ffd166; }
main { padding-top: 1.5rem; padding-bottom: 2rem; min-height: 60vh; }
h1 { font-size: 1.8rem; margin: .2rem 0 .6rem; line-height: 1.2; }
h2 { font-size: 1.15rem; margin: 0 0 .6rem; }
.lede { font-size: 1.1rem; color: var(--muted); max-width: 46rem; }
.notice { background: #fff4e5; border: 1px solid #f0b45a; border-radius: 6px; padding: .8rem 1rem; margin: 1rem 0; }
.caveat { color: var(--muted); font-size: .92rem; max-width: 46rem; }
.hint { color: var(--muted); font-size: .9rem; margin: .2rem 0 .6rem; }
.status:empty { display: none; } .status { margin: .8rem 0; font-weight: 500; }
.search { background: var(--card); border: 1px solid var(--line); border-radius: 8px; padding: 1rem; margin: 1rem 0; max-width: 46rem; }
.search label { font-weight: 600; display: block; margin-bottom: .4rem; }
.search-row { display: flex; gap: .5rem; }
.search input { flex: 1; min-width: 0; font: inherit; padding: .55rem .7rem; border: 1px solid #b8c1cf; border-radius: 6px; }
.search button { font: inherit; font-weight: 600; padding: .55rem 1.1rem; border: 0; border-radius: 6px; background: var(--accent); color: #fff; cursor: pointer; }
.search input:focus, .search button:focus, a:focus { outline: 3px solid #ffd166; outline-offset: 1px; }
.results { list-style: none; padding: 0; max-width: 46rem; }
.result { display: flex; align-items: center; gap: .9rem; background: var(--card); border: 1px solid var(--line); border-radius: 8px; padding: .7rem .9rem; margin-bottom: .5rem; text-decoration: none; color: inherit; }
.result:hover { border-color: var(--accent); }
.result-address { flex: 1; font-weight: 600; } .result-address small, .result-score small, .score small, td small { display: block; font-weight: 400; color: var(--muted); font-size: .85rem; }
.result-score { text-align: right; font-size: 1.3rem; font-weight: 700; font-variant-numeric: tabular-nums; }
.badge { display: inline-flex; align-items: center; justify-content: center; width: 2.4rem; height: 2.4rem; border-radius: 8px; color: #fff; font-weight: 800; font-size: 1.3rem; flex: none; }
.badge.grade-a { background: var(--a); } .badge.grade-b { background: var(--b); } .badge.grade-c { background: var(--c); } .badge.grade-d { background: var(--d); } .badge.grade-f { background: var(--f); }
.facts { color: var(--muted); margin-top: 0; }
.summary { display: flex; gap: 1.2rem; align-items: center; background: var(--card); border: 1px solid var(--line); border-radius: 10px; padding: 1rem 1.2rem; margin: 1rem 0; flex-wrap: wrap; }
.grade { display: flex; flex-direction: column; align-items: center; gap: .3rem; }
.grade .badge { width: 4.5rem; height: 4.5rem; font-size: 2.6rem; border-radius: 12px; }
.grade-label { font-weight: 600; }
.score-text { flex: 1; min-width: 16rem; }
.score { margin: 0; font-size: 1.1rem; } .score strong { font-size: 2.2rem; font-variant-numeric: tabular-nums; }
.grid { display: grid; grid-template-columns: repeat(auto-fit, minmax(300px, 1fr)); gap: 1rem; }
section { background: var(--card); border: 1px solid var(--line); border-radius: 10px; padding: 1rem 1.2rem; margin-bottom: 1rem; }
.grid section { margin-bottom: 0; } .grid section:first-child { grid-column: 1 / -1; }
.summary, .report > section { margin-bottom: 1rem; }
.chart svg { width: 100%; height: auto; display: block; }
.chart svg.bars { max-width: 620px; }
@media (max-width: 560px) { .chart svg.bars .bar-label, .chart svg.bars .bar-value { font-size: 18px; } .chart svg .tick { font-size: 16px; } }
.bars .bar-track { fill: #eef1f5; } .bars .bar-label, .bars .bar-value { font-size: 13px; fill: var(--ink); } .bars .bar-value { font-variant-numeric: tabular-nums; }
.gridline { stroke: #e6e9ef; stroke-width: 1; } .tick { font-size: 11px; fill: var(--muted); }
.bar.grade-a, .point.grade-a { fill: var(--a); } .bar.grade-b, .point.grade-b { fill: var(--b); } .bar.grade-c, .point.grade-c { fill: var(--c); }
.bar.grade-d, .point.grade-d { fill: var(--d); } .bar.grade-f, .point.grade-f { fill: var(--f); }
.line { fill: none; stroke: var(--accent); stroke-width: 2; }
.pairs { display: grid; grid-template-columns: auto auto; gap: .2rem 1rem; margin: .4rem 0; }
.pairs dt { color: var(--muted); } .pairs dd { margin: 0; text-align: right; font-variant-numeric: tabular-nums; font-weight: 600; }
.confidence { margin: 0 0 .4rem; }
.tags { list-style: none; padding: 0; display: flex; flex-wrap: wrap; gap: .4rem; margin: .4rem 0; }
.table-scroll { overflow-x: auto; }
table.events { border-collapse: collapse; width: 100%; font-size: .92rem; }
.events th, .events td { text-align: left; padding: .45rem .5rem; border-bottom: 1px solid var(--line); vertical-align: top; }
.events th { font-size: .8rem; text-transform: uppercase; letter-spacing: .03em; color: var(--muted); }
.nowrap { white-space: nowrap; } .description { min-width: 14rem; }
.severity { display: inline-block; padding: 0 .4rem; border-radius: 4px; font-size: .8rem; background: #eef1f5; }
.severity-critical { background: #fbe3e1; color: #8a1c15; } .severity-high { background: #fdebd8; color: #8a4210; }
.prose { background: var(--card); border: 1px solid var(--line); border-radius: 10px; padding: 1rem 1.5rem; overflow-x: auto; }
.prose table { border-collapse: collapse; margin: 1rem 0; font-size: .92rem; } .prose th, .prose td { border: 1px solid var(--line); padding: .35rem .55rem; text-align: left; }
.as-of { color: var(--muted); font-size: .92rem; margin: -.2rem 0 .4rem; }
.flags { list-style: none; padding: 0; margin: .4rem 0; display: grid; gap: .5rem; }
.flags li { overflow-wrap: normal; word-break: normal; hyphens: none; } .flags li span { color: var(--muted); }
code.slug { white-space: nowrap; font-size: .78rem; color: var(--muted); }
.rules th[scope="row"] { font-weight: 600; text-transform: none; letter-spacing: 0; color: var(--ink); font-size: .92rem; }
.rule-result { font-weight: 700; } .rule-met { color: var(--f); }
.explained h3, .report h3 { font-size: 1rem; margin: .8rem 0 .3rem; } .explained ul, .adjustments { margin: 0; padding-left: 1.2rem; }
.contribution { font-weight: 700; font-variant-numeric: tabular-nums; display: inline-block; min-width: 3.2rem; }
.map svg { width: 100%; height: auto; display: block; max-height: 420px; }
.borough { fill: #e8ecf2; stroke: #9aa6b8; stroke-width: 1; } .borough-current { fill: #d3def0; stroke: #5b6f8f; }
.marker { fill: var(--f); stroke: #fff; stroke-width: 2; } .marker-halo { fill: rgba(179, 38, 30, .25); }
.tiles { margin: .6rem 0 0; } .tiles figcaption { font-size: .8rem; color: var(--muted); }
.grade-distribution { list-style: none; padding: 0; display: flex; flex-wrap: wrap; gap: .8rem; margin: .3rem 0; }
.grade-distribution li { display: flex; align-items: center; gap: .35rem; }
.result.current { border-color: var(--accent); }
.filters { display: flex; flex-wrap: wrap; gap: .8rem; align-items: flex-end; background: var(--card); border: 1px solid var(--line); border-radius: 8px; padding: .8rem 1rem; margin: 1rem 0; }
.filter label { display: block; font-weight: 600; font-size: .88rem; margin-bottom: .2rem; }
.filter select, .filter input { font: inherit; padding: .4rem .5rem; border: 1px solid #b8c1cf; border-radius: 6px; }
.filter button { font: inherit; font-weight: 600; padding: .45rem 1rem; border: 0; border-radius: 6px; background: var(--accent); color: #fff; cursor: pointer; }
.pager { display: flex; gap: 1rem; margin: 1rem 0; }
.site-footer { border-top: 1px solid var(--line); color: var(--muted); font-size: .88rem; padding: 1rem 0 2rem; }
@media (max-width: 560px) { h1 { font-size: 1.45rem; } .search-row { flex-direction: column; } .summary { flex-direction: column; align-items: flex-start; } }
`;

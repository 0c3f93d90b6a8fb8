/**
 * The HTML report's stylesheet: inline, allowed by its hash, no font or image to fetch.
 * Colours meet WCAG AA contrast with their text, and every colour has a text label.
 * @module
 */

/** The page's CSS. */
export const PAGE_STYLE = `
:root{--fg:#1b1b1f;--muted:#4f4f57;--bg:#fff;--line:#d4d4da;--soft:#f4f4f6;--err:#a4161a;--warn:#f2b800;--ok:#1e6b30;--sel:#1a56c4}
*{box-sizing:border-box}
body{margin:0;font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;color:var(--fg);background:var(--bg)}
#app{margin-right:min(440px,38vw);padding:16px 20px 48px}
#detail{position:fixed;top:0;right:0;width:min(440px,38vw);height:100vh;overflow:auto;border-left:1px solid var(--line);background:var(--soft);padding:14px 16px}
#detail h2{font-size:15px;margin:0 0 8px}
#detail p{margin:6px 0;overflow-wrap:anywhere}
#detail .hint{color:var(--muted)}
h1{font-size:20px;margin:0 0 4px}
h2{font-size:17px;margin:0}
h3{font-size:14px;margin:14px 0 6px}
a{color:var(--sel)}
button{font:inherit;color:inherit}
:focus-visible{outline:3px solid var(--sel);outline-offset:1px}
.muted{color:var(--muted)}
.id{unicode-bidi:isolate;overflow-wrap:anywhere}
.badge{display:inline-block;padding:1px 8px;border-radius:10px;font-weight:600;font-size:12px;border:1px solid transparent}
.badge.valid{background:#d9f2df;color:var(--ok);border-color:#9ccfa8}
.badge.invalid{background:var(--err);color:#fff}
.badge.unreadable{background:#444;color:#fff}
.badge.error{background:var(--err);color:#fff}
.badge.warning{background:var(--warn);color:#1b1b1f}
section.input{border-top:2px solid var(--line);margin-top:18px;padding-top:10px}
section.input>details>summary{cursor:pointer;list-style-position:outside}
section.input>details>summary h2{display:inline}
.stats{margin:6px 0;color:var(--muted)}
.note{background:#fff4d6;border:1px solid #e5c66d;padding:6px 10px;margin:8px 0}
table.codes,table.summary{border-collapse:collapse;margin:6px 0}
table.codes td,table.codes th,table.summary td,table.summary th{border-bottom:1px solid var(--line);padding:3px 10px 3px 0;text-align:left;vertical-align:top}
table.summary th button{background:none;border:0;padding:0;font-weight:600;cursor:pointer}
table.summary tbody tr{cursor:pointer}
table.summary tbody tr:hover,table.summary tbody tr:focus{background:#e8eefb}
td.num,th.num{text-align:right}
.findings{list-style:none;padding:0;margin:4px 0;max-height:220px;overflow:auto}
.findings button{background:none;border:0;padding:2px 0;text-align:left;cursor:pointer;width:100%}
.findings button:hover{background:#e8eefb}
.legend{display:flex;flex-wrap:wrap;gap:6px 12px;margin:8px 0;font-size:12px}
.legend span{display:inline-flex;align-items:center;gap:4px}
.swatch{display:inline-block;width:14px;height:10px;border-radius:2px}
.run,.strip{margin:10px 0;border:1px solid var(--line);border-radius:4px}
.strip{border-style:dashed}
.run-head{padding:4px 8px;background:var(--soft);border-bottom:1px solid var(--line);font-weight:600}
.run-head .muted{font-weight:400}
.elided-run{padding:6px 8px}
.scroll{overflow-x:auto}
.track{position:relative;min-width:100%}
.lane{display:flex;border-bottom:1px solid #ececf0}
.lane:last-child{border-bottom:0}
.lane-label{position:sticky;left:0;z-index:3;flex:0 0 190px;width:190px;background:#fff;border-right:1px solid var(--line);padding:3px 6px;font-size:12px;overflow:hidden;overflow-wrap:anywhere}
.lane-body{position:relative;flex:1 1 auto}
.band{position:absolute;top:0;bottom:0;background:#eef3fc;border-left:2px solid #90a8d8}
.band.error{background:#fbeaea;border-left-color:var(--err)}
.gapmark{position:absolute;top:0;bottom:0;background:repeating-linear-gradient(135deg,#eee 0 4px,#fff 4px 8px);border-left:1px dashed #888;border-right:1px dashed #888;z-index:1}
.gapmark span{position:absolute;top:2px;left:2px;font-size:11px;white-space:nowrap;background:#fff;padding:0 3px;z-index:4}
.bar{position:absolute;height:14px;min-width:4px;border:1px solid rgba(0,0,0,.35);border-radius:3px;padding:0 3px;font-size:10px;line-height:12px;text-align:left;overflow:hidden;white-space:nowrap;cursor:pointer;z-index:2}
.bar.open{border-right:3px dashed #000;border-top-right-radius:0;border-bottom-right-radius:0}
.bar.hl{outline:3px solid var(--sel);z-index:5}
.k-text{background:#bcd4f6}.k-tool-call{background:#d9c5f2}.k-reasoning{background:#bfe8e0}
.k-span{background:#dcdce2}.k-step{background:#e3e6b4}.k-activity{background:#f3d2b3}
.tick{position:absolute;top:18px;width:2px;height:9px;background:#555;cursor:pointer;z-index:2}
.tick.hl{background:var(--sel);width:4px}
.pin{position:absolute;top:1px;height:16px;min-width:16px;padding:0 3px;border-radius:8px;font-size:10px;font-weight:700;line-height:14px;cursor:pointer;z-index:4;border:1px solid #000}
.pin.error{background:var(--err);color:#fff}
.pin.warning{background:var(--warn);color:#1b1b1f}
.pin.sel{outline:3px solid var(--sel)}
.pins{display:flex;flex-wrap:wrap;gap:4px;padding:4px 0}
.pins .pin,.legend .pin{position:static}
.filters{display:flex;flex-wrap:wrap;gap:8px 14px;align-items:center;margin:6px 0;font-size:13px}
.filters select{max-width:220px}
.grid-head,.row{display:grid;grid-template-columns:72px 58px 150px 230px minmax(120px,1fr) 200px;gap:6px;padding:0 6px;font-size:12px;height:22px;line-height:22px;white-space:nowrap}
.grid-head{font-weight:600;background:var(--soft);border:1px solid var(--line);border-bottom:0}
.row>span{overflow:hidden;text-overflow:ellipsis}
.viewport{position:relative;height:360px;overflow:auto;border:1px solid var(--line)}
.row{position:absolute;left:0;right:0;cursor:pointer}
.row:hover{background:#f0f4fc}
.row.sel{background:#cfdcf6}
.row .e{color:var(--err);font-weight:600}
.row .w{color:#6b4e00;font-weight:600}
pre.json{background:#fff;border:1px solid var(--line);padding:8px;font-size:12px;white-space:pre-wrap;overflow-wrap:anywhere;max-height:60vh;overflow:auto}
`;

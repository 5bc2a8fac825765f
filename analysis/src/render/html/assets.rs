//! The page's style sheet and its one script (sortable tables), inlined so the file needs
//! no network.

pub const CSS: &str = "\
:root{color-scheme:light}\
body{font:16px/1.5 system-ui,-apple-system,'Segoe UI',sans-serif;margin:0 auto;padding:1rem 1.2rem;max-width:76rem;color:#1b1b1b;background:#fff}\
h1{font-size:1.7rem;margin:.4rem 0}h2{font-size:1.35rem;border-bottom:2px solid #ccd;margin-top:2.4rem;padding-bottom:.2rem}\
h3{font-size:1.08rem;margin:1.8rem 0 .2rem}\
nav ul{display:flex;flex-wrap:wrap;gap:.3rem 1.2rem;list-style:none;padding:0;margin:.4rem 0}\
.note{color:#444;font-size:.92rem;margin:.2rem 0 .4rem}\
figure{margin:.4rem 0 .6rem;max-width:680px}\
svg{display:block;width:100%;height:auto}\
svg text{font-size:12px;fill:#222}svg .value{fill:#333}\
.axis line,.axis path{stroke:#777}.grid line{stroke:#e2e2e2}\
rect.bar{fill:#2f6ca8}\
.legend{list-style:none;padding:0;margin:.3rem 0;display:flex;flex-wrap:wrap;gap:.2rem 1.1rem;font-size:.86rem}\
.swatch{display:inline-block;width:1.8em;height:.75em;margin-right:.35em;vertical-align:middle;border:1px solid #0003}\
.table-wrap{overflow-x:auto;max-width:100%}\
table{border-collapse:collapse;font-size:.9rem;margin:.3rem 0 .8rem}\
\
th,td{padding:.25rem .65rem;border-bottom:1px solid #ddd;text-align:left;vertical-align:top}\
td,th{white-space:nowrap}td.long{white-space:normal;overflow-wrap:anywhere;min-width:12em}th{background:#f4f5f8;white-space:normal;min-width:4.5em}\
.num{text-align:right;font-variant-numeric:tabular-nums}\
th button{font:inherit;font-weight:600;background:none;border:0;padding:0;cursor:pointer;color:inherit}\
th button::after{content:' \\2195';color:#889}\
th[aria-sort=ascending] button::after{content:' \\25B2';color:#223}\
th[aria-sort=descending] button::after{content:' \\25BC';color:#223}\
@media (max-width:600px){body{padding:.6rem .7rem}h1{font-size:1.4rem}svg text{font-size:17px}table{font-size:.8rem}th,td{padding:.2rem .4rem}}\
@media (min-width:1000px){.pair{display:grid;grid-template-columns:minmax(0,540px) minmax(0,1fr);gap:1.6rem;align-items:start}.pair figure{margin-top:0}}\
@media print{nav,th button::after{display:none}body{max-width:none;padding:0;font-size:11pt}\
h2{break-before:auto}.block{break-inside:avoid}a{color:inherit;text-decoration:none}}";

/// Sorts a table by the clicked column: numbers by `data-sort`, text by its content.
pub const SORT_JS: &str = "\
document.querySelectorAll('table.sortable th button').forEach(function (b) {\
  b.addEventListener('click', function () {\
    var th = b.closest('th'), table = th.closest('table'), body = table.tBodies[0];\
    var col = Array.prototype.indexOf.call(th.parentNode.children, th);\
    var asc = th.getAttribute('aria-sort') !== 'ascending';\
    table.querySelectorAll('th').forEach(function (h) { h.removeAttribute('aria-sort'); });\
    th.setAttribute('aria-sort', asc ? 'ascending' : 'descending');\
    var key = function (row) { var c = row.cells[col]; return c.dataset.sort !== undefined ? +c.dataset.sort : c.textContent; };\
    var rows = Array.prototype.slice.call(body.rows);\
    rows.sort(function (x, y) {\
      var a = key(x), z = key(y);\
      var d = (typeof a === 'number' && typeof z === 'number') ? a - z : String(a).localeCompare(String(z));\
      return asc ? d : -d;\
    });\
    rows.forEach(function (r) { body.appendChild(r); });\
  });\
});";

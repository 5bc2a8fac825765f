//! SVG charts a screen reader can read: each `<svg role="img">` names its title and a
//! description listing every value, each mark carries its own `<title>` and `data-` values,
//! and axes are drawn with labelled ticks. Sizes are in viewBox units; the page scales them.

use std::fmt::Write;

use super::escape;

/// Narrow enough that a phone shows the text at a readable size.
const WIDTH: f64 = 520.0;
const BAR: f64 = 24.0;
const LABEL_WIDTH: f64 = 165.0;
const VALUE_ROOM: f64 = 60.0;
/// Longest label drawn in full (the table and the mark's title hold the whole text).
const LABEL_CHARS: usize = 17;
/// Colours for series and parts, told apart by dash patterns too in line charts.
pub const PALETTE: [&str; 10] = [
    "#2f6ca8", "#d1603d", "#3a9a5b", "#8a5fb0", "#c9a227", "#4aa3b5", "#b0487a", "#6b6b6b",
    "#94b83a", "#34495e",
];
const DASHES: [&str; 4] = ["", "6 3", "2 3", "8 3 2 3"];

fn short(label: &str) -> String {
    if label.chars().count() <= LABEL_CHARS {
        return label.to_owned();
    }
    let cut: String = label.chars().take(LABEL_CHARS - 1).collect();
    format!("{cut}…")
}

/// A number as the chart prints it (no trailing `.0`).
pub fn number(v: f64) -> String {
    if v.fract() == 0.0 {
        format!("{}", v as i64)
    } else {
        format!("{v}")
    }
}

fn open(id: &str, title: &str, desc: &str, height: f64) -> String {
    format!(
        "<svg viewBox=\"0 0 {WIDTH} {height}\" role=\"img\" aria-labelledby=\"{id}-t {id}-d\">\
         <title id=\"{id}-t\">{}</title><desc id=\"{id}-d\">{}</desc>",
        escape(title),
        escape(desc)
    )
}

/// Round numbers for an axis up to `max`: 0 and up to four steps; whole steps for counts.
fn ticks(max: f64, whole: bool) -> (f64, Vec<f64>) {
    let max = if max <= 0.0 { 1.0 } else { max };
    let raw = max / 4.0;
    let mag = 10f64.powf(raw.log10().floor());
    let step = [1.0, 2.0, 2.5, 5.0, 10.0]
        .iter()
        .map(|m| m * mag)
        .find(|s| *s >= raw)
        .unwrap_or(10.0 * mag);
    let step = if max >= 4.0 || whole {
        step.ceil()
    } else {
        step
    };
    let top = step * (max / step).ceil();
    let n = (top / step).round() as usize;
    (top, (0..=n).map(|i| step * i as f64).collect())
}

/// Horizontal bars, one per `(label, value)`, on a value axis.
pub fn bars(id: &str, title: &str, unit: &str, rows: &[(String, f64)]) -> String {
    let max = rows.iter().map(|(_, v)| *v).fold(0.0_f64, f64::max);
    let (top, marks) = ticks(max, unit.is_empty());
    let room = WIDTH - LABEL_WIDTH - VALUE_ROOM;
    let plot = BAR * rows.len() as f64;
    let height = plot + 34.0;
    let desc: Vec<String> = rows
        .iter()
        .map(|(l, v)| format!("{l}: {}{unit}", number(*v)))
        .collect();
    let mut svg = open(id, title, &desc.join("; "), height);
    svg.push_str("<g class=\"grid\">");
    for m in &marks {
        let x = LABEL_WIDTH + room * m / top;
        let _ = write!(
            svg,
            "<line x1=\"{x:.1}\" x2=\"{x:.1}\" y1=\"2\" y2=\"{plot}\"/>"
        );
    }
    svg.push_str("</g>");
    for (i, (label, value)) in rows.iter().enumerate() {
        let y = i as f64 * BAR + 4.0;
        let w = room * value / top;
        let w = if *value > 0.0 { w.max(1.0) } else { 0.0 };
        let shown = format!("{}{unit}", number(*value));
        let _ = write!(
            svg,
            "<text x=\"{}\" y=\"{:.1}\" text-anchor=\"end\" aria-hidden=\"true\">{}</text>\
             <rect class=\"bar\" data-label=\"{}\" data-value=\"{value}\" x=\"{LABEL_WIDTH}\" \
             y=\"{y:.1}\" width=\"{w:.1}\" height=\"{}\"><title>{}: {shown}</title></rect>\
             <text class=\"value\" x=\"{:.1}\" y=\"{:.1}\" aria-hidden=\"true\">{shown}</text>",
            LABEL_WIDTH - 6.0,
            y + 12.5,
            escape(&short(label)),
            escape(label),
            BAR - 7.0,
            escape(label),
            LABEL_WIDTH + w + 5.0,
            y + 12.5,
        );
    }
    axis_x(
        &mut svg,
        plot,
        &marks,
        |m| LABEL_WIDTH + room * m / top,
        unit,
    );
    svg.push_str("</svg>");
    svg
}

/// A value axis along the bottom at `y`, with a label per mark.
fn axis_x(svg: &mut String, y: f64, marks: &[f64], at: impl Fn(f64) -> f64, unit: &str) {
    let (first, last) = (at(0.0), at(*marks.last().unwrap_or(&0.0)));
    let _ = write!(
        svg,
        "<g class=\"axis\" aria-hidden=\"true\"><line x1=\"{first:.1}\" x2=\"{last:.1}\" y1=\"{y}\" y2=\"{y}\"/>"
    );
    for m in marks {
        let x = at(*m);
        let _ = write!(
            svg,
            "<line x1=\"{x:.1}\" x2=\"{x:.1}\" y1=\"{y}\" y2=\"{}\"/>\
             <text x=\"{x:.1}\" y=\"{}\" text-anchor=\"middle\">{}{unit}</text>",
            y + 4.0,
            y + 17.0,
            number(*m)
        );
    }
    svg.push_str("</g>");
}

/// The legend under a chart of several series or parts (HTML, so it wraps on a phone).
pub fn legend(names: &[String], dashed: bool) -> String {
    let mut out = String::from("<ul class=\"legend\" aria-hidden=\"true\">");
    for (i, name) in names.iter().enumerate() {
        let colour = PALETTE[i % PALETTE.len()];
        let swatch = if dashed {
            format!(
                "<svg class=\"swatch\" viewBox=\"0 0 24 8\"><line x1=\"0\" x2=\"24\" y1=\"4\" \
                 y2=\"4\" stroke=\"{colour}\" stroke-width=\"2.5\" stroke-dasharray=\"{}\"/></svg>",
                DASHES[i % DASHES.len()]
            )
        } else {
            format!("<span class=\"swatch\" style=\"background:{colour}\"></span>")
        };
        let _ = write!(out, "<li>{swatch}{}</li>", escape(name));
    }
    out.push_str("</ul>");
    out
}

/// `YYYY-MM-DD HH:MM:SS` of a time in ms since the epoch (UTC).
fn time_label(ms: u64) -> String {
    let t = mcpcensus_store::format_timestamp(ms);
    t.get(..19).unwrap_or(&t).replace('T', " ")
}

/// Series (percent) over time: one point per run at its time, a line per series.
pub fn line(
    id: &str,
    title: &str,
    x: &[u64],
    runs: &[String],
    series: &[(String, Vec<f64>)],
) -> String {
    const LEFT: f64 = 48.0;
    const RIGHT: f64 = 24.0;
    const TOP: f64 = 10.0;
    const PLOT: f64 = 220.0;
    let max = series
        .iter()
        .flat_map(|(_, v)| v.iter().copied())
        .fold(0.0_f64, f64::max);
    let (top, marks) = ticks(max, false);
    let (lo, hi) = (
        x.iter().copied().min().unwrap_or(0),
        x.iter().copied().max().unwrap_or(0),
    );
    let span = (hi - lo) as f64;
    let room = WIDTH - LEFT - RIGHT;
    let px = |t: u64| {
        if span == 0.0 {
            LEFT + room / 2.0
        } else {
            LEFT + room * (t - lo) as f64 / span
        }
    };
    let py = |v: f64| TOP + PLOT - PLOT * v / top;
    let mut desc = Vec::new();
    for (name, values) in series {
        let points: Vec<String> = runs
            .iter()
            .zip(x)
            .zip(values)
            .map(|((r, t), v)| format!("{} (run {r}) {}%", time_label(*t), number(*v)))
            .collect();
        desc.push(format!("{name}: {}", points.join(", ")));
    }
    let height = TOP + PLOT + 58.0;
    let mut svg = open(id, title, &desc.join("; "), height);
    svg.push_str("<g class=\"grid\">");
    for m in &marks {
        let y = py(*m);
        let _ = write!(
            svg,
            "<line x1=\"{LEFT}\" x2=\"{:.1}\" y1=\"{y:.1}\" y2=\"{y:.1}\"/>",
            WIDTH - RIGHT
        );
    }
    svg.push_str("</g><g class=\"axis\" aria-hidden=\"true\">");
    for m in &marks {
        let _ = write!(
            svg,
            "<text x=\"{}\" y=\"{:.1}\" text-anchor=\"end\">{}%</text>",
            LEFT - 6.0,
            py(*m) + 4.0,
            number(*m)
        );
    }
    let base = TOP + PLOT;
    let _ = write!(
        svg,
        "<line x1=\"{LEFT}\" x2=\"{:.1}\" y1=\"{base}\" y2=\"{base}\"/>",
        WIDTH - RIGHT
    );
    // Time ticks: every run gets a tick; labels where they do not crowd the previous one.
    let mut last_label = f64::NEG_INFINITY;
    for (i, t) in x.iter().enumerate() {
        let cx = px(*t);
        let _ = write!(
            svg,
            "<line x1=\"{cx:.1}\" x2=\"{cx:.1}\" y1=\"{base}\" y2=\"{}\"/>",
            base + 5.0
        );
        if cx - last_label >= 120.0 {
            let anchor = if i + 1 == x.len() && x.len() > 1 {
                "end"
            } else if i == 0 && x.len() > 1 {
                "start"
            } else {
                "middle"
            };
            let label = time_label(*t);
            let (day, clock) = label.split_once(' ').unwrap_or((&label, ""));
            let _ = write!(
                svg,
                "<text x=\"{cx:.1}\" y=\"{}\" text-anchor=\"{anchor}\">{day}</text>\
                 <text x=\"{cx:.1}\" y=\"{}\" text-anchor=\"{anchor}\">{clock} UTC</text>",
                base + 18.0,
                base + 32.0
            );
            last_label = cx;
        }
    }
    let _ = write!(
        svg,
        "<text x=\"{:.1}\" y=\"{}\" text-anchor=\"middle\">time of the run's first scan</text></g>",
        LEFT + room / 2.0,
        base + 50.0
    );
    for (i, (name, values)) in series.iter().enumerate() {
        let colour = PALETTE[i % PALETTE.len()];
        let path: Vec<String> = x
            .iter()
            .zip(values)
            .map(|(t, v)| format!("{:.1},{:.1}", px(*t), py(*v)))
            .collect();
        let _ = write!(
            svg,
            "<polyline class=\"series\" data-series=\"{}\" fill=\"none\" stroke=\"{colour}\" \
             stroke-width=\"2.5\" stroke-dasharray=\"{}\" points=\"{}\"/>",
            escape(name),
            DASHES[i % DASHES.len()],
            path.join(" ")
        );
        if i == 0 {
            // The first series' values are printed by its points (the others are in the
            // table and the points' titles).
            for (t, v) in x.iter().zip(values) {
                let _ = write!(
                    svg,
                    "<text class=\"value\" x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\" \
                     aria-hidden=\"true\">{}%</text>",
                    px(*t),
                    py(*v) - 9.0,
                    number(v.round())
                );
            }
        }
        for ((t, v), run) in x.iter().zip(values).zip(runs) {
            let _ = write!(
                svg,
                "<circle class=\"point\" data-series=\"{}\" data-run=\"{}\" data-x=\"{t}\" \
                 data-value=\"{v}\" cx=\"{:.1}\" cy=\"{:.1}\" r=\"4\" fill=\"{colour}\">\
                 <title>{}, {}: {}%</title></circle>",
                escape(name),
                escape(run),
                px(*t),
                py(*v),
                escape(name),
                time_label(*t),
                number(*v)
            );
        }
    }
    svg.push_str("</svg>");
    svg
}

/// One 100% bar per row, split into its parts' shares.
pub fn stacked(id: &str, title: &str, parts: &[String], rows: &[(String, Vec<f64>)]) -> String {
    let room = WIDTH - LABEL_WIDTH - 16.0;
    let plot = BAR * rows.len() as f64;
    let desc: Vec<String> = rows
        .iter()
        .map(|(label, shares)| {
            let s: Vec<String> = parts
                .iter()
                .zip(shares)
                .filter(|(_, v)| **v > 0.0)
                .map(|(p, v)| format!("{p} {}%", number(*v)))
                .collect();
            format!("{label}: {}", s.join(", "))
        })
        .collect();
    let mut svg = open(id, title, &desc.join("; "), plot + 34.0);
    for (i, (label, shares)) in rows.iter().enumerate() {
        let y = i as f64 * BAR + 4.0;
        let _ = write!(
            svg,
            "<text x=\"{}\" y=\"{:.1}\" text-anchor=\"end\" aria-hidden=\"true\">{}</text>",
            LABEL_WIDTH - 6.0,
            y + 12.5,
            escape(&short(label))
        );
        let mut x = LABEL_WIDTH;
        for (j, (part, v)) in parts.iter().zip(shares).enumerate() {
            let w = room * v / 100.0;
            let _ = write!(
                svg,
                "<rect class=\"segment\" data-run=\"{}\" data-part=\"{}\" data-value=\"{v}\" \
                 x=\"{x:.1}\" y=\"{y:.1}\" width=\"{w:.1}\" height=\"{}\" fill=\"{}\">\
                 <title>{}, {}: {}%</title></rect>",
                escape(label),
                escape(part),
                BAR - 7.0,
                PALETTE[j % PALETTE.len()],
                escape(label),
                escape(part),
                number(*v)
            );
            if w >= 40.0 {
                let _ = write!(
                    svg,
                    "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\" fill=\"#fff\" \
                     style=\"fill:#fff\" aria-hidden=\"true\">{}%</text>",
                    x + w / 2.0,
                    y + 12.5,
                    number(v.round())
                );
            }
            x += w;
        }
    }
    let marks = [0.0, 25.0, 50.0, 75.0, 100.0];
    axis_x(
        &mut svg,
        plot,
        &marks,
        |m| LABEL_WIDTH + room * m / 100.0,
        "%",
    );
    svg.push_str("</svg>");
    svg
}

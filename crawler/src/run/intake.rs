//! The intake thread: reads lines, plans them and hands work to the pipeline through a
//! bounded channel, so reading never runs ahead of scanning by more than the channel holds.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;

use tokio::sync::mpsc;

use super::expand::{expand, Expansion, Outlet};
use super::resume::DoneSet;
use crate::error::InputError;
use crate::input::{InputCounts, LineReader, Planned, Planner, RawLine};
use crate::scan::{RegistrySource, Work};

/// What intake read.
pub struct IntakeEnd {
    /// The planner's counts over every line.
    pub input: InputCounts,
    /// Planned lines skipped because the resumed run already has their record.
    pub already_recorded: u64,
    /// What the registry listing read.
    pub registry: Expansion,
    /// Each source read to its end, with its lines.
    pub sources_read: Vec<(String, u64)>,
}

pub struct Intake {
    pub handle: JoinHandle<Result<IntakeEnd, InputError>>,
    /// Set to stop reading (Ctrl-C, --max-duration).
    pub stop: Arc<AtomicBool>,
}

pub fn spawn(
    mut reader: LineReader,
    mut planner: Planner,
    run_id: String,
    tx: mpsc::Sender<Work>,
    mut done: DoneSet,
    registry: Option<RegistrySource>,
) -> std::io::Result<Intake> {
    let stop = Arc::new(AtomicBool::new(false));
    let stop_flag = stop.clone();
    let handle = std::thread::Builder::new()
        .name("mcpcensus-intake".into())
        .spawn(move || {
            let mut already_recorded = 0;
            let mut expansion = Expansion::default();
            while !stop_flag.load(Ordering::Relaxed) {
                let Some((line_no, raw)) = reader.next_line_at()? else {
                    break;
                };
                let input = match &raw {
                    RawLine::Text(text) => text.trim().to_owned(),
                    RawLine::TooLong | RawLine::NotUtf8 => String::new(),
                };
                let planned = planner.plan_at(line_no, raw);
                let (_, input_line) = reader.position();
                if let Some(source) = &registry {
                    let mut out = Outlet {
                        tx: &tx,
                        done: &mut done,
                        run_id: &run_id,
                        stop: &stop_flag,
                        already_recorded: &mut already_recorded,
                    };
                    let sent = match &planned {
                        Planned::RegistryAll => {
                            expand(source, &mut planner, input_line, &mut out, &mut expansion)
                        }
                        Planned::Registry { name } => out.send_name(source, name, None, input_line),
                        _ => Ok(()),
                    };
                    if sent.is_err() {
                        break; // The pipeline has stopped.
                    }
                    if matches!(planned, Planned::RegistryAll | Planned::Registry { .. }) {
                        continue;
                    }
                } else if matches!(planned, Planned::RegistryAll) {
                    planner.registry_all_refused();
                }
                // Every line is planned (so dedup sees the same lines as the first pass) but
                // those the store already holds are not queued again.
                if !matches!(planned, Planned::Skip) && done.take(input_line, &input) {
                    already_recorded += 1;
                    continue;
                }
                let Some(work) = Work::from_planned(planned, &input, input_line, &run_id) else {
                    continue;
                };
                if tx.blocking_send(work).is_err() {
                    break; // The pipeline has stopped.
                }
            }
            Ok(IntakeEnd {
                input: planner.counts(),
                already_recorded,
                registry: expansion,
                sources_read: reader.finished().to_vec(),
            })
        })?;
    Ok(Intake { handle, stop })
}

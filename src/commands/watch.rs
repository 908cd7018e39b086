//! `--watch` for `stuck` and `fleet list`: read, show, sleep, again. Each
//! refresh is the command's report, rendered as one frame through the one
//! output path (`ui::report::frame`). A lost connection is shown and
//! retried, not fatal. On a terminal `q` leaves it (exit 0) and Ctrl-C
//! too (exit 130, the signal's code): both are how a watch ends, not
//! errors, so neither prints an "error:" line.

use std::time::Duration;

use crate::db::session::Session;
use anyhow::Result;
use chrono::Utc;

use crate::exit::{self, ExitCode};
use crate::ops::Context;
use crate::ui::report::{self, Report};
use crate::ui::{self, watch::Screen};

/// Shorter than this only hammers the database.
const MIN_INTERVAL: Duration = Duration::from_secs(1);

/// How a watched command reads one refresh: its report.
pub type Read<'a, T> = &'a mut dyn FnMut(&mut Session) -> Result<T>;

/// Refreshes every `interval`, `count` times (forever without one).
pub fn watch<T: Report>(
    ctx: &Context,
    interval: Duration,
    count: Option<u64>,
    read: Read<'_, T>,
) -> Result<ExitCode> {
    if interval < MIN_INTERVAL {
        return Err(exit::usage(format!(
            "--watch {}: refresh at most once a second (e.g. --watch 5s)",
            crate::duration::human(interval.as_secs() as i64)
        )));
    }
    let every = crate::duration::human(interval.as_secs() as i64);
    let terminal = ctx.output.interactive && !ctx.output.json();
    // On a terminal Ctrl-C ends the watch here, between reads, so that it
    // leaves the alternate screen with the last view printed.
    let _ctrl_c = terminal.then(crate::interrupt::deferred);
    let mut keys = terminal.then(ui::keys::Keys::listen);
    let mut screen = Screen::default();
    let mut client: Option<Session> = None;
    let (mut last_text, mut last_read) = (String::new(), None);
    let mut refresh = 0u64;
    loop {
        let mut failed = None;
        refresh += 1;
        let result = match client.as_mut() {
            Some(c) => read(c),
            None => ctx.connect_for_reading().and_then(|mut c| {
                let value = read(&mut c);
                client = Some(c);
                value
            }),
        };
        match result {
            Ok(value) => {
                let text = report::frame(&ctx.output, &value)?;
                last_read = Some(Utc::now());
                if terminal {
                    screen.draw(&ctx.output, &text, last_read, None, &every)?;
                } else {
                    ui::watch::document(&ctx.output, &text)?;
                }
                last_text = text;
            }
            Err(err) => {
                // The session is gone (or never came): a new one next time.
                client = None;
                let problem = format!("the last read failed: {err:#}");
                if terminal {
                    screen.draw(&ctx.output, &last_text, last_read, Some(&problem), &every)?;
                } else {
                    ui::note(&format!("{problem}; retrying in {every}"));
                }
                failed = Some(err);
            }
        }
        if count.is_some_and(|n| refresh >= n) {
            screen.leave()?;
            // The last refresh decides how a counted watch ends.
            return match failed {
                Some(err) => Err(err),
                None => Ok(ExitCode::Done),
            };
        }
        if let Some(code) = pause(interval, keys.as_mut()) {
            screen.leave()?;
            return Ok(code);
        }
    }
}

/// Waits `interval`, a tenth of a second at a time, listening to the
/// keys on a terminal; how the watch ends as soon as it should: 0 for
/// `q`, the signal's code (130 for Ctrl-C) when one came, also during the
/// read before.
fn pause(interval: Duration, mut keys: Option<&mut ui::keys::Keys>) -> Option<ExitCode> {
    let step = Duration::from_millis(100);
    let mut slept = Duration::ZERO;
    while slept < interval {
        if crate::interrupt::interrupted() {
            return Some(exit::signal_code());
        }
        let wait = step.min(interval - slept);
        let quit = match keys.as_deref_mut() {
            Some(keys) => keys.quit_within(wait),
            None => {
                std::thread::sleep(wait);
                false
            }
        };
        if quit {
            return Some(ExitCode::Done);
        }
        slept += step;
    }
    crate::interrupt::interrupted().then(exit::signal_code)
}

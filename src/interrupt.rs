//! Ctrl-C. By default it ends the program at once with exit 130: an open
//! transaction dies with the connection and the server rolls it back, so
//! nothing is half-written. Two places want it otherwise:
//! - the sandbox, whose child command owns Ctrl-C (we clean up after it);
//! - the final moments of a write, which check [`interrupted`] before COMMIT
//!   instead of dying between COMMIT and its report.

use std::sync::Once;
use std::sync::atomic::{AtomicBool, AtomicU8, Ordering};

const EXIT_NOW: u8 = 0;
const DEFER: u8 = 1;

static MODE: AtomicU8 = AtomicU8::new(EXIT_NOW);
static INTERRUPTED: AtomicBool = AtomicBool::new(false);
static INSTALL: Once = Once::new();

/// Installs the handler (once per process).
pub fn install() {
    INSTALL.call_once(|| {
        // If it cannot be installed, the default (the process dies, the
        // server rolls back) is still safe.
        let _ = ctrlc::set_handler(|| {
            INTERRUPTED.store(true, Ordering::SeqCst);
            if MODE.load(Ordering::SeqCst) == EXIT_NOW {
                restore_terminal();
                eprintln!("\ninterrupted: nothing was written");
                std::process::exit(130);
            }
        });
    });
}

/// From now on Ctrl-C only sets a flag.
pub fn defer_to_child() {
    MODE.store(DEFER, Ordering::SeqCst);
}

/// While the returned guard lives, Ctrl-C only sets a flag (checked with
/// [`interrupted`]); when it drops, Ctrl-C ends the program again.
pub fn deferred() -> DeferGuard {
    MODE.store(DEFER, Ordering::SeqCst);
    DeferGuard
}

pub struct DeferGuard;

impl Drop for DeferGuard {
    fn drop(&mut self) {
        MODE.store(EXIT_NOW, Ordering::SeqCst);
        if INTERRUPTED.load(Ordering::SeqCst) {
            restore_terminal();
        }
    }
}

/// Whether Ctrl-C was pressed.
pub fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::SeqCst)
}

/// Prompts and progress bars hide the cursor; give it back.
pub fn restore_terminal() {
    let _ = console::Term::stderr().show_cursor();
}

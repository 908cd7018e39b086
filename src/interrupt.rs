//! Ctrl-C. By default it ends the program at once with exit 130: an open
//! transaction dies with the connection and the server rolls it back, so
//! nothing is half-written. Two places want it otherwise:
//! - the sandbox, whose child command owns Ctrl-C (we clean up after it);
//! - the final moments of a write, which check [`interrupted`] before COMMIT
//!   instead of dying between COMMIT and its report.

use std::sync::Once;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// Ctrl-C belongs to a child command for the rest of the process.
static CHILD: AtomicBool = AtomicBool::new(false);
/// How many [`deferred`] guards are alive (a batch around transactions).
static DEPTH: AtomicUsize = AtomicUsize::new(0);
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

fn exits_now() -> bool {
    !CHILD.load(Ordering::SeqCst) && DEPTH.load(Ordering::SeqCst) == 0
}
static INSTALL: Once = Once::new();

/// Installs the handler (once per process).
pub fn install() {
    INSTALL.call_once(|| {
        // If it cannot be installed, the default (the process dies, the
        // server rolls back) is still safe.
        let _ = ctrlc::set_handler(|| {
            INTERRUPTED.store(true, Ordering::SeqCst);
            if exits_now() {
                restore_terminal();
                eprintln!("\ninterrupted: nothing was written");
                std::process::exit(130);
            }
        });
    });
}

/// From now on Ctrl-C only sets a flag.
pub fn defer_to_child() {
    CHILD.store(true, Ordering::SeqCst);
}

/// While the returned guard lives, Ctrl-C only sets a flag (checked with
/// [`interrupted`]); when the last one drops, Ctrl-C ends the program
/// again. Guards nest: a batch holds one around its transactions.
pub fn deferred() -> DeferGuard {
    DEPTH.fetch_add(1, Ordering::SeqCst);
    DeferGuard
}

pub struct DeferGuard;

impl Drop for DeferGuard {
    fn drop(&mut self) {
        let before = DEPTH.fetch_sub(1, Ordering::SeqCst);
        if before == 1 && INTERRUPTED.load(Ordering::SeqCst) {
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

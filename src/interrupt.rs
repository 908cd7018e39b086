//! Ctrl-C (SIGINT), SIGTERM and SIGHUP (README, "When things go wrong").
//! By default each ends the program at once — 130, 143 and 129 — with
//! "nothing was written": an open transaction dies with the connection and
//! the server rolls it back, so nothing is half-written. Two places want it
//! otherwise:
//! - the sandbox, whose child command owns Ctrl-C (we clean up after it);
//! - a batch and the final moments of a write, which check [`interrupted`]
//!   between deployments and before COMMIT instead of dying between COMMIT
//!   and its report.
//!
//! The handler only records the signal and wakes a thread (an atomic store
//! and a write to a pipe, both safe in a signal handler); that thread does
//! the rest. `nix` (already a dependency) installs it: `ctrlc` cannot tell
//! the three signals apart.

use std::io::{IsTerminal as _, Read as _};
use std::os::fd::IntoRawFd as _;
use std::sync::Once;
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicUsize, Ordering};

use nix::libc;
use nix::sys::signal::{SaFlags, SigAction, SigHandler, SigSet, Signal, sigaction};

/// Ctrl-C belongs to a child command for the rest of the process.
static CHILD: AtomicBool = AtomicBool::new(false);
/// How many [`deferred`] guards are alive (a batch around transactions).
static DEPTH: AtomicUsize = AtomicUsize::new(0);
/// The first signal received (0: none).
static SIGNAL: AtomicI32 = AtomicI32::new(0);
/// The pipe's end the handler writes to (-1: none).
static WAKE: AtomicI32 = AtomicI32::new(-1);

fn exits_now() -> bool {
    !CHILD.load(Ordering::SeqCst) && DEPTH.load(Ordering::SeqCst) == 0
}
static INSTALL: Once = Once::new();

/// The signals that stop the tool.
const STOPPING: [Signal; 3] = [Signal::SIGINT, Signal::SIGTERM, Signal::SIGHUP];

extern "C" fn on_signal(signal: libc::c_int) {
    let _ = SIGNAL.compare_exchange(0, signal, Ordering::SeqCst, Ordering::SeqCst);
    let fd = WAKE.load(Ordering::SeqCst);
    if fd >= 0 {
        let byte = [1u8];
        // SAFETY: write(2) is async-signal-safe; `byte` outlives the call.
        let _ = unsafe { libc::write(fd, byte.as_ptr().cast(), 1) };
    }
}

/// Installs the handlers (once per process). `code` is the exit code of
/// a signal (`exit::for_signal`, the one mapping), for when it ends the
/// program at once.
pub fn install(code: fn(i32) -> i32) {
    INSTALL.call_once(|| {
        // If they cannot be installed, the default (the process dies, the
        // server rolls back) is still safe.
        let Ok((read, write)) = nix::unistd::pipe() else {
            return;
        };
        let mut read = std::fs::File::from(read);
        let spawned = std::thread::Builder::new()
            .name("signals".into())
            .spawn(move || {
                let mut byte = [0u8; 1];
                while matches!(read.read(&mut byte), Ok(1)) {
                    if exits_now() {
                        restore_terminal();
                        eprintln!("\ninterrupted: nothing was written");
                        std::process::exit(code(signal()));
                    }
                }
            });
        if spawned.is_err() {
            return;
        }
        WAKE.store(write.into_raw_fd(), Ordering::SeqCst);
        let action = SigAction::new(
            SigHandler::Handler(on_signal),
            SaFlags::SA_RESTART,
            SigSet::empty(),
        );
        for signal in STOPPING {
            // SAFETY: the handler does only async-signal-safe work.
            let _ = unsafe { sigaction(signal, &action) };
        }
    });
}

/// From now on Ctrl-C only sets a flag.
pub fn defer_to_child() {
    CHILD.store(true, Ordering::SeqCst);
}

/// While the returned guard lives, a signal only sets a flag (checked with
/// [`interrupted`]); when the last one drops, a signal ends the program
/// again. Guards nest: a batch holds one around its transactions.
pub fn deferred() -> DeferGuard {
    DEPTH.fetch_add(1, Ordering::SeqCst);
    DeferGuard
}

pub struct DeferGuard;

impl Drop for DeferGuard {
    fn drop(&mut self) {
        let before = DEPTH.fetch_sub(1, Ordering::SeqCst);
        if before == 1 && interrupted() {
            restore_terminal();
        }
    }
}

/// Whether Ctrl-C was pressed, or SIGTERM or SIGHUP received.
pub fn interrupted() -> bool {
    SIGNAL.load(Ordering::SeqCst) != 0
}

/// The signal received first (`libc::SIGINT`, …), 0 when none was.
pub fn signal() -> i32 {
    SIGNAL.load(Ordering::SeqCst)
}

/// Prompts and progress bars hide the cursor; give it back — on a
/// terminal only: a file or a pipe gets no escape sequence.
pub fn restore_terminal() {
    if std::io::stderr().is_terminal() {
        let _ = console::Term::stderr().show_cursor();
    }
}

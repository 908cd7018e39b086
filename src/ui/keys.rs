//! The keys `--watch` listens to (README, "Output and exit codes"): `q`
//! (or `Q`) leaves the view, as in `top` and `less`. While it listens, the
//! terminal delivers each key at once and does not echo it (ICANON and
//! ECHO off); ISIG stays on, so Ctrl-C is still the signal every command
//! handles (`interrupt`). The terminal's settings come back when the
//! [`Keys`] is dropped, on every way out of the watch (an error, a
//! panic's unwinding, q, Ctrl-C). Without a terminal on stdin nothing is
//! read: the watch only sleeps.

use std::io::IsTerminal as _;
use std::os::fd::AsFd as _;
use std::time::Duration;

use nix::poll::{PollFd, PollFlags, PollTimeout, poll};
use nix::sys::termios::{self, LocalFlags, SetArg, SpecialCharacterIndices, Termios};

/// Listening to stdin's keys; the terminal's own settings, to restore.
pub struct Keys {
    saved: Option<Termios>,
}

/// Whether `bytes` (what the keys sent) hold a key that leaves the view.
pub fn quits(bytes: &[u8]) -> bool {
    bytes.iter().any(|b| matches!(b, b'q' | b'Q'))
}

impl Keys {
    /// Starts listening when stdin is a terminal whose settings can be
    /// changed; otherwise a `Keys` that never hears anything.
    pub fn listen() -> Keys {
        let stdin = std::io::stdin();
        if !stdin.is_terminal() {
            return Keys { saved: None };
        }
        let Ok(saved) = termios::tcgetattr(stdin.as_fd()) else {
            return Keys { saved: None };
        };
        let mut keys = saved.clone();
        keys.local_flags
            .remove(LocalFlags::ICANON | LocalFlags::ECHO);
        // A read returns what is there, never waits: `poll` does the waiting.
        keys.control_chars[SpecialCharacterIndices::VMIN as usize] = 0;
        keys.control_chars[SpecialCharacterIndices::VTIME as usize] = 0;
        match termios::tcsetattr(stdin.as_fd(), SetArg::TCSANOW, &keys) {
            Ok(()) => Keys { saved: Some(saved) },
            Err(_) => Keys { saved: None },
        }
    }

    /// Waits at most `timeout` for a key; `true` when one leaves the view.
    /// A signal (Ctrl-C) ends the wait early, with `false`.
    pub fn quit_within(&mut self, timeout: Duration) -> bool {
        if self.saved.is_none() {
            std::thread::sleep(timeout);
            return false;
        }
        let stdin = std::io::stdin();
        let fd = stdin.as_fd();
        let millis = PollTimeout::try_from(timeout).unwrap_or(PollTimeout::MAX);
        let mut fds = [PollFd::new(fd, PollFlags::POLLIN)];
        if !matches!(poll(&mut fds, millis), Ok(n) if n > 0) {
            return false;
        }
        let mut bytes = [0u8; 64];
        match nix::unistd::read(fd, &mut bytes) {
            Ok(n) => quits(&bytes[..n]),
            Err(_) => false,
        }
    }
}

impl Drop for Keys {
    /// The terminal as it was: echo and line editing back for the shell.
    fn drop(&mut self) {
        if let Some(saved) = self.saved.take() {
            let _ = termios::tcsetattr(std::io::stdin().as_fd(), SetArg::TCSANOW, &saved);
        }
    }
}

#[cfg(test)]
#[path = "keys_tests.rs"]
mod tests;

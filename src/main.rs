use std::io::Write;

use clap::Parser;

use pushleft_controller::cli::Cli;
use pushleft_controller::exit::{self, ExitCode};

fn main() {
    let cli = Cli::parse();
    let code = match pushleft_controller::run(cli) {
        Ok(code) => code,
        Err(err) if is_broken_pipe(&err) => ExitCode::Done,
        Err(err) => {
            let code = exit::code_for(&err);
            let mut stderr = std::io::stderr().lock();
            let _ = writeln!(stderr, "error: {err}");
            for cause in err.chain().skip(1) {
                let _ = writeln!(stderr, "  caused by: {cause}");
            }
            code
        }
    };
    std::process::exit(code.as_i32());
}

/// Writing into a closed pipe (`... | head`) is not an error worth a word.
fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|cause| {
        cause
            .downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

use clap::Parser;

use pushleft_controller::cli::Cli;
use pushleft_controller::exit::{self, ExitCode};
use pushleft_controller::ui;

fn main() {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(err) => std::process::exit(ui::usage::report_clap_error(err)),
    };
    let json = ui::usage::json_output(cli.global.output);
    let code = match pushleft_controller::run(cli) {
        Ok(code) => code,
        Err(err) if is_broken_pipe(&err) => ExitCode::Done,
        Err(err) => {
            let code = exit::code_for(&err);
            ui::failure::report(&err, code, exit::kind_for(&err), json);
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

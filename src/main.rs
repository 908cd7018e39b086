use clap::FromArgMatches;

use pushleft_controller::cli::{self, Cli};
use pushleft_controller::exit::{self, ExitCode};
use pushleft_controller::{commands, ui};

fn main() {
    // A shell's completion script asking (`COMPLETE=bash …`): answer, exit.
    clap_complete::CompleteEnv::with_factory(commands::command)
        .var(cli::complete::VAR)
        .shells(cli::complete::shells::SHELLS)
        .complete();
    let mut matches = match commands::command().try_get_matches() {
        Ok(matches) => matches,
        Err(err) if commands::wants_json_version(&err) => {
            let _ = ui::print_json(&cli::VERSION);
            std::process::exit(0)
        }
        Err(err) => {
            let instead = commands::misplaced_option(&err);
            std::process::exit(ui::usage::report_clap_error(err, instead))
        }
    };
    if let Some(code) = commands::help_topic(&matches) {
        std::process::exit(code);
    }
    let cli = match Cli::from_arg_matches_mut(&mut matches) {
        Ok(cli) => cli,
        Err(err) => std::process::exit(ui::usage::report_clap_error(err, None)),
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

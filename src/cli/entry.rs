//! The process, from argv to its exit status (README, "Output and exit
//! codes"): a completion script's question answered, the line parsed (or
//! its usage error reported), each command held to its formats, the
//! command run and its failure shown. The binary calls [`main`] with the
//! commands' `run` and does nothing else.

use clap::FromArgMatches;

use super::{Cli, VERSION, command, complete, formats, line, usage};
use crate::exit::{self, ExitCode};
use crate::ui;

/// Runs one parsed command line: the commands' `run`, handed in (the
/// commands sit above this layer).
pub type Run = fn(Cli) -> anyhow::Result<ExitCode>;

/// argv in, the exit status out.
pub fn main(run: Run) -> i32 {
    let cli = match parse() {
        Ok(cli) => cli,
        Err(status) => return status,
    };
    let json = usage::json_output(cli.global.output);
    match formats::check_line(&cli).and_then(|()| run(cli)) {
        Ok(code) => code.as_i32(),
        Err(err) if is_broken_pipe(&err) => ExitCode::Done.as_i32(),
        Err(err) => {
            let code = exit::code_for(&err);
            ui::failure::report(&err, code, exit::kind_for(&err), json);
            code.as_i32()
        }
    }
}

/// The parsed line; or the status to exit with when the line is done with
/// here: help or the version shown, or a usage error reported.
fn parse() -> Result<Cli, i32> {
    // A shell's completion script asking (`COMPLETE=bash …`): answer, exit.
    clap_complete::CompleteEnv::with_factory(command)
        .var(complete::VAR)
        .shells(complete::shells::SHELLS)
        .complete();
    let mut matches = match command().try_get_matches() {
        Ok(matches) => matches,
        Err(err) if line::wants_json_version(&err) => {
            let _ = ui::print_json(&VERSION);
            return Err(0);
        }
        Err(err) => {
            let instead = line::misplaced_option(&err);
            return Err(usage::report_clap_error(err, instead));
        }
    };
    if let Some(code) = line::help_topic(&matches) {
        return Err(code);
    }
    Cli::from_arg_matches_mut(&mut matches).map_err(|err| usage::report_clap_error(err, None))
}

/// Writing into a closed pipe (`... | head`) is not an error worth a word.
fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|cause| {
        cause
            .downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

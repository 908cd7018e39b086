//! The binary: argv in, the exit status out (`cli::main`), with the
//! commands to run.

fn main() {
    std::process::exit(pushleft_controller::cli::main(pushleft_controller::run));
}

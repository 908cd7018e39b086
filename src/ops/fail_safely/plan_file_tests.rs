use std::time::Instant;

use super::*;
use crate::exit::ExitCode;

fn message(result: Result<impl std::fmt::Debug>) -> String {
    let err = result.unwrap_err();
    assert_eq!(exit::code_for(&err), ExitCode::Usage, "{err}");
    assert!(err.to_string().contains("othing was written"), "{err}");
    err.to_string()
}

#[test]
fn only_a_small_regular_file_is_read() {
    let dir = tempfile::tempdir().unwrap();
    let plan = dir.path().join("plan.json");
    std::fs::write(&plan, b"{}").unwrap();
    assert_eq!(read_bounded(&plan, DEADLINE).unwrap(), b"{}");
    // A symlink to a plan is the plan.
    let link = dir.path().join("link.json");
    std::os::unix::fs::symlink(&plan, &link).unwrap();
    assert_eq!(read_bounded(&link, DEADLINE).unwrap(), b"{}");
    // To a device, a directory: refused by what the descriptor is.
    let zero = dir.path().join("zero.json");
    std::os::unix::fs::symlink("/dev/zero", &zero).unwrap();
    assert!(message(read_bounded(&zero, DEADLINE)).contains("a character device"));
    assert!(message(read_bounded(dir.path(), DEADLINE)).contains("a directory"));
    // Exactly the limit is read; one byte more is not.
    std::fs::write(&plan, vec![b' '; MAX_BYTES as usize]).unwrap();
    assert_eq!(
        read_bounded(&plan, DEADLINE).unwrap().len(),
        MAX_BYTES as usize
    );
    std::fs::write(&plan, vec![b' '; MAX_BYTES as usize + 1]).unwrap();
    assert!(message(read_bounded(&plan, DEADLINE)).contains("larger than 1048576 bytes"));
}

#[test]
fn a_fifo_neither_blocks_the_open_nor_the_read() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("plan.json");
    nix::unistd::mkfifo(&fifo, nix::sys::stat::Mode::S_IRWXU).unwrap();
    let started = Instant::now();
    assert!(message(read_bounded(&fifo, DEADLINE)).contains("a FIFO"));
    assert!(started.elapsed() < Duration::from_millis(500));
}

#[test]
fn the_version_comes_first_then_every_field_must_be_known() {
    let file = Path::new("p\u{1b}[8m.json");
    let old = message(parse(file, br#"{"schema_version": 2, "plan_id": "x"}"#));
    assert!(old.contains("schema_version 2"), "{old}");
    assert!(
        old.contains("p\\u{1b}[8m.json") && !old.contains('\u{1b}'),
        "{old}"
    );
    let none = message(parse(file, br#"{"plan_id": "x"}"#));
    assert!(none.contains("schema_version none"), "{none}");
    let unknown = message(parse(
        file,
        br#"{"schema_version": 1, "extra\u001b[2J": true}"#,
    ));
    assert!(unknown.contains("unknown field"), "{unknown}");
    assert!(!unknown.contains('\u{1b}'), "{unknown}");
    assert!(message(parse(file, b"[1]")).contains("is not a plan"));
}

#[test]
fn a_plan_is_written_over_no_other_file_unless_forced() {
    let dir = tempfile::tempdir().expect("a directory");
    let out = dir.path().join("plan.json");
    check_free(&out, false).expect("no file yet");
    write(&out, "first\n", false).expect("a new file");
    let err = check_free(&out, false).expect_err("it exists now");
    assert_eq!(exit::code_for(&err), exit::ExitCode::Usage);
    let said = format!("{err}");
    assert!(
        said.contains("give another name, or --force to replace it"),
        "{said}"
    );
    let err = write(&out, "second\n", false).expect_err("created exclusively");
    assert_eq!(exit::code_for(&err), exit::ExitCode::Usage);
    assert_eq!(std::fs::read_to_string(&out).expect("the file"), "first\n");
    check_free(&out, true).expect("--force");
    write(&out, "second\n", true).expect("replaced");
    assert_eq!(std::fs::read_to_string(&out).expect("the file"), "second\n");
    // Nothing is left beside it: the temporary file was renamed.
    assert_eq!(
        std::fs::read_dir(dir.path())
            .expect("the directory")
            .count(),
        1
    );
    // A dangling symlink is a file there too: never written through.
    let link = dir.path().join("link.json");
    std::os::unix::fs::symlink(dir.path().join("elsewhere"), &link).expect("a symlink");
    assert!(check_free(&link, false).is_err());
    assert!(write(&link, "x", false).is_err());
    assert!(!dir.path().join("elsewhere").exists());
}

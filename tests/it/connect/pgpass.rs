//! The password file: the first matching line gives the password, and a
//! file others can read is ignored with a warning.

use super::*;

fn write_pgpass(path: &Path, content: &str, mode: u32) {
    fs::write(path, content).unwrap();
    fs::set_permissions(path, fs::Permissions::from_mode(mode)).unwrap();
}

#[test]
fn pgpass_first_matching_line_gives_the_password() {
    let server = tls_server();
    let home = tempfile::tempdir().unwrap();
    let port = server.port;
    // Lines that do not match come first; the first match wins.
    write_pgpass(
        &home.path().join(".pgpass"),
        &format!(
            "# host:port:database:user:password\n\
             127.0.0.1:{other}:postgres:{PASSWORD_USER}:{WRONG_PASSWORD}\n\
             127.0.0.1:{port}:control:{PASSWORD_USER}:{WRONG_PASSWORD}\n\
             127.0.0.1:{port}:*:someone_else:{WRONG_PASSWORD}\n\
             127.0.0.1:*:postgres:{PASSWORD_USER}:{PASSWORD}\n\
             *:*:*:*:{WRONG_PASSWORD}\n",
            other = port.wrapping_add(1)
        ),
        0o600,
    );
    let mut cmd = bin(home.path());
    password_env(&mut cmd, server);
    let run = doctor(&mut cmd);
    assert_connected(&run);
    let (_, detail) = run.doctor_check("settings");
    assert!(detail.contains(".pgpass"), "{detail}");
    assert!(!run.stdout.contains(PASSWORD) && !run.stderr.contains(PASSWORD));

    // PGPASSFILE points elsewhere; ~/.pgpass is then not read.
    let other = tempfile::tempdir().unwrap();
    let file = other.path().join("passwords");
    write_pgpass(&file, &format!("*:*:*:{PASSWORD_USER}:{PASSWORD}\n"), 0o400);
    write_pgpass(
        &home.path().join(".pgpass"),
        &format!("*:*:*:*:{WRONG_PASSWORD}\n"),
        0o600,
    );
    let mut cmd = bin(home.path());
    password_env(&mut cmd, server);
    assert_connected(&doctor(cmd.env("PGPASSFILE", &file)));
}

#[test]
fn pgpass_readable_by_others_is_ignored_with_a_warning() {
    let server = tls_server();
    let home = tempfile::tempdir().unwrap();
    let path = home.path().join(".pgpass");
    write_pgpass(&path, &format!("*:*:*:*:{PASSWORD}\n"), 0o644);
    let mut cmd = bin(home.path());
    password_env(&mut cmd, server);
    let run = doctor(&mut cmd);
    assert!(
        run.stderr.contains("warning: password file")
            && run.stderr.contains("group or world access"),
        "stderr: {}",
        run.stderr
    );
    assert_not_connected(&run, "password");
    assert!(!run.stdout.contains(PASSWORD) && !run.stderr.contains(PASSWORD));
    let (status, _) = run.doctor_check("password file");
    assert_eq!(status, "warn");
}

//! The build script (`build = "src/build.rs"`: the top level holds only
//! what the README's "Development" lists): the commit and the build date
//! for `--version`. Without git (a source tarball) both are "unknown"
//! unless PUSHLEFT_COMMIT / SOURCE_DATE_EPOCH say otherwise.

use std::process::Command;

fn main() {
    println!("cargo:rerun-if-env-changed=PUSHLEFT_COMMIT");
    println!("cargo:rerun-if-env-changed=SOURCE_DATE_EPOCH");
    for path in ["HEAD", "refs/heads", "packed-refs"] {
        if let Some(file) = git(&["rev-parse", "--git-path", path]) {
            println!("cargo:rerun-if-changed={file}");
        }
    }
    let commit = std::env::var("PUSHLEFT_COMMIT")
        .ok()
        .or_else(|| git(&["rev-parse", "--short=12", "HEAD"]))
        .unwrap_or_else(|| "unknown".to_string());
    println!("cargo:rustc-env=PUSHLEFT_COMMIT={commit}");
    let seconds = std::env::var("SOURCE_DATE_EPOCH")
        .ok()
        .and_then(|s| s.trim().parse::<u64>().ok())
        .or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .ok()
                .map(|d| d.as_secs())
        });
    let date = seconds.map_or_else(|| "unknown".to_string(), civil_date);
    println!("cargo:rustc-env=PUSHLEFT_BUILD_DATE={date}");
}

/// What `git ARGS` prints, trimmed; `None` without git or outside a
/// repository.
fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git").args(args).output().ok()?;
    let text = String::from_utf8(out.stdout).ok()?.trim().to_string();
    (out.status.success() && !text.is_empty()).then_some(text)
}

/// `YYYY-MM-DD` (UTC) of a Unix time (Howard Hinnant's days-to-civil).
fn civil_date(seconds: u64) -> String {
    let z = (seconds / 86_400) as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02}")
}

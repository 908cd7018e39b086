//! Reading a plan file for `fail-safely --apply FILE` within limits
//! (README, "When things go wrong": the plan file's limits). The file is
//! written by someone else and may be anything: only a regular file is read
//! (opened without blocking, so a FIFO cannot hold the open, then checked on
//! the opened descriptor, so a symlink to `/dev/zero` is refused and a
//! symlink to a plan is not), at most [`MAX_BYTES`], the whole read within
//! [`DEADLINE`]; its `schema_version` first, then the plan with every field
//! known at every level, then no more deployments than `--max`. Each
//! refusal is exit 2 and names the file; nothing was written.
//!
//! Writing one (`--plan-out FILE`, README, "Two-person break-glass"): a
//! plan under review is never overwritten. Without `--force` the file is
//! created exclusively (O_EXCL: when it exists, or appears meanwhile, the
//! write is refused, exit 2); with `--force` the plan goes to a temporary
//! file in the same directory, renamed over FILE: a reader sees the old
//! plan or the new one, never half of either.

use std::io::{Read as _, Write as _};
use std::os::unix::fs::OpenOptionsExt as _;
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::Duration;

use anyhow::Result;
use serde_json::{Map, Value};

use crate::exit;
use crate::model::plan::{PLAN_VERSION, Plan};
use crate::ui::sanitize::visible;

/// The largest plan file read: a plan of thousands of deployments is far
/// smaller.
pub const MAX_BYTES: u64 = 1024 * 1024;

/// How long reading the file may take.
pub const DEADLINE: Duration = Duration::from_secs(2);

/// The plan in `file`, of a format this version reads, of at most `max`
/// deployments.
pub fn read(file: &Path, max: usize) -> Result<Plan> {
    let bytes = read_bounded(file, DEADLINE)?;
    let plan = parse(file, &bytes)?;
    if plan.deployments.len() > max {
        return Err(exit::usage(format!(
            "the plan {} names {} deployments, more than --max {max}: nothing was written. \
             Check the plan, then rerun with --max {} if it is right",
            shown(file),
            plan.deployments.len(),
            plan.deployments.len()
        )));
    }
    Ok(plan)
}

/// The file's name as an error shows it (a name is text too).
fn shown(file: &Path) -> String {
    visible(&file.display().to_string()).into_owned()
}

/// Why the file was not read, as the sentence's middle.
fn refused(file: &Path, why: impl std::fmt::Display) -> anyhow::Error {
    exit::usage(format!(
        "cannot read the plan {}: {why}; nothing was written",
        shown(file)
    ))
}

/// The file's bytes: a regular file of at most [`MAX_BYTES`], read within
/// `deadline` (the reading thread is left behind when it runs out: the
/// process exits with the refusal).
fn read_bounded(file: &Path, deadline: Duration) -> Result<Vec<u8>> {
    let (tx, rx) = mpsc::channel();
    let path: PathBuf = file.to_path_buf();
    std::thread::Builder::new()
        .name("plan-file".into())
        .spawn(move || {
            let _ = tx.send(open_and_read(&path));
        })
        .map_err(|err| refused(file, format!("cannot start reading it ({err})")))?;
    match rx.recv_timeout(deadline) {
        Ok(Ok(bytes)) => Ok(bytes),
        Ok(Err(why)) => Err(refused(file, why)),
        Err(_) => Err(refused(
            file,
            format!(
                "reading it took more than {} seconds (a plan is a small regular file)",
                deadline.as_secs()
            ),
        )),
    }
}

/// Opens without blocking, checks the opened descriptor is a regular
/// file, reads one byte more than allowed to know when it is too big.
fn open_and_read(path: &Path) -> std::result::Result<Vec<u8>, String> {
    let mut opened = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(nix::fcntl::OFlag::O_NONBLOCK.bits())
        .open(path)
        .map_err(|err| err.to_string())?;
    let meta = opened.metadata().map_err(|err| err.to_string())?;
    if !meta.is_file() {
        return Err(format!(
            "it is not a regular file but {} (a plan is the file --plan-out wrote)",
            kind(&meta.file_type())
        ));
    }
    if meta.len() > MAX_BYTES {
        return Err(too_big(meta.len()));
    }
    let mut bytes = Vec::with_capacity(usize::try_from(meta.len()).unwrap_or(0));
    (&mut opened)
        .take(MAX_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|err| err.to_string())?;
    if bytes.len() as u64 > MAX_BYTES {
        return Err(too_big(bytes.len() as u64));
    }
    Ok(bytes)
}

fn too_big(len: u64) -> String {
    format!(
        "it is larger than {MAX_BYTES} bytes (at least {len}); a plan is far smaller, so this \
         is not one"
    )
}

fn kind(ft: &std::fs::FileType) -> &'static str {
    use std::os::unix::fs::FileTypeExt as _;
    if ft.is_dir() {
        "a directory"
    } else if ft.is_fifo() {
        "a FIFO"
    } else if ft.is_char_device() {
        "a character device"
    } else if ft.is_block_device() {
        "a block device"
    } else if ft.is_socket() {
        "a socket"
    } else {
        "a special file"
    }
}

/// The document: an object whose `schema_version` is this version's, the
/// rest a plan with no field this version does not know.
fn parse(file: &Path, bytes: &[u8]) -> Result<Plan> {
    let not_a_plan = |err: &dyn std::fmt::Display| {
        exit::usage(format!(
            "{} is not a plan of fail-safely --plan-out ({}); nothing was written",
            shown(file),
            visible(&err.to_string())
        ))
    };
    let mut document: Map<String, Value> =
        serde_json::from_slice(bytes).map_err(|err| not_a_plan(&err))?;
    let version = document.remove("schema_version");
    if version.as_ref().and_then(Value::as_u64) != Some(u64::from(PLAN_VERSION)) {
        let said = version.map_or_else(|| "none".to_string(), |v| v.to_string());
        return Err(exit::usage(format!(
            "{} is a plan of schema_version {}; this version of pushleft-controller applies \
             version {PLAN_VERSION}. Nothing was written",
            shown(file),
            visible(&said)
        )));
    }
    serde_json::from_value(Value::Object(document)).map_err(|err| not_a_plan(&err))
}

/// Refuses (2) before anything is decided when `out` exists and `force`
/// is not given: the plan would be made for nothing.
pub fn check_free(out: &Path, force: bool) -> Result<()> {
    match std::fs::symlink_metadata(out) {
        Ok(_) if !force => Err(exists(out)),
        _ => Ok(()),
    }
}

fn exists(out: &Path) -> anyhow::Error {
    exit::usage(format!(
        "the plan file {} exists and is not overwritten (it may be a plan under review): give \
         another name, or --force to replace it; nothing was written to the database",
        shown(out)
    ))
}

/// Writes `text` to `out`: created exclusively, or with `force` replaced
/// atomically (see above).
pub fn write(out: &Path, text: &str, force: bool) -> Result<()> {
    let cannot = |err: std::io::Error| {
        exit::usage(format!(
            "cannot write the plan to {}: {err}; nothing was written to the database either",
            shown(out)
        ))
    };
    if force {
        return replace(out, text).map_err(cannot);
    }
    let mut file = match std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(out)
    {
        Ok(file) => file,
        Err(err) if err.kind() == std::io::ErrorKind::AlreadyExists => return Err(exists(out)),
        Err(err) => return Err(cannot(err)),
    };
    let written = file
        .write_all(text.as_bytes())
        .and_then(|()| file.sync_all());
    if let Err(err) = written {
        // Half a plan is no plan: the file this run created goes.
        let _ = std::fs::remove_file(out);
        return Err(cannot(err));
    }
    Ok(())
}

/// A temporary file beside `out` (same file system: the rename is
/// atomic), synced, then renamed over it.
fn replace(out: &Path, text: &str) -> std::io::Result<()> {
    use std::os::unix::fs::PermissionsExt as _;
    let dir = match out.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    let mut temp = tempfile::Builder::new()
        .prefix(".plan-out.")
        // As a new file gets (the umask applies): the reviewer reads it.
        .permissions(std::fs::Permissions::from_mode(0o666))
        .tempfile_in(dir)?;
    temp.write_all(text.as_bytes())?;
    temp.as_file().sync_all()?;
    temp.persist(out).map_err(|err| err.error)?;
    Ok(())
}

#[cfg(test)]
#[path = "plan_file_tests.rs"]
mod tests;

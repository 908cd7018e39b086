//! Several regions at once for the fleet-wide views (`stuck`, `fleet list`,
//! `history`): a region is a named connection service (one control-plane
//! database each); `--service a,b,…` names some, `--all-services` takes
//! every service the service files define. They are read in parallel; a
//! region that cannot be read is reported while the others are shown, and
//! the command then exits 1 (the view is incomplete).

use crate::db::session::Session;
use anyhow::Result;

use super::Context;
use crate::db::connect::service_names;
use crate::exit;
use crate::model::region::RegionStatus;

/// The regions asked for; `None`: one database, as usual.
pub fn requested(ctx: &Context, all_services: bool) -> Result<Option<Vec<String>>> {
    if all_services {
        let names = service_names()?;
        if names.is_empty() {
            return Err(exit::usage(
                "--all-services: no service file defines a service (PGSERVICEFILE, \
                 ~/.pg_service.conf, PGSYSCONFDIR/pg_service.conf)",
            ));
        }
        return Ok(Some(names));
    }
    let Some(list) = ctx.global.service.as_deref().filter(|s| s.contains(',')) else {
        return Ok(None);
    };
    let names: Vec<String> = list
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(str::to_string)
        .collect();
    Ok(Some(names))
}

/// Reads every region in parallel, each in its own session: the results
/// in the order the regions were named.
pub fn read_all<T: Send>(
    ctx: &Context,
    regions: &[String],
    read: &(dyn Fn(&mut Session) -> Result<T> + Sync),
) -> Vec<(String, Result<T>)> {
    std::thread::scope(|scope| {
        let handles: Vec<_> = regions
            .iter()
            .map(|region| {
                scope.spawn(move || {
                    let result = ctx
                        .connect_to_region(region)
                        .and_then(|mut client| read(&mut client));
                    (region.clone(), result)
                })
            })
            .collect();
        handles
            .into_iter()
            .zip(regions)
            .map(|(handle, region)| {
                handle.join().unwrap_or_else(|_| {
                    (
                        region.clone(),
                        Err(anyhow::anyhow!("reading region {region} panicked")),
                    )
                })
            })
            .collect()
    })
}

/// The status of each region, and the values of those that answered.
pub fn split<T>(results: Vec<(String, Result<T>)>) -> (Vec<RegionStatus>, Vec<(String, T)>) {
    let mut statuses = Vec::new();
    let mut values = Vec::new();
    for (region, result) in results {
        match result {
            Ok(value) => {
                statuses.push(RegionStatus {
                    region: region.clone(),
                    ok: true,
                    error: None,
                });
                values.push((region, value));
            }
            Err(err) => statuses.push(RegionStatus {
                region,
                ok: false,
                error: Some(format!("{err:#}")),
            }),
        }
    }
    (statuses, values)
}

/// Says which regions could not be read (stderr) and how the command
/// exits: 1 when any could not, else `otherwise`.
pub fn finish(
    ctx: &Context,
    statuses: &[RegionStatus],
    otherwise: exit::ExitCode,
) -> exit::ExitCode {
    let failed: Vec<&RegionStatus> = statuses.iter().filter(|s| !s.ok).collect();
    for status in &failed {
        ctx.output.note(&format!(
            "region {} could not be read: {}",
            status.region,
            status.error.as_deref().unwrap_or("unknown")
        ));
    }
    if failed.is_empty() {
        otherwise
    } else {
        ctx.output.note(&format!(
            "{} of {} regions could not be read: the view above is incomplete (exit 1)",
            failed.len(),
            statuses.len()
        ));
        exit::ExitCode::Unexpected
    }
}
